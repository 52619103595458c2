// The compiler's entry point: HelixQL source texts in; diagnostics, the schema descriptor and the
// generated TypeScript files out (`strand compile`, `strand check`). Pure (no I/O) and total: it
// never throws on user input. The pipeline is pipeline.ts; `strand serve` enters by scripts.ts.
import { generateModules } from "./emit/modules.js";
import { type CompileOptions, type CompileResult, compileWith, type SourceText } from "./pipeline.js";

export type { Diagnostic, DiagnosticCode } from "./diagnostics/diagnostic.js";
export type { GeneratedFile } from "./emit/structures.js";
export { formatDiagnostic, hasErrors } from "./diagnostics/diagnostic.js";
export type { CompileOptions, CompileResult, SourceText } from "./pipeline.js";

export function compileProject(sources: readonly SourceText[], options: CompileOptions = {}): CompileResult {
  return compileWith(sources, options, (schema, queries) =>
    generateModules(schema, queries, {
      runtimeImport: options.runtimeImport ?? "strand/runtime",
      queryModulesOnly: options.queryModulesOnly ?? false,
    }),
  );
}
