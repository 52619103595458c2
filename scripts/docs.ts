// `npm run docs`: rewrites the sections of docs/ARCHITECTURE.md that are rendered from code — the
// diagnostic codes (compiler/diagnostics/table.ts) and the on-disk key layout
// (runtime/store/key-layout.ts). Tests fail when either is stale.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { withDiagnosticList } from "../compiler/diagnostics/docs.js";
import { withKeyLayout } from "./key-layout-doc.js";

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
if (repo === undefined) throw new Error(`docs/ARCHITECTURE.md not found above ${here}`);
const file = path.join(repo, "docs/ARCHITECTURE.md");
let text = readFileSync(file, "utf8");
for (const [name, render] of [
  ["diagnostic codes", withDiagnosticList],
  ["key layout", withKeyLayout],
] as const) {
  const updated = render(text);
  if (updated === null) {
    process.stderr.write(`${file}: the markers of the ${name} section are missing\n`);
    process.exit(1);
  }
  text = updated;
}
writeFileSync(file, text);
process.stdout.write(`${file}: diagnostic codes and key layout rewritten\n`);
