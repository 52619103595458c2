// `strand compile [dir] --out <dir> --runtime-import <spec>`: write the generated TypeScript.
// Files whose content is unchanged are left alone; `queries/*.ts` of queries that no longer exist
// are removed.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { compileDir, countErrors } from "../project/compile-dir.js";
import { bm25Origin, readProjectConfig } from "../project/project-setup.js";
import { displayPath } from "../project/sources.js";
import { makeDirs } from "../../runtime/store/make-dirs.js";

export function runCompile(dir: string, outDir: string, runtimeImport: string): number {
  const setup = readProjectConfig(dir);
  if (setup === null) return 1;
  const { config } = setup;
  const compiled = compileDir(setup.sources, { runtimeImport, bm25: config.bm25, bm25Origin: bm25Origin(config), mcp: config.mcp });
  if (compiled.report !== "") process.stderr.write(`${compiled.report}\n`);
  if (!compiled.ok) {
    const errors = Math.max(1, countErrors(compiled.result.diagnostics));
    process.stderr.write(`${errors} error${errors === 1 ? "" : "s"}; nothing written\n`);
    return 1;
  }
  let written = 0;
  for (const file of compiled.result.files) {
    const target = join(outDir, file.path);
    if (existsSync(target) && readFileSync(target, "utf8") === file.text) continue;
    makeDirs(dirname(target));
    writeFileSync(target, file.text);
    written++;
  }
  const removed = removeStaleQueries(outDir, new Set(compiled.queryFiles.map((f) => f.path)));
  process.stdout.write(
    `compiled ${compiled.queryFiles.length} queries into ${displayPath(outDir)} ` +
      `(${written} written, ${compiled.result.files.length - written} unchanged, ${removed} removed)\n`,
  );
  return 0;
}

function removeStaleQueries(outDir: string, current: ReadonlySet<string>): number {
  const queriesDir = join(outDir, "queries");
  if (!existsSync(queriesDir)) return 0;
  let removed = 0;
  for (const name of readdirSync(queriesDir)) {
    if (!name.endsWith(".ts") || current.has(`queries/${name}`)) continue;
    rmSync(join(queriesDir, name));
    removed++;
  }
  return removed;
}
