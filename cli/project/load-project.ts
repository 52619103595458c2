// Loads a project for serving without a build step: compile the *.hx files in process, transpile
// each generated `queries/*.ts` to JavaScript and import it from a data: URL. Generated query
// modules import only types, so the transpiled code has no imports left to resolve.
//
// With a cache folder (serve and mcp --stdio pass `<data>/compile-cache`), a project compiled
// before is loaded from what that compile produced (compile-cache.ts), and neither the compiler
// nor TypeScript is loaded: both are imported only when the cache misses.
import type { QueryModule } from "../../core/query-module.js";
import type { SchemaDescriptor } from "../../core/schema.js";
import { cacheKey, readCompileCache, writeCompileCache, type CompiledProject } from "./compile-cache.js";
import type { CompileDirOptions } from "./compile-dir.js";
import { DEFAULT_RUNTIME_IMPORT } from "../config/defaults.js";
import { evaluateQueryModule } from "./query-modules.js";
import { readProjectSources, type SourceFile } from "./sources.js";

export interface LoadedProject {
  schema: SchemaDescriptor;
  /** In generated-file order (sorted by name). */
  queries: QueryModule[];
  /** the embedding models named by `#[model("..")]`, checked at startup */
  models: string[];
  /** Formatted warnings (empty when none). */
  warnings: string;
}

/** Thrown when the project does not compile; `report` holds the formatted diagnostics. */
export class CompileFailed extends Error {
  constructor(
    readonly report: string,
    readonly errorCount: number,
  ) {
    super(`the project has ${errorCount} error${errorCount === 1 ? "" : "s"}`);
    this.name = "CompileFailed";
  }
}

export type LoadOptions = Pick<CompileDirOptions, "bm25" | "bm25Origin" | "mcp"> & {
  /** where compiled projects are kept between starts; none: always compile */
  cacheDir?: string;
};

export async function loadProject(dir: string, options: LoadOptions = {}): Promise<LoadedProject> {
  const sources = readProjectSources(dir);
  const compileOptions = {
    runtimeImport: DEFAULT_RUNTIME_IMPORT,
    bm25: options.bm25 ?? true,
    bm25Origin: options.bm25Origin,
    mcp: options.mcp ?? true,
  };
  const key = options.cacheDir === undefined ? null : cacheKey(sources, compileOptions);
  let compiled = key === null ? null : readCompileCache(options.cacheDir!, key);
  if (compiled === null) {
    compiled = await compileForServing(sources, compileOptions);
    if (key !== null) writeCompileCache(options.cacheDir!, key, compiled);
  }
  const queries: QueryModule[] = [];
  for (const query of compiled.queries) queries.push(await evaluateQueryModule(query.path, query.js));
  return { schema: compiled.schema, queries, models: compiled.models, warnings: compiled.warnings };
}

/** Compiles and transpiles: what a cache miss costs (the compiler and TypeScript load here). */
async function compileForServing(sources: SourceFile[], options: CompileDirOptions): Promise<CompiledProject> {
  const [{ compileSources }, { transpileQuery }] = await Promise.all([import("./compile-dir.js"), import("./transpile.js")]);
  const compiled = compileSources(sources, { ...options, queryModulesOnly: true });
  if (!compiled.ok || compiled.result.schema === null) {
    const errors = compiled.result.diagnostics.filter((d) => d.severity === "error").length;
    throw new CompileFailed(compiled.report, Math.max(errors, 1));
  }
  const files = [...compiled.queryFiles].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const models = [...new Set(compiled.result.queries.flatMap((q) => (q.model === null ? [] : [q.model])))];
  return {
    schema: compiled.result.schema,
    queries: files.map((file) => ({ path: file.path, js: transpileQuery(file.path, file.text) })),
    models,
    warnings: compiled.report,
  };
}

/** Transpiles one generated query file and evaluates it as an ES module. */
export async function importQueryModule(path: string, source: string): Promise<QueryModule> {
  const { transpileQuery } = await import("./transpile.js");
  return evaluateQueryModule(path, transpileQuery(path, source));
}
