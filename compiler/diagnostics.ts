// Diagnostics in the TypeScript compiler's discipline: every problem has a stable code, the exact
// span it concerns, and a message a person can act on. The compiler never throws on user input;
// it returns diagnostics.
import type { Span } from "./ast.js";

export type Severity = "error" | "warning";

export interface Diagnostic {
  /** Stable code: E0xx syntax, E1xx names and schema, E2xx types, E3xx query structure, E9xx not supported yet; W... warnings. */
  code: string;
  severity: Severity;
  message: string;
  span: Span;
  /** e.g. "did you mean 'name'?" */
  hint?: string;
}

export function error(code: string, message: string, span: Span, hint?: string): Diagnostic {
  return hint === undefined ? { code, severity: "error", message, span } : { code, severity: "error", message, span, hint };
}

export function warning(code: string, message: string, span: Span, hint?: string): Diagnostic {
  return hint === undefined ? { code, severity: "warning", message, span } : { code, severity: "warning", message, span, hint };
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

/** Edit distance counting a swap of two neighbouring letters as one edit (optimal string alignment). */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array<number>(rows * cols).fill(0);
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[(i - 1) * cols + j]! + 1, d[i * cols + j - 1]! + 1, d[(i - 1) * cols + j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[(i - 2) * cols + j - 2]! + 1);
      d[i * cols + j] = best;
    }
  }
  return d[rows * cols - 1]!;
}

/** The closest candidate within a small edit distance, or undefined. */
export function closest(name: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = editDistance(name.toLowerCase(), c.toLowerCase());
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return bestDistance <= Math.max(1, Math.floor(name.length / 3)) ? best : undefined;
}
