// The scan benchmark's HelixQL project (bench/scan-project/*.hx), compiled in process and its
// generated query modules loaded exactly as `strand serve` loads them (cli/project/load-project.ts:
// transpile TS → JS, import from a data: URL), so the benchmark runs the very code a server runs.
import { readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { formatDiagnostic } from "../compiler/diagnostics/diagnostic.js";
import { compileQueryScripts } from "../compiler/scripts.js";
import { evaluateQueryModule } from "../cli/project/query-modules.js";
import type { QueryModule } from "../core/query-module.js";
import type { SchemaDescriptor } from "../core/schema.js";

export const PERSON = "Person";
export const KNOWS = "Knows";

const HERE = dirname(fileURLToPath(import.meta.url));
/** bench/scan-project in the repository, whether this runs from bench/ (vite-node) or dist/bench/. */
export const SCAN_PROJECT = basename(dirname(HERE)) === "dist" ? resolve(HERE, "../../bench/scan-project") : join(HERE, "scan-project");

export interface ScanProject {
  schema: SchemaDescriptor;
  /** `FilterScan(min: U32, city: String)`: the matching Person records. */
  filterScan: QueryModule;
  /** `ProjectPeople(min: U32)`: the first 1000 matches as {name, years, friends, town}. */
  projectPeople: QueryModule;
}

export async function loadScanProject(dir = SCAN_PROJECT): Promise<ScanProject> {
  const sources = readdirSync(dir)
    .filter((name) => name.endsWith(".hx"))
    .sort()
    .map((name) => ({ file: join(dir, name), text: readFileSync(join(dir, name), "utf8") }));
  const result = compileQueryScripts(sources);
  if (!result.ok || result.schema === null) {
    const texts = new Map(sources.map((s) => [s.file, s.text]));
    throw new Error(`${dir} does not compile:\n${result.diagnostics.map((d) => formatDiagnostic(d, texts)).join("\n")}`);
  }
  const query = async (name: string): Promise<QueryModule> => {
    const file = result.files.find((f) => f.path === `queries/${name}.js`);
    if (file === undefined) throw new Error(`${dir}: no generated query ${name}`);
    return evaluateQueryModule(file.path, file.text);
  };
  return { schema: result.schema, filterScan: await query("FilterScan"), projectPeople: await query("ProjectPeople") };
}
