// Typed facade over the peggy-generated HelixQL parser (compiler/parser.generated.js, built from
// compiler/grammar.peggy with `npm run build:parser`).
//
// parseSource never throws: a syntax error becomes exactly one diagnostic (PEG parsing stops at the
// first error), anything unexpected becomes an internal-error diagnostic.
//
// Syntax diagnostic codes:
//   E001  unexpected token (the general case): "expected ',' or ')' to close the argument list of
//         RANGE, found 'RETURN'"
//   E002  unterminated string literal (span: from the opening quote to the end of its line)
//   E003  invalid escape sequence in a string literal (span: the escape, e.g. `\q`)
//   E004  a reserved keyword used as a name (`QUERY Get(IN: String)`)
//   E005  unexpected end of file (something is still open or incomplete)
//   E006  input nested too deeply to parse (the parser ran out of stack), at the first bracket
//         beyond the nesting limit (compiler/nesting.ts, which reports shallower excess too)
//   E099  internal parser failure (a bug in Strand, not in the input)
import type { Position, SourceFile, Span } from "./ast.js";
import { error, type Diagnostic } from "../diagnostics/diagnostic.js";
import { MAX_NESTING } from "./nesting.js";
import * as generated from "./parser.generated.js";

export interface ParseResult {
  ast: SourceFile | null;
  diagnostics: Diagnostic[];
}

export function parseSource(text: string, file: string): ParseResult {
  // The signature says strings, but JavaScript callers may pass anything; never throw on it.
  const source = asString(text, "");
  const fileName = asString(file, "<input>");
  try {
    const ast = runParser(source, fileName, "SourceFile") as SourceFile;
    return { ast, diagnostics: [] };
  } catch (e) {
    return { ast: null, diagnostics: [diagnosticFor(e, source, fileName)] };
  }
}

function asString(value: unknown, fallback: string): string {
  if (typeof value === "string") return value;
  try {
    return String(value);
  } catch {
    return fallback;
  }
}

// ---------------------------------------------------------------- the generated parser

/** The start rules compiled into parser.generated.js (see the build:parser script). */
type StartRule = "SourceFile" | "Expr" | "Type" | "Statement" | "TopLevelItem" | "SchemaItem" | "Step" | "Literal";

interface PeggyExpectation {
  type: string;
  text?: string;
  description?: string;
  parts?: unknown[];
  inverted?: boolean;
}

interface PeggySyntaxError {
  message: string;
  expected: PeggyExpectation[] | null;
  found: string | null;
  location: { start: Position; end: Position };
}

const generatedParse: (input: string, options: { grammarSource: string; startRule: StartRule }) => unknown =
  generated.parse;

function runParser(text: string, file: string, startRule: StartRule): unknown {
  return generatedParse(text, { grammarSource: file, startRule });
}

function isPeggySyntaxError(e: unknown): e is PeggySyntaxError {
  if (!(e instanceof generated.SyntaxError)) return false;
  const candidate = e as Partial<PeggySyntaxError>;
  return typeof candidate.location === "object" && candidate.location !== null && typeof candidate.location.start === "object";
}

// ---------------------------------------------------------------- diagnostics

const KEYWORDS = new Set([
  "QUERY", "RETURN", "FOR", "IN", "DROP", "NONE", "NOW", "INDEX", "UNIQUE", "DEFAULT", "MIGRATION", "AS", "true", "false",
]);

const MAX_EXPECTATIONS = 6;

