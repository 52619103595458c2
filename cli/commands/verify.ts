// `strand verify <data dir>`: the store's integrity check (runtime/verify/) on a data directory
// no process has open. It needs no project: the data records the type definitions its records
// were last checked against, and the BM25 configuration its keyword index was built with.
// Exit 0 with a one-line summary when every check agrees; exit 1 listing each disagreement, one
// per line, or with a one-line error when the directory cannot be verified.
import { describeCounts } from "../../runtime/store/integrity.js";
import { verifyDataDir } from "../../runtime/verify/verify-dir.js";
import { cliProgress } from "../progress/progress.js";
import { displayPath } from "../project/sources.js";

export async function runVerify(dataDir: string): Promise<number> {
  const shown = displayPath(dataDir);
  // Progress on stderr: a large store takes minutes, and the result goes to stdout.
  const outcome = await verifyDataDir(shown, cliProgress());
  if (!outcome.ok) {
    process.stderr.write(`strand: ${outcome.message}\n`);
    return 1;
  }
  const { counts, disagreements, skipped } = outcome.report;
  const notChecked = skipped.length === 0 ? "" : ` (not checked: ${skipped.join("; ")})`;
  if (disagreements.length === 0) {
    process.stdout.write(`ok: ${describeCounts(counts)}${notChecked}\n`);
    return 0;
  }
  for (const d of disagreements) process.stdout.write(`${d.check} ${d.key}: ${d.message}\n`);
  const n = disagreements.length;
  process.stderr.write(`strand: ${shown} has ${n} disagreement${n === 1 ? "" : "s"} (${describeCounts(counts)})\n`);
  return 1;
}
