// The explorer's two read-only calls, beside the named queries and /mcp tools it also uses:
//   POST /explorer/api/nodes      {label, offset?, limit?, field?, contains?} → {items, more}
//       a page of a node or vector type in id order, optionally only items whose `field`
//       contains `contains` (case-insensitive, on the value's JSON text for non-strings);
//   POST /explorer/api/neighbours {id, limit?} → {center, nodes, edges}
//       a node (or vector), the edges at it of every edge type declared at its type, and the
//       items at their other ends, up to `limit` edges.
// Both run in one read snapshot and answer {error, code} for bad input like every route. The page
// uses /introspect, the named queries and the /mcp search tools for everything else, so it sees
// exactly what any client sees.
import { StrandError } from "../../core/errors.js";
import type { EdgeItem, GraphItem, NodeItem, PropValue } from "../../core/items.js";
import type { SchemaDescriptor } from "../../core/schema.js";
import type { QueryStore } from "../../runtime/query/query-store.js";

const MAX_LIMIT = 1000;
const DEFAULT_PAGE = 50;
const DEFAULT_NEIGHBOURS = 200;

export interface NodesPage {
  items: NodeItem[];
  /** Whether items follow this page. */
  more: boolean;
}

export interface Neighbourhood {
  center: NodeItem;
  nodes: NodeItem[];
  edges: EdgeItem[];
}

export function nodesPage(store: QueryStore, schema: SchemaDescriptor, body: Record<string, unknown>): NodesPage {
  const label = stringMember(body, "label");
  const known = [...schema.nodes, ...schema.vectors].some((t) => t.name === label);
  if (!known) throw new StrandError("INVALID_PARAMETER", `label: no node or vector type "${label}" in the schema`);
  const offset = integerMember(body, "offset", 0, Number.MAX_SAFE_INTEGER, 0);
  const limit = integerMember(body, "limit", 1, MAX_LIMIT, DEFAULT_PAGE);
  const field = optionalString(body, "field");
  const contains = optionalString(body, "contains");
  const needle = contains === undefined || contains === "" ? null : contains.toLowerCase();
  const matches = (item: NodeItem): boolean => {
    if (needle === null) return true;
    const values = field === undefined || field === "" ? Object.values(item) : [item[field]];
    return values.some((v) => v !== undefined && v !== null && textOf(v).toLowerCase().includes(needle));
  };
  const items = store.read((db) => db.nodesWhere(label, matches, offset, offset + limit + 1));
  return { items: items.slice(0, limit), more: items.length > limit };
}

export function neighbourhood(store: QueryStore, schema: SchemaDescriptor, body: Record<string, unknown>): Neighbourhood {
  const id = stringMember(body, "id");
  const limit = integerMember(body, "limit", 1, MAX_LIMIT, DEFAULT_NEIGHBOURS);
  return store.read((db) => {
    const center = findNode(id, (kind) => db.itemOfKindById(kind, id));
    // Up to `limit` distinct edges, gathered one at a time: a hub's whole list spread into
    // push() overflowed the stack (a 500 for a node with ~500k edges).
    const kept: EdgeItem[] = [];
    const seen = new Set<string>();
    const keep = (list: readonly EdgeItem[]): void => {
      for (const edge of list) {
        if (kept.length >= limit) return;
        if (!seen.has(edge.id)) {
          seen.add(edge.id);
          kept.push(edge);
        }
      }
    };
    for (const e of schema.edges) {
      if (kept.length >= limit) break;
      // At most `limit` of each list is read: a hub's whole list cost 1.3 s for 500k edges.
      if (e.from === center.label) keep(db.outE([center], e.name, limit));
      if (e.to === center.label && kept.length < limit) keep(db.inE([center], e.name, limit));
    }
    const otherIds = new Set(kept.map((edge) => (edge.from_node === center.id ? edge.to_node : edge.from_node)));
    const nodes: NodeItem[] = [];
    for (const other of otherIds) nodes.push(findNode(other, (kind) => db.itemOfKindById(kind, other)));
    return { center, nodes, edges: kept };
  });
}

/** A node, else a vector, with this id: NOT_FOUND naming the id when neither has it. */
function findNode(id: string, byKind: (kind: "N" | "V") => GraphItem): NodeItem {
  for (const kind of ["N", "V"] as const) {
    try {
      return byKind(kind);
    } catch (error) {
      if (!(error instanceof StrandError) || error.code !== "NOT_FOUND") throw error;
    }
  }
  throw new StrandError("NOT_FOUND", `no node or vector with id "${id.slice(0, 60)}"`);
}

function textOf(value: PropValue): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

function stringMember(body: Record<string, unknown>, name: string): string {
  const value = body[name];
  if (typeof value !== "string" || value === "") throw new StrandError("INVALID_PARAMETER", `${name}: expected a non-empty string`);
  return value;
}

function optionalString(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw new StrandError("INVALID_PARAMETER", `${name}: expected a string`);
  return value;
}

function integerMember(body: Record<string, unknown>, name: string, min: number, max: number, fallback: number): number {
  const value = body[name];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new StrandError("INVALID_PARAMETER", `${name}: expected an integer from ${min} to ${max}`);
  }
  return value;
}
