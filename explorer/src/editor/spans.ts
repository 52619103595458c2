// Where a diagnostic goes in the text, and the text cut into coloured, marked pieces for the
// highlight layer. The server gives a diagnostic's start only (line:column, 1-based), so the
// mark covers the word (or string) starting there, or one character. Pure: no DOM.
import type { TokenKind, Token } from "./tokens.js";

export interface Diagnostic {
  code: string;
  /** "error" or "warning". */
  severity: string;
  message: string;
  line: number;
  column: number;
  hint?: string;
}

export interface Mark {
  start: number;
  end: number;
  severity: string;
  message: string;
}

export interface Segment {
  text: string;
  kind: TokenKind;
  /** The severity of the diagnostic marked here, if any. */
  mark?: string;
  /** The marked diagnostic's message (a tooltip). */
  title?: string;
}

/** The offset of 1-based line:column, clamped to the text. */
export function offsetOf(text: string, line: number, column: number): number {
  let at = 0;
  for (let l = 1; l < line; l++) {
    const nl = text.indexOf("\n", at);
    if (nl === -1) return text.length;
    at = nl + 1;
  }
  const lineEnd = text.indexOf("\n", at);
  return Math.min(at + Math.max(0, column - 1), lineEnd === -1 ? text.length : lineEnd);
}

/** 1-based line and column of an offset. */
export function positionOf(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  return { line, column: offset - (before.lastIndexOf("\n") + 1) + 1 };
}

export function markOf(text: string, d: Diagnostic): Mark {
  let start = offsetOf(text, d.line, d.column);
  let end: number;
  const word = /^[A-Za-z0-9_]+/.exec(text.slice(start));
  const string = /^"(?:[^"\\\n]|\\.)*"?/.exec(text.slice(start));
  if (word !== null) end = start + word[0].length;
  else if (string !== null) end = start + string[0].length;
  else if (start < text.length && text[start] !== "\n") end = start + 1;
  else {
    // At the end of a line or of the text (a missing token): mark the character before it.
    end = start;
    start = Math.max(0, start - 1);
    if (start === end) end = Math.min(text.length, 1);
  }
  return { start, end, severity: d.severity, message: d.hint === undefined ? d.message : `${d.message} (${d.hint})` };
}

/** The tokens cut at every mark's ends; a piece inside a mark carries it (the first mark wins). */
export function segments(text: string, tokens: readonly Token[], marks: readonly Mark[]): Segment[] {
  const cuts = new Set<number>();
  for (const m of marks) cuts.add(m.start).add(m.end);
  const out: Segment[] = [];
  for (const t of tokens) {
    const points = [t.start, ...[...cuts].filter((c) => c > t.start && c < t.end).sort((a, b) => a - b), t.end];
    for (let k = 0; k + 1 < points.length; k++) {
      const start = points[k]!;
      const end = points[k + 1]!;
      const segment: Segment = { text: text.slice(start, end), kind: t.kind };
      const mark = marks.find((m) => m.start <= start && end <= m.end);
      if (mark !== undefined) {
        segment.mark = mark.severity;
        segment.title = mark.message;
      }
      out.push(segment);
    }
  }
  return out;
}
