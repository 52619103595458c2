// Diagnostics in the TypeScript compiler's discipline: every problem has a stable code, the exact
// span it concerns, and a message a person can act on. The compiler never throws on user input;
// it returns diagnostics.
import type { Span } from "./span.js";
import type { DiagnosticCode, ErrorCode, Severity, WarningCode } from "./table.js";

export type { DiagnosticCode, Severity } from "./table.js";

export interface Diagnostic {
  /** Stable code, declared in table.ts. */
  code: DiagnosticCode;
  severity: Severity;
  message: string;
  span: Span;
  /** e.g. "did you mean 'name'?" */
  hint?: string;
}

export function error(code: ErrorCode, message: string, span: Span, hint?: string): Diagnostic {
  return hint === undefined ? { code, severity: "error", message, span } : { code, severity: "error", message, span, hint };
}

export function warning(code: WarningCode, message: string, span: Span, hint?: string): Diagnostic {
  return hint === undefined ? { code, severity: "warning", message, span } : { code, severity: "warning", message, span, hint };
}

/**
 * A bug met while checking or generating one query: compileProject reports it as E999 at that
 * query's name instead of at the start of the first file.
 */
export class QueryInternalError extends Error {
  constructor(
    readonly query: string,
    cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
  }
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === "error");
}

/**
 * `file:line:col: error E101: message` followed by the source line and a caret under the span.
 * `sources` maps file names to their text.
 */
export function formatDiagnostic(d: Diagnostic, sources: ReadonlyMap<string, string>): string {
  const { file, start, end } = d.span;
  const head = `${file}:${start.line}:${start.column}: ${d.severity} ${d.code}: ${d.message}`;
  const text = sources.get(file);
  const lines: string[] = [head];
  if (text !== undefined) {
    const lineText = text.split(/\r?\n/)[start.line - 1] ?? "";
    const width = end.line === start.line ? Math.max(1, end.column - start.column) : Math.max(1, lineText.length - start.column + 1);
    const gutter = String(start.line);
    lines.push(`${gutter} | ${lineText}`);
    lines.push(`${" ".repeat(gutter.length)} | ${" ".repeat(start.column - 1)}${"^".repeat(width)}`);
  }
  if (d.hint !== undefined) lines.push(`  hint: ${d.hint}`);
  return lines.join("\n");
}

/** The closest candidate within a small edit distance, or undefined (shared with the runtime). */
export { closestName as closest, editDistance } from "../../core/suggest.js";
