// What the editor offers at the caret, from the text before it and the served schema: type names
// inside `N<`, `E<`, `V<`, `::Out<`, ... (the kind the step takes), step names after `::`, and
// field names at a key position inside `{` (the fields of the type the line traverses, else of
// every type). Pure: no DOM.

export interface SchemaShape {
  nodes: readonly { name: string; properties: Record<string, string> }[];
  vectors: readonly { name: string; properties: Record<string, string> }[];
  edges: readonly { name: string; from: string; to: string; properties: Record<string, string> }[];
}

export interface Completion {
  /** Offset where the replaced prefix starts (the caret is its end). */
  from: number;
  items: string[];
  kind: "type" | "step" | "field";
}

export const STEPS: readonly string[] = [
  "Out",
  "In",
  "OutE",
  "InE",
  "FromN",
  "ToN",
  "FromV",
  "ToV",
  "WHERE",
  "EQ",
  "NEQ",
  "GT",
  "GTE",
  "LT",
  "LTE",
  "CONTAINS",
  "IS_IN",
  "EXISTS",
  "COUNT",
  "RANGE",
  "ORDER",
  "FIRST",
  "Dedup",
  "GROUP_BY",
  "AGGREGATE_BY",
  "UPDATE",
  "INTERSECT",
  "ID",
  "From",
  "To",
  "UpsertN",
  "UpsertE",
  "UpsertV",
  "RerankRRF",
  "RerankMMR",
  "ShortestPath",
  "ShortestPathBFS",
  "ShortestPathDijkstras",
  "ShortestPathAStar",
];

type TypeKind = "nodes" | "vectors" | "edges" | "order";

/** Which names the generic argument of each step or source takes. */
const GENERIC: Readonly<Record<string, readonly TypeKind[]>> = {
  N: ["nodes"],
  AddN: ["nodes"],
  UpsertN: ["nodes"],
  V: ["vectors"],
  AddV: ["vectors"],
  UpsertV: ["vectors"],
  SearchV: ["vectors"],
  SearchBM25: ["nodes", "vectors"],
  E: ["edges"],
  AddE: ["edges"],
  UpsertE: ["edges"],
  Out: ["edges"],
  In: ["edges"],
  OutE: ["edges"],
  InE: ["edges"],
  ShortestPath: ["edges"],
  ShortestPathBFS: ["edges"],
  ShortestPathDijkstras: ["edges"],
  ShortestPathAStar: ["edges"],
  ORDER: ["order"],
};

export function complete(before: string, schema: SchemaShape): Completion | null {
  const generic = /([A-Za-z_][A-Za-z0-9_]*)<\s*([A-Za-z0-9_]*)$/.exec(before);
  if (generic !== null) {
    const kinds = GENERIC[generic[1]!];
    if (kinds === undefined) return null;
    const names = kinds.flatMap((k) => (k === "order" ? ["Asc", "Desc"] : schema[k].map((t) => t.name)));
    return offer(before, generic[2]!, names, "type");
  }
  const step = /::\s*([A-Za-z_][A-Za-z0-9_]*)?$/.exec(before);
  if (step !== null) return offer(before, step[1] ?? "", STEPS, "step");
  const key = /[{,]\s*([A-Za-z_][A-Za-z0-9_]*)?$/.exec(before);
  if (key !== null && insideBraces(before)) {
    const lines = before.split("\n");
    const type = typeOfLine(lines, lines.length - 1, schema, 0);
    const fields =
      type === null ? [...new Set(allTypes(schema).flatMap((t) => Object.keys(t.properties)))].sort() : Object.keys(type.properties);
    return offer(before, key[1] ?? "", fields, "field");
  }
  return null;
}

function offer(before: string, prefix: string, names: readonly string[], kind: Completion["kind"]): Completion | null {
  const lower = prefix.toLowerCase();
  const items = names.filter((n) => n.toLowerCase().startsWith(lower));
  // Nothing to offer, or only what is typed already.
  if (items.length === 0 || (items.length === 1 && items[0] === prefix)) return null;
  return { from: before.length - prefix.length, items, kind };
}

/** Whether the caret is inside an open `{` (strings and comments aside). */
function insideBraces(before: string): boolean {
  const code = before.replace(/\/\/[^\n]*/g, "").replace(/"(?:[^"\\\n]|\\.)*"?/g, '""');
  let depth = 0;
  for (const c of code) {
    if (c === "{") depth++;
    else if (c === "}") depth = Math.max(0, depth - 1);
  }
  return depth > 0;
}

function allTypes(schema: SchemaShape): SchemaShape["nodes"] {
  return [...schema.nodes, ...schema.vectors, ...schema.edges];
}

/**
 * The type the items are of at the end of line `index`: the last `X<Name>` there (an `Out<E>` or
 * `In<E>` reaches E's other end), or, for a line `x <- y::...` with none, the type of y's line.
 */
function typeOfLine(lines: readonly string[], index: number, schema: SchemaShape, depth: number): SchemaShape["nodes"][number] | null {
  const line = lines[index]!;
  const mentions = [...line.matchAll(/([A-Za-z_][A-Za-z0-9_]*)<\s*([A-Za-z_][A-Za-z0-9_]*)\s*>/g)];
  for (let k = mentions.length - 1; k >= 0; k--) {
    const [, step, name] = mentions[k]!;
    const edge = schema.edges.find((e) => e.name === name);
    const end = edge === undefined ? undefined : step === "Out" ? edge.to : step === "In" ? edge.from : undefined;
    const found = allTypes(schema).find((t) => t.name === (end ?? name));
    if (found !== undefined) return found;
  }
  const source = /(?:<-\s*|^\s*)([A-Za-z_][A-Za-z0-9_]*)::/.exec(line);
  if (source === null || depth > 8) return null;
  for (let k = index - 1; k >= 0; k--) {
    if (new RegExp(`^\\s*${source[1]}\\s*<-`).test(lines[k]!)) return typeOfLine(lines, k, schema, depth + 1);
  }
  return null;
}
