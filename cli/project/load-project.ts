// Loads a project for serving without a build step: compile the *.hx files in process to one
// JavaScript module per query (compiler/scripts.ts: no TypeScript to print or strip, so neither
// ts-morph nor TypeScript is loaded) and import each from a data: URL. Query modules import
// nothing, so there is nothing to resolve.
//
// With a cache folder (serve and mcp --stdio pass `<data>/compile-cache`), a project compiled
// before is loaded from what that compile produced (compile-cache.ts), and the compiler is not
// loaded: it is imported only when the cache misses.
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
  /** The .hx files, as read (POST /query compiles against their schema). */
  sources: SourceFile[];
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
  return { schema: compiled.schema, queries, models: compiled.models, warnings: compiled.warnings, sources };
}

/** Compiles: what a cache miss costs (the compiler loads here). */
async function compileForServing(sources: SourceFile[], options: CompileDirOptions): Promise<CompiledProject> {
  const [{ compileQueryScripts }, { formatDiagnostics }] = await Promise.all([
    import("../../compiler/scripts.js"),
    import("./diagnostics-report.js"),
  ]);
  const result = compileQueryScripts(sources, {
    runtimeImport: options.runtimeImport ?? DEFAULT_RUNTIME_IMPORT,
    bm25: options.bm25 ?? true,
    bm25Origin: options.bm25Origin,
    mcp: options.mcp ?? true,
  });
  const report = formatDiagnostics(result.diagnostics, sources);
  const errors = result.diagnostics.filter((d) => d.severity === "error").length;
  if (!result.ok || errors > 0 || result.schema === null) throw new CompileFailed(report, Math.max(errors, 1));
  const files = [...result.files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const models = [...new Set(result.queries.flatMap((q) => (q.model === null ? [] : [q.model])))];
  return { schema: result.schema, queries: files.map((file) => ({ path: file.path, js: file.text })), models, warnings: report };
}