function diagnosticFor(e: unknown, text: string, file: string): Diagnostic {
  try {
    if (isPeggySyntaxError(e)) return syntaxDiagnostic(e, text, file);
    if (e instanceof RangeError && /call stack/i.test(e.message)) {
      const offset = firstTooDeep(text);
      const span = offset === null ? startOfFile(file) : spanOf(file, text, offset, offset + 1);
      return error("E006", `nested more than ${MAX_NESTING} levels deep (the limit of HelixQL programs)`, span, "split deeply nested expressions into several assignments");
    }
    const message = e instanceof Error ? e.message : String(e);
    return error("E099", `internal parser failure: ${message}`, startOfFile(file), "this is a bug in Strand's parser; please report it with the input");
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
      const escape = text.slice(problem.offset, problem.offset + problem.length);
      return error(
        "E003",
        `invalid escape sequence '${escape}' in string literal`,
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
  if (found.text === "'") return "string literals use double quotes: \"...\"";
  if (found.text === "/*") return "only line comments ('// ...') are supported";
  return undefined;
}

/** After a keyword at `offset`, does the next token suggest the keyword was meant as a name? */
function usedAsName(text: string, offset: number): boolean {
  const next = tokenAt(text, skipLayout(text, offset));
  return [":", "?", "<-", ",", ")", "}", "=", "|"].includes(next.text);
}

// ---------------------------------------------------------------- expectations

/** Peggy expectations as display strings: `'::'`, `an identifier`, `end of file`, ... */
function expectationKeys(expected: readonly PeggyExpectation[]): Set<string> {
  const keys = new Set<string>();
  for (const x of expected) {
    switch (x.type) {
      case "literal":
        keys.add(`'${x.text ?? ""}'`);
        break;
      case "end":
        keys.add("end of file");
        break;
      case "any":
        keys.add("any character");
        break;
      case "class": {
        // peggy merges `"N" / "E" / "V"` into a class; show small single-character classes as literals.
        const parts = x.parts ?? [];
        if (!x.inverted && parts.length <= 4 && parts.every((p) => typeof p === "string")) {
          for (const p of parts) keys.add(`'${String(p)}'`);
        } else {
          keys.add("a character of another kind");
        }
        break;
      }
      default: {
        const d = x.description ?? x.text ?? "something else";
        if (d === "whitespace") break;
        keys.add(/^[aeiou]/i.test(d) ? `an ${d}` : `a ${d}`);
      }
    }
  }
  return keys;
}

interface Category {
  rule: StartRule;
  label: string;
}

/** Sets of tokens that can begin a construct, replaced by one readable word when all are expected. */
const CATEGORIES: readonly Category[] = [
  { rule: "Statement", label: "a statement" },
  { rule: "TopLevelItem", label: "a QUERY or schema definition" },
  { rule: "Expr", label: "an expression" },
  { rule: "SchemaItem", label: "an N::, E:: or V:: item" },
  { rule: "Step", label: "a step or projection" },
  { rule: "Literal", label: "a literal" },
  { rule: "Type", label: "a type" },
];

let startSets: Map<StartRule, Set<string>> | null = null;

function startSet(rule: StartRule): Set<string> {
  if (startSets === null) {
    startSets = new Map();
    for (const c of CATEGORIES) {
      let keys = new Set<string>();
      try {
        runParser("", "<start-set>", c.rule);
      } catch (e) {
        if (isPeggySyntaxError(e)) keys = expectationKeys(e.expected ?? []);
      }
      keys.delete("end of file");
      startSets.set(c.rule, keys);
    }
  }
  return startSets.get(rule) ?? new Set();
}

function isSubset(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  for (const x of a) if (!b.has(x)) return false;
  return true;
}

/** Collapses expectation keys into categories and orders them: categories, punctuation, words, end of file. */
function summarize(keys: ReadonlySet<string>): string[] {
  const matched = CATEGORIES.filter((c) => {
    const set = startSet(c.rule);
    return set.size > 0 && isSubset(set, keys);
  });
  // Drop a category that is part of a larger matched one (an expression is part of a statement).
  const kept = matched.filter(
    (c) => !matched.some((other) => other !== c && startSet(other.rule).size > startSet(c.rule).size && isSubset(startSet(c.rule), startSet(other.rule))),
  );
  const covered = new Set<string>();
  for (const c of matched) for (const k of startSet(c.rule)) covered.add(k);
  const rest = [...keys].filter((k) => !covered.has(k));
  // Punctuation first, then kinds of token, keywords, end of file; the tokens that could merely
  // continue a name (`f(`, `N<`, `a.b`) come last since they are rarely what was missing.
  const rank = (k: string): number => {
    if (k === "'('" || k === "'<'" || k === "'.'") return 5;
    if (k === "end of file") return 4;
    if (!k.startsWith("'")) return 2;
    return /^'[A-Za-z_]/.test(k) ? 3 : 1;
  };
  rest.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  return [...kept.map((c) => c.label), ...rest];
}

function joinOr(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`;
}

// ---------------------------------------------------------------- a small lexer for error context

interface Token {
  kind: "word" | "number" | "string" | "punct" | "space" | "end";
  text: string;
  display: string;
  length: number;
  offset: number;
}

const PUNCT2 = ["::", "<-", "=>", "..", "#[", "/*"];

function tokenAt(text: string, offset: number): Token {
  if (offset >= text.length) return { kind: "end", text: "", display: "end of file", length: 0, offset };
  const rest = text.slice(offset, offset + 200);
  const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(rest);
  if (word) return token("word", word[0], offset);
  const num = /^-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(rest);
  if (num) return token("number", num[0], offset);
  if (rest[0] === '"') {
    const str = /^"(?:[^"\\\n]|\\.)*"/.exec(rest);
    return token("string", str ? str[0] : '"', offset);
  }
  const c = rest[0] ?? "";
  if (c === " " || c === "\t") return { kind: "space", text: c, display: "a space", length: 1, offset };
  if (c === "\n" || c === "\r") return { kind: "space", text: c, display: "a line break", length: 1, offset };
  const two = rest.slice(0, 2);
  if (PUNCT2.includes(two)) return token("punct", two, offset);
  const code = c.codePointAt(0) ?? 0;
  const ch = String.fromCodePoint(code);
  if (code < 0x20 || code === 0x7f || (code >= 0x80 && code <= 0x9f)) {
    return { kind: "punct", text: ch, display: `the control character U+${code.toString(16).toUpperCase().padStart(4, "0")}`, length: ch.length, offset };
  }
  return token("punct", ch, offset);
}

function token(kind: Token["kind"], text: string, offset: number): Token {
  const shown = text.length > 32 ? `${text.slice(0, 29)}...` : text;
  return { kind, text, display: `'${shown}'`, length: text.length, offset };
}

function skipLayout(text: string, offset: number): number {
  let i = offset;
  while (i < text.length) {
    const c = text[i];
    if (c === " " || c === "\t" || c === "\r" || c === "\n" || c === "\uFEFF") i++;
    else if (c === "/" && text[i + 1] === "/") {
      const nl = text.indexOf("\n", i);
      i = nl === -1 ? text.length : nl + 1;
    } else break;
  }
  return i;
}

/** Tokens of text[0, end), skipping whitespace, comments and string contents. */
function lex(text: string, end: number): Token[] {
  const tokens: Token[] = [];
  let i = skipLayout(text, 0);
  while (i < end) {
    const t = tokenAt(text, i);
    if (t.kind === "string" && t.text === '"') {
      // An unterminated string on this line: nothing after it is code.
      break;
    }
    tokens.push(t);
    i = skipLayout(text, i + Math.max(1, t.length));
  }
  return tokens;
}

type OpenChar = "(" | "{" | "[" | "<";

const CLOSERS: Record<OpenChar, string> = { "(": ")", "{": "}", "[": "]", "<": ">" };

interface Opener {
  char: OpenChar;
  line: number;
  column: number;
  description: string;
}

/** The innermost bracket still open at `offset`, described for a message ("the argument list of RANGE"). */
function innermostOpener(text: string, offset: number): Opener | null {
  const tokens = lex(text, offset);
  const stack: { char: OpenChar; index: number }[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!.text;
    if (t === "(" || t === "{" || t === "[" || t === "<") stack.push({ char: t, index: i });
    else if (t === "#[") stack.push({ char: "[", index: i });
    else if (t === ")" || t === "}" || t === "]" || t === ">") {
      const at = findLastIndex(stack, (o) => CLOSERS[o.char] === t);
      if (at !== -1) stack.length = at;
    }
  }
  const top = stack[stack.length - 1];
  if (top === undefined) return null;
  const tok = tokens[top.index]!;
  const pos = positionAt(text, tok.offset);
  return { char: top.char, line: pos.line, column: pos.column, description: describeOpener(text, tokens, top.index) };
}

function findLastIndex<T>(items: readonly T[], predicate: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (predicate(items[i]!)) return i;
  return -1;
}

function describeOpener(text: string, tokens: readonly Token[], i: number): string {
  const t = (k: number): string => tokens[i - k]?.text ?? "";
  const isWord = (k: number): boolean => tokens[i - k]?.kind === "word";
  switch (tokens[i]!.text) {
    case "(": {
      if (isWord(1)) return t(2) === "QUERY" ? `the parameter list of query ${t(1)}` : `the argument list of ${t(1)}`;
      if (t(1) === ">") {
        // `AddN<User>(` — name the generic call as written.
        const lt = findLastIndex(tokens.slice(0, i - 1), (x) => x.text === "<");
        const name = tokens[lt - 1];
        if (lt > 0 && name !== undefined && name.kind === "word") {
          const written = text.slice(name.offset, tokens[i - 1]!.offset + 1).replace(/\s+/g, "");
          return `the argument list of ${written}`;
        }
      }
      return "the parentheses";
    }
    case "<":
      return isWord(1) ? `the type argument of ${t(1)}` : "the type argument";
    case "#[":
      return "the attribute";
    case "[":
      return "the list";
    case "{": {
      if (t(1) === "::") return t(2) === "_" && insideMigration(tokens, i) ? "the field mappings" : "the projection";
      if (t(1) === "!" && t(2) === "::") return "the exclusion";
      if (t(1) === "|") return "the closure";
      if (t(1) === "FOR") return "the FOR bindings";
      if (t(1) === ":" && t(2) === "Properties") return "the Properties";
      if (tokens[i - 1]?.kind === "number" && t(2) === "::" && t(3) === "schema") {
        return t(4) === "=>" ? "the MIGRATION block" : `the schema::${t(1)} block`;
      }
      if (isWord(1) && t(2) === "::" && ["N", "E", "V"].includes(t(3))) return `the definition of ${t(3)}::${t(1)}`;
      if (t(1) === "UNIQUE" && isWord(2) && t(3) === "::" && t(4) === "E") return `the definition of E::${t(2)}`;
      if (isForBody(tokens, i)) return "the body of FOR";
      return "the object";
    }
    default:
      return "the bracket";
  }
}

function insideMigration(tokens: readonly Token[], i: number): boolean {
  const at = findLastIndex(tokens.slice(0, i), (x) => x.text === "MIGRATION" || x.text === "QUERY");
  return at !== -1 && tokens[at]!.text === "MIGRATION";
}

/** Walks back over one nesting level looking for the `IN` of a `FOR x IN expr {`. */
function isForBody(tokens: readonly Token[], i: number): boolean {
  let depth = 0;
  for (let j = i - 1; j >= 0 && j >= i - 400; j--) {
    const t = tokens[j]!.text;
    if (t === ")" || t === "}" || t === "]" || t === ">") depth++;
    else if (t === "(" || t === "{" || t === "[" || t === "<") {
      if (depth === 0) return false;
      depth--;
    } else if (depth === 0) {
      if (t === "IN") return true;
      if (t === "<-" || t === "=>" || t === "RETURN" || t === "QUERY" || t === "DROP") return false;
    }
  }
  return false;
}

// ---------------------------------------------------------------- strings

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

// ---------------------------------------------------------------- positions

/** 1-based line/column the way peggy counts them (only '\n' starts a line). */
function positionAt(text: string, offset: number): Position {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { offset, line, column: offset - lineStart + 1 };
}

function spanOf(file: string, text: string, start: number, end: number): Span {
  return { file, start: positionAt(text, start), end: positionAt(text, Math.max(start, end)) };
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
