// `strand export [dir] --data DIR [--out FILE|-]`: every record of the data directory as JSON
// Lines (runtime/data/export.ts), from one consistent snapshot. It opens the data read-only and
// takes no lock, so it works while a server serves (and writes) the same directory. The types
// come from the data itself (what its records were last checked against), so [dir] is accepted
// for symmetry with serve and import but not read. Progress goes to stderr; with --out - the records go to stdout.
import fs from "node:fs";
import { once } from "node:events";
import { exportDataDir } from "../../runtime/data/export.js";
import { cliProgress } from "../progress/progress.js";
import { displayPath } from "../project/sources.js";

export interface ExportOptions {
  dataDir: string;
  /** A file path, or "-" for stdout. */
  out: string;
}

export async function runExport(options: ExportOptions): Promise<number> {
  const toStdout = options.out === "-";
  const stream = toStdout ? process.stdout : fs.createWriteStream(options.out);
  const failed = new Promise<never>((_, reject) => stream.once("error", reject));
  failed.catch(() => {});
  // Resolves once the chunk is written out (the export then reuses its memory); a write queued
  // behind the stream's buffer waits for it, which holds the export back to the writer's pace.
  const write = (chunk: Buffer): Promise<void> =>
    Promise.race([
      new Promise<void>((resolve) =>
        stream.write(chunk, (error) => {
          if (!error) resolve(); // an error rejects `failed`
        }),
      ),
      failed,
    ]);
  const outcome = await exportDataDir(options.dataDir, write, cliProgress());
  if (!toStdout) {
    (stream as fs.WriteStream).end();
    await Promise.race([once(stream, "finish"), failed]);
  }
  if (typeof outcome === "string") {
    process.stderr.write(`strand: ${outcome}\n`);
    if (!toStdout) fs.rmSync(options.out, { force: true });
    return 1;
  }
  const where = toStdout ? "" : ` to ${displayPath(options.out)}`;
  process.stderr.write(`exported ${outcome.nodes} nodes, ${outcome.vectors} vectors, ${outcome.edges} edges${where}\n`);
  return 0;
}
