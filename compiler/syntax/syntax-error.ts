// Explains why the parser stopped: a syntax error becomes exactly one diagnostic (PEG parsing stops
// at the first error) with a span and a short "expected ..., found ..." message; a parser stack
// overflow becomes E006 and anything else the internal error E099; an infix comparison (`a == b`)
// is E007, naming the step that compares. The codes (E001-E007, E099)
// are described in compiler/diagnostics/table.ts.
import type { Span } from "./ast.js";
import { error, type Diagnostic } from "../diagnostics/diagnostic.js";
import { MAX_NESTING } from "./nesting.js";
import { isPeggySyntaxError, type PeggySyntaxError } from "./generated-parser.js";
import { CLOSERS, innermostOpener, positionAt, skipLayout, spanOf, tokenAt, type Token } from "./tokens.js";
import { expectationKeys, joinOr, summarize } from "./expectations.js";
import { comparisonAt } from "./operator-hint.js";

const KEYWORDS = new Set([
  "QUERY",
  "RETURN",
  "FOR",
  "IN",
  "DROP",
  "NONE",
  "NOW",
  "INDEX",
  "UNIQUE",
  "DEFAULT",
  "MIGRATION",
  "AS",
  "true",
  "false",
]);

const MAX_EXPECTATIONS = 6;

export function diagnosticFor(e: unknown, text: string, file: string): Diagnostic {
  try {
    if (isPeggySyntaxError(e)) return syntaxDiagnostic(e, text, file);
    if (e instanceof RangeError && /call stack/i.test(e.message)) {
      const offset = firstTooDeep(text);
      const span = offset === null ? startOfFile(file) : spanOf(file, text, offset, offset + 1);
      return error(
        "E006",
        `nested more than ${MAX_NESTING} levels deep (the limit of HelixQL programs)`,
        span,
        "split deeply nested expressions into several assignments",
      );
    }
    const message = e instanceof Error ? e.message : String(e);
    return error(
      "E099",
      `internal parser failure: ${message}`,
      startOfFile(file),
      "this is a bug in Strand's parser; please report it with the input",
    );
  } catch (inner) {
    const message = inner instanceof Error ? inner.message : String(inner);
    return error("E099", `internal parser failure while reporting a syntax error: ${message}`, startOfFile(file));
  }
}

function syntaxDiagnostic(e: PeggySyntaxError, text: string, file: string): Diagnostic {
  const offset = Math.min(Math.max(0, e.location.start.offset), text.length);
  const start = positionAt(text, offset);
  const rawKeys = expectationKeys(e.expected ?? []);

  // Strings are a single named rule, so a malformed one fails at its opening quote.
  if (text[offset] === '"' && rawKeys.has("a string")) {
    const problem = scanString(text, offset);
    if (problem.kind === "unterminated") {
      const lineEnd = text.indexOf("\n", offset);
      const end = lineEnd === -1 ? text.length : lineEnd;
      return error(
        "E002",
        "unterminated string literal: missing the closing '\"'",
        spanOf(file, text, offset, end),
        "close the string with '\"'; write \\\" for a quote inside a string",
      );
    }
    if (problem.kind === "badEscape") {
      const escaped = text.slice(problem.offset, problem.offset + problem.length);
      return error(
        "E003",
        `invalid escape sequence '${escaped}' in string literal`,
        spanOf(file, text, problem.offset, problem.offset + problem.length),
        "valid escapes are \\\" \\\\ \\/ \\' \\n \\t \\r \\b \\f \\0 \\uXXXX and \\u{X...}; write \\\\ for a backslash",
      );
    }
  }

  const found = tokenAt(text, offset);
  const span = spanOf(file, text, offset, offset + found.length);

  if (found.kind === "word" && KEYWORDS.has(found.text) && rawKeys.has("an identifier") && usedAsName(text, offset + found.length)) {
    return error(
      "E004",
      `'${found.text}' is a reserved keyword and cannot be used as a name here`,
      span,
      `rename it, for example to '${found.text.toLowerCase()}_'`,
    );
  }

  // `a == b` (or `!=`, `>`, ...) where a step could continue `a`: HelixQL compares with steps.
  const comparison = rawKeys.has("'::'") ? comparisonAt(text, offset) : null;
  // A lone `=` where `<-` may come is an assignment written the way other languages do (hintFor).
  if (comparison !== null && !(comparison.operator === "=" && rawKeys.has("'<-'"))) {
    return error(
      "E007",
      `'${comparison.operator}' is not a HelixQL operator: values are compared with steps such as ::${comparison.step}(..)`,
      spanOf(file, text, offset, offset + comparison.operator.length),
      `write ${comparison.rewrite}`,
    );
  }

  const opener = innermostOpener(text, offset);
  const closer = opener === null ? null : CLOSERS[opener.char];
  const closerKey = closer === null ? null : `'${closer}'`;
  const items = summarize(rawKeys).filter((item) => item !== closerKey);
  const hasCloser = closerKey !== null && rawKeys.has(closerKey) && opener !== null;

  const shown = items.slice(0, hasCloser ? MAX_EXPECTATIONS - 1 : MAX_EXPECTATIONS);
  const hidden = items.length - shown.length;
  if (hasCloser) {
    const where = opener.line === start.line ? "" : ` (opened at line ${opener.line}, column ${opener.column})`;
    shown.push(`${closerKey} to close ${opener.description}${where}`);
  }
  let expected = shown.length === 0 ? "something else" : joinOr(shown);
  if (hidden > 0) expected += ` (${hidden} more not shown)`;

  const code = found.kind === "end" ? "E005" : "E001";
  return error(code, `expected ${expected}, found ${found.display}`, span, hintFor(text, found, rawKeys));
}

