// A compile's diagnostics as every command prints them: each with its source snippet, in order.
import { type Diagnostic, formatDiagnostic } from "../../compiler/diagnostics/diagnostic.js";
import type { SourceFile } from "./sources.js";

export function formatDiagnostics(diagnostics: readonly Diagnostic[], sources: readonly SourceFile[]): string {
  const byFile = new Map(sources.map((s) => [s.file, s.text]));
  return diagnostics.map((d) => formatDiagnostic(d, byFile)).join("\n\n");
}
