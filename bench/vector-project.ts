// The vector benchmark's HelixQL project (bench/vector-project/*.hx): `V::Vec` (searched) and
// `V::Emb` (AddV target), with the queries `SearchVec(v)` and `AddEmb(v, n)` that `strand serve`
// answers in the HTTP runs. In process only its schema is needed.
import { readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { compileProject, formatDiagnostic } from "../compiler/index.js";
import type { SchemaDescriptor } from "../core/schema.js";

export const SEARCHED = "Vec";
export const ADDED = "Emb";

const HERE = dirname(fileURLToPath(import.meta.url));
/** bench/vector-project in the repository, whether this runs from bench/ (vite-node) or dist/bench/. */
export const VECTOR_PROJECT =
  basename(dirname(HERE)) === "dist" ? resolve(HERE, "../../bench/vector-project") : join(HERE, "vector-project");

export function vectorProjectSchema(dir = VECTOR_PROJECT): SchemaDescriptor {
  const sources = readdirSync(dir)
    .filter((name) => name.endsWith(".hx"))
    .sort()
    .map((name) => ({ file: join(dir, name), text: readFileSync(join(dir, name), "utf8") }));
  const result = compileProject(sources);
  if (!result.ok || result.schema === null) {
    const texts = new Map(sources.map((s) => [s.file, s.text]));
    throw new Error(`${dir} does not compile:\n${result.diagnostics.map((d) => formatDiagnostic(d, texts)).join("\n")}`);
  }
  return result.schema;
}
