// `npm run docs:diagnostics`: rewrites the list of diagnostic codes in docs/ARCHITECTURE.md from
// compiler/diagnostics/table.ts.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DOCS_BEGIN, DOCS_END, withDiagnosticList } from "../compiler/diagnostics/docs.js";

// dist/scripts/ when built, scripts/ when run from source: the repository is the nearest parent with docs/.
const here = path.dirname(fileURLToPath(import.meta.url));
const repo = [path.resolve(here, ".."), path.resolve(here, "../..")].find((dir) => {
  try {
    readFileSync(path.join(dir, "docs/ARCHITECTURE.md"));
    return true;
  } catch {
    return false;
  }
});
if (repo === undefined) throw new Error("docs/ARCHITECTURE.md not found above " + here);
const file = path.join(repo, "docs/ARCHITECTURE.md");
const updated = withDiagnosticList(readFileSync(file, "utf8"));
if (updated === null) {
  process.stderr.write(`${file}: the markers ${DOCS_BEGIN} and ${DOCS_END} are missing\n`);
  process.exit(1);
}
writeFileSync(file, updated);
process.stdout.write(`${file}: diagnostic codes rewritten from compiler/diagnostics/table.ts\n`);
