// Compiles a project folder and renders its diagnostics the way every command prints them.
import { compileProject, hasErrors, type Diagnostic } from "../../compiler/index.js";
import { formatDiagnostics } from "./diagnostics-report.js";
import { DEFAULT_RUNTIME_IMPORT } from "../config/defaults.js";
import { readProjectSources, type SourceFile } from "./sources.js";

export type CompileResult = ReturnType<typeof compileProject>;

export interface CompiledDir {
  sources: SourceFile[];
  result: CompileResult;
  ok: boolean;
  /** All diagnostics, formatted with their source snippets, in order. */
  report: string;
  queryFiles: { path: string; text: string }[];
}

const QUERY_FILE = /^queries\/[^/]+\.ts$/;

export interface CompileDirOptions {
  runtimeImport?: string;
  /** Check only: no generated files (for `strand check`). */
  checkOnly?: boolean;
  /** Generate only the query modules (`serve` and `mcp --stdio` load nothing else). */
  queryModulesOnly?: boolean;
  /** strand.toml `bm25`: false makes SearchBM25 a diagnostic. Default true. */
  bm25?: boolean;
  /** Where `bm25` is set, for that diagnostic's hint (project-setup.ts bm25Origin). */
  bm25Origin?: string;
  /** strand.toml `mcp`: true (the default) makes a query named `mcp` a diagnostic (E313). */
  mcp?: boolean;
}

export function compileDir(dir: string, options: CompileDirOptions = {}): CompiledDir {
  return compileSources(readProjectSources(dir), options);
}

/** compileDir of sources already read (the compile cache keys a compile by exactly these). */
export function compileSources(sources: SourceFile[], options: CompileDirOptions = {}): CompiledDir {
  const result = compileProject(sources, {
    runtimeImport: options.runtimeImport ?? DEFAULT_RUNTIME_IMPORT,
    checkOnly: options.checkOnly ?? false,
    queryModulesOnly: options.queryModulesOnly ?? false,
    bm25: options.bm25 ?? true,
    bm25Origin: options.bm25Origin,
    mcp: options.mcp ?? true,
  });
  const ok = result.ok && !hasErrors(result.diagnostics);
  return {
    sources,
    result,
    ok,
    report: formatDiagnostics(result.diagnostics, sources),
    queryFiles: result.files.filter((f) => QUERY_FILE.test(f.path)),
  };
}

export function countErrors(diagnostics: readonly Diagnostic[]): number {
  return diagnostics.filter((d) => d.severity === "error").length;
}
