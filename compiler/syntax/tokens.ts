// A small lexer for the context of a syntax error: the token at a position, the innermost bracket
// still open there and what it opened ("the argument list of RANGE"), and line/column positions.
import type { Position, Span } from "./ast.js";

export interface Token {
  kind: "word" | "number" | "string" | "punct" | "space" | "end";
  text: string;
  display: string;
  length: number;
  offset: number;
}

const PUNCT2 = ["::", "<-", "=>", "..", "#[", "/*"];

export function tokenAt(text: string, offset: number): Token {
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
    return {
      kind: "punct",
      text: ch,
      display: `the control character U+${code.toString(16).toUpperCase().padStart(4, "0")}`,
      length: ch.length,
      offset,
    };
  }
  return token("punct", ch, offset);
}

function token(kind: Token["kind"], text: string, offset: number): Token {
  const shown = text.length > 32 ? `${text.slice(0, 29)}...` : text;
  return { kind, text, display: `'${shown}'`, length: text.length, offset };
}

export function skipLayout(text: string, offset: number): number {
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

export const CLOSERS: Record<OpenChar, string> = { "(": ")", "{": "}", "[": "]", "<": ">" };

interface Opener {
  char: OpenChar;
  line: number;
  column: number;
  description: string;
}

/** The innermost bracket still open at `offset`, described for a message ("the argument list of RANGE"). */
export function innermostOpener(text: string, offset: number): Opener | null {
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

/** 1-based line/column the way peggy counts them (only '\n' starts a line). */
export function positionAt(text: string, offset: number): Position {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { offset, line, column: offset - lineStart + 1 };
}

export function spanOf(file: string, text: string, start: number, end: number): Span {
  return { file, start: positionAt(text, start), end: positionAt(text, Math.max(start, end)) };
}
