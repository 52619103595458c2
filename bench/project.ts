// The bench's HelixQL project (bench/project/*.hx), compiled in process for its schema descriptor,
// so the data the bench writes straight through GraphStore follows the very schema `strand serve`
// compiles from the same files.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { compileProject, formatDiagnostic } from "../compiler/index.js";
import type { SchemaDescriptor } from "../core/schema.js";
import { BENCH_PROJECT } from "./servers.js";

export const ITEM = "Item";
export const LINK = "Link";

/** The project's .hx files in name order. */
export function benchSources(dir = BENCH_PROJECT): Array<{ file: string; text: string }> {
  return readdirSync(dir)
    .filter((name) => name.endsWith(".hx"))
    .sort()
    .map((name) => ({ file: join(dir, name), text: readFileSync(join(dir, name), "utf8") }));
}

export function benchSchema(dir = BENCH_PROJECT): SchemaDescriptor {
  const sources = benchSources(dir);
  const result = compileProject(sources, { checkOnly: true });
  if (!result.ok || result.schema === null) {
    const texts = new Map(sources.map((s) => [s.file, s.text]));
    const report = result.diagnostics.map((d) => formatDiagnostic(d, texts)).join("\n");
    throw new Error(`bench/project does not compile:\n${report}`);
  }
  return result.schema;
}
