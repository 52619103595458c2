// A small HelixQL tokenizer for highlighting and completion. It never fails: text the grammar
// would reject still becomes tokens (an unterminated string runs to the end of its line), since
// the editor colours half-typed queries too. Pure: no DOM, so tests run it in Node.

export type TokenKind = "keyword" | "type" | "step" | "name" | "string" | "number" | "comment" | "operator" | "punct" | "space";

export interface Token {
  kind: TokenKind;
  start: number;
  end: number;
}

export const KEYWORDS: ReadonlySet<string> = new Set([
  "QUERY",
  "RETURN",
  "FOR",
  "IN",
  "AS",
  "DROP",
  "NONE",
  "NOW",
  "DEFAULT",
  "INDEX",
  "UNIQUE",
  "MIGRATION",
  "true",
  "false",
  "_",
]);

export const SCALAR_TYPES: ReadonlySet<string> = new Set([
  "String",
  "Boolean",
  "I8",
  "I16",
  "I32",
  "I64",
  "U8",
  "U16",
  "U32",
  "U64",
  "U128",
  "F32",
  "F64",
  "ID",
  "Date",
]);

const WORD = /[A-Za-z0-9_]/;
const WORD_START = /[A-Za-z_]/;

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const push = (kind: TokenKind, end: number): void => {
    tokens.push({ kind, start: i, end });
    i = end;
  };
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      let j = i + 1;
      while (j < text.length && /\s/.test(text[j]!)) j++;
      push("space", j);
    } else if (text.startsWith("//", i)) {
      const nl = text.indexOf("\n", i);
      push("comment", nl === -1 ? text.length : nl);
    } else if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"' && text[j] !== "\n") j += text[j] === "\\" ? 2 : 1;
      push("string", Math.min(text.length, text[j] === '"' ? j + 1 : j));
    } else if (/[0-9]/.test(c)) {
      const m = /^[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(text.slice(i))!;
      push("number", i + m[0].length);
    } else if (WORD_START.test(c)) {
      let j = i + 1;
      while (j < text.length && WORD.test(text[j]!)) j++;
      push(wordKind(text, tokens, text.slice(i, j), j), j);
    } else if (text.startsWith("<-", i) || text.startsWith("::", i) || text.startsWith("=>", i)) {
      push("operator", i + 2);
    } else {
      push("punct", i + 1);
    }
  }
  return tokens;
}

/** A word's colour from its neighbours: `::X` and `X<`/`X(` (capitalised) are steps, `N<X>` a type. */
function wordKind(text: string, before: readonly Token[], word: string, end: number): TokenKind {
  if (KEYWORDS.has(word)) return "keyword";
  if (SCALAR_TYPES.has(word)) return "type";
  const prev = lastSolid(before);
  const prevText = prev === undefined ? "" : text.slice(prev.start, prev.end);
  if (prevText === "QUERY") return "name";
  if (prevText === "::") return "step";
  if (prev !== undefined && prevText === "<") {
    const owner = lastSolid(before, before.indexOf(prev));
    if (owner !== undefined && owner.kind === "step") return "type";
  }
  const next = text[end];
  if ((next === "<" || next === "(") && /^[A-Z]/.test(word)) return "step";
  return "name";
}

function lastSolid(tokens: readonly Token[], before = tokens.length): Token | undefined {
  for (let k = before - 1; k >= 0; k--) if (tokens[k]!.kind !== "space") return tokens[k];
  return undefined;
}
