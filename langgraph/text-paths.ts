// The texts a path names in a value, for embedding, by the path language of LangGraph's
// InMemoryStore index (its internal utils, not exported by the package): `$` is the whole value;
// `a.b` a nested field; `[2]`, `[-1]`, `[*]` elements of a list; `*` every member; `{a,b.c}`
// several fields. A string, number or boolean gives its text; an object or list its JSON
// (indented by 2, as the store embeds it); a missing or null one nothing.

/** `chapters[*].body` → ["chapters", "[*]", "body"]. */
export function pathTokens(path: string): string[] {
  const tokens: string[] = [];
  let current = "";
  const flush = () => {
    if (current !== "") tokens.push(current);
    current = "";
  };
  for (let i = 0; i < path.length; i++) {
    const ch = path[i]!;
    const close = ch === "[" ? "]" : ch === "{" ? "}" : null;
    if (close !== null) {
      flush();
      // The bracket's whole content, nested brackets of the same kind included.
      let depth = 1;
      let token = ch;
      while (++i < path.length && depth > 0) {
        if (path[i] === ch) depth++;
        else if (path[i] === close) depth--;
        token += path[i];
      }
      i--;
      tokens.push(token);
    } else if (ch === ".") flush();
    else current += ch;
  }
  flush();
  return tokens;
}

export function textsAtPath(value: unknown, path: string): string[] {
  if (path === "" || path === "$") return [JSON.stringify(value, null, 2)];
  return textsAt(value, pathTokens(path), 0);
}

function leafText(value: unknown): string[] {
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return [String(value)];
  if (value === null || typeof value !== "object") return [];
  return [JSON.stringify(value, null, 2)];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function textsAt(value: unknown, tokens: readonly string[], at: number): string[] {
  if (at >= tokens.length) return leafText(value);
  const token = tokens[at]!;
  const out: string[] = at === 0 && token === "$" ? [JSON.stringify(value, null, 2)] : [];
  if (token.startsWith("[") && token.endsWith("]")) {
    if (!Array.isArray(value)) return [];
    const index = token.slice(1, -1);
    if (index === "*") for (const element of value) out.push(...textsAt(element, tokens, at + 1));
    else {
      let i = Number.parseInt(index, 10);
      if (i < 0) i += value.length;
      if (i >= 0 && i < value.length) out.push(...textsAt(value[i], tokens, at + 1));
    }
  } else if (token.startsWith("{") && token.endsWith("}")) {
    if (!isRecord(value)) return [];
    for (const field of token.slice(1, -1).split(",").map((f) => f.trim())) {
      let current: unknown = value;
      for (const part of pathTokens(field)) current = isRecord(current) && part in current ? current[part] : undefined;
      // A null field here is the text "null" (an absent one nothing), as the store has it.
      if (current !== undefined) out.push(...(current === null ? ["null"] : leafText(current)));
    }
  } else if (token === "*") {
    const members = Array.isArray(value) ? value : isRecord(value) ? Object.values(value) : [];
    for (const member of members) out.push(...textsAt(member, tokens, at + 1));
  } else if (isRecord(value) && token in value) {
    out.push(...textsAt(value[token], tokens, at + 1));
  }
  return out;
}
