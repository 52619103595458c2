// What the shell prints in table mode: a query's answer (each returned name, its rows as a table),
// an explanation (parameters, whether it writes, the plan), and the schema and queries of
// `GET /introspect` in HelixQL's own notation. `:json` prints the bodies as they came instead.
import { helixTypeName, type ValueType } from "../../core/schema.js";
import { cellText, renderTable } from "./table.js";

/** An answer `{name: value, ..}`: arrays and objects as tables, anything else on one line. */
export function showAnswer(body: unknown): string {
  if (!isRecord(body)) return `${cellText(body)}\n`;
  const names = Object.keys(body);
  if (names.length === 0) return "(nothing returned)\n";
  return names.map((name) => showValue(name, body[name])).join("\n");
}

function showValue(name: string, value: unknown): string {
  if (Array.isArray(value)) return `${name}:\n${renderTable(value)}`;
  if (isRecord(value)) return `${name}:\n${renderTable([value])}`;
  return `${name}: ${cellText(value)}\n`;
}

interface Explained {
  params: { name: string; type: ValueType; optional: boolean }[];
  writes: boolean;
  plan: Record<string, unknown>[];
}

/** `POST /query`'s `"explain": true` answer: the parameters as a signature, then the plan. */
export function showExplain(body: unknown): string {
  if (!isRecord(body) || !Array.isArray(body.params) || !Array.isArray(body.plan)) return showAnswer(body);
  const { params, writes, plan } = body as unknown as Explained;
  const signature = params.map((p) => `${p.name}: ${helixTypeName(p.type)}${p.optional ? "?" : ""}`).join(", ");
  // `using` is a list of index conditions: one cell, comma-separated.
  const rows = plan.map((step) => Object.fromEntries(Object.entries(step).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : v])));
  return `params: ${signature === "" ? "(none)" : signature}\nwrites: ${writes ? "yes" : "no"}\nplan:\n${renderTable(rows)}`;
}

interface TypeShape {
  name: string;
  properties: Record<string, string>;
  from?: string;
  to?: string;
}

interface Introspection {
  schema: { nodes: TypeShape[]; vectors: TypeShape[]; edges: TypeShape[] };
  queries: { name: string; parameters: Record<string, string>; returns: string[] }[];
}

/** The schema as HelixQL, one type a line: `N::User { handle: String, .. }`, `E::Follows (User -> User) { .. }`. */
export function showSchema(body: unknown): string {
  const { schema } = body as Introspection;
  const members = (t: TypeShape): string => {
    const list = Object.entries(t.properties).map(([name, type]) => `${name}: ${type}`);
    return list.length === 0 ? "{}" : `{ ${list.join(", ")} }`;
  };
  const lines = [
    ...schema.nodes.map((t) => `N::${t.name} ${members(t)}`),
    ...schema.vectors.map((t) => `V::${t.name} ${members(t)}`),
    ...schema.edges.map((t) => `E::${t.name} (${t.from} -> ${t.to}) ${members(t)}`),
  ];
  return lines.length === 0 ? "(no types)\n" : `${lines.join("\n")}\n`;
}

/** The served queries, one a line: `Name(param: Type, ..) -> returned, ..`. */
export function showQueries(body: unknown): string {
  const { queries } = body as Introspection;
  const lines = queries.map((q) => {
    const params = Object.entries(q.parameters).map(([name, type]) => `${name}: ${type}`);
    return `${q.name}(${params.join(", ")}) -> ${q.returns.length === 0 ? "NONE" : q.returns.join(", ")}`;
  });
  return lines.length === 0 ? "(no queries)\n" : `${lines.join("\n")}\n`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