function hintFor(text: string, found: Token, keys: ReadonlySet<string>): string | undefined {
  if (found.kind === "word") {
    const upper = found.text.toUpperCase();
    if (upper !== found.text && keys.has(`'${upper}'`)) return `keywords are case-sensitive: did you mean '${upper}'?`;
    if (found.text === "True" || found.text === "False") return `booleans are written '${found.text.toLowerCase()}'`;
  }
  if (found.text === "=" && keys.has("'<-'")) return "assignments are written 'name <- expression'";
  if (keys.has("'=>'") && !keys.has("'<-'")) return "a query header ends with '=>' before its body: QUERY Name(params) =>";
  // A statement where only a new QUERY (or the end) may come: it follows the query's RETURN.
  if (found.kind === "word" && keys.has("end of file") && tokenAt(text, skipLayout(text, found.offset + found.length)).text === "<-") {
    return "RETURN must come last in a query; move this statement before it";
  }
  if (found.text === ";") return "HelixQL statements are not terminated by ';'; remove it";
  if (found.text === "'") return 'string literals use double quotes: "..."';
  if (found.text === "/*") return "only line comments ('// ...') are supported";
  return undefined;
}

/** After a keyword at `offset`, does the next token suggest the keyword was meant as a name? */
function usedAsName(text: string, offset: number): boolean {
  const next = tokenAt(text, skipLayout(text, offset));
  return [":", "?", "<-", ",", ")", "}", "=", "|"].includes(next.text);
}

type StringProblem = { kind: "none" } | { kind: "unterminated" } | { kind: "badEscape"; offset: number; length: number };

/** Mirrors the grammar's StringLiteral rule to explain why it failed at `start` (a `"`). */
function scanString(text: string, start: number): StringProblem {
  let i = start + 1;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') return { kind: "none" };
    if (c !== "\\") {
      i++;
      continue;
    }
    const next = text[i + 1];
    if (next === undefined) return { kind: "unterminated" };
    if ("\"\\/'ntrbf0".includes(next)) {
      i += 2;
      continue;
    }
    if (next === "u") {
      const braced = /^u\{([0-9a-fA-F]{1,6})\}/.exec(text.slice(i + 1, i + 11));
      if (braced && parseInt(braced[1]!, 16) <= 0x10ffff) {
        i += 1 + braced[0].length;
        continue;
      }
      const plain = /^u[0-9a-fA-F]{4}/.exec(text.slice(i + 1, i + 6));
      if (plain) {
        i += 5;
        continue;
      }
      const written = /^u(\{[0-9a-fA-F]*\}?|[0-9a-fA-F]{0,3})/.exec(text.slice(i + 1, i + 11));
      return { kind: "badEscape", offset: i, length: 1 + (written ? written[0].length : 1) };
    }
    return { kind: "badEscape", offset: i, length: 1 + String.fromCodePoint(next.codePointAt(0) ?? 0).length };
  }
  return { kind: "unterminated" };
}

/**
 * Where the parser ran out of stack: the first `(`, `[`, `{` or `!` that opens nesting level
 * MAX_NESTING + 1, counting brackets (outside strings and comments) and runs of `!`. The parser
 * only overflows hundreds of levels past the limit, so such a place exists; null if not.
 */
function firstTooDeep(text: string): number | null {
  let depth = 0;
  let bangs = 0; // a run of `!`: each negation nests what follows it
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"' && text[i] !== "\n"; i++) if (text[i] === "\\") i++;
      bangs = 0;
    } else if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
    } else if (c === "(" || c === "[" || c === "{" || c === "!") {
      if (c === "!") bangs++;
      else depth++;
      if (depth + bangs > MAX_NESTING) return i;
    } else if (c === ")" || c === "]" || c === "}") {
      depth = Math.max(0, depth - 1);
      bangs = 0;
    } else if (c !== " " && c !== "\t" && c !== "\r" && c !== "\n") {
      bangs = 0;
    }
  }
  return null;
}

function startOfFile(file: string): Span {
  return { file, start: { offset: 0, line: 1, column: 1 }, end: { offset: 0, line: 1, column: 1 } };
}
