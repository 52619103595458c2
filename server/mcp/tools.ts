// The traversal tools: one function per tool, each checking its body against its input schema
// (input-schemas.ts), running in ONE read snapshot, and returning JSON. A tool that changes the traversal computes the new state
// first and adopts it only after everything succeeded, so an error leaves the connection as it was.
import type * as z from "zod/v4";
import { StrandError } from "../../core/errors.js";
import type { GraphItem } from "../../core/items.js";
import { aggregateBy, groupBy } from "../../runtime/ops/grouping.js";
import { order } from "../../runtime/ops/sequence.js";
import type { JsonValue } from "../../core/schema.js";
import { fieldPath, invalid } from "./body.js";
import type { Connection } from "./connections.js";
import { boundFilterDepth, compileFilter, unknownProperty } from "./filter.js";
import { heldItem, heldItems, recordOf, recordsOf, type HeldItem } from "./held-items.js";
import { parseConnectionId, parseInput } from "./input-parse.js";
import { BUILTIN_TOOLS, type InputSchema, type ToolInput } from "./input-schemas.js";
import type { CallBudget } from "./item-budget.js";
import { planStep, type StepTool } from "./steps.js";
import { advance, BLANK, loaded, type Traversal } from "./traversal.js";
import type { ToolEnv } from "./env.js";

export type ToolResult = JsonValue;

/**
 * The call's connection and its input, checked against `schema` in the order a reader meets them:
 * the body and its connection_id, then the connection itself, then `before` (what a tool checks
 * ahead of its data), then the rest.
 */
export function openCall<S extends InputSchema>(
  env: ToolEnv,
  schema: S,
  body: unknown,
  before?: () => void,
): { connection: Connection; input: z.output<S> } {
  const connection = env.connections.get(parseConnectionId(schema, body));
  before?.();
  return { connection, input: parseInput(schema, body) };
}

/** The traversal-tools' answer: the connection and how many items it now holds. */
function held(connection: Connection, next: Traversal): ToolResult {
  connection.traversal = next;
  return { connection_id: connection.id, count: next.items.length };
}

function requireLoaded(t: Traversal, tool: string): void {
  if (t.blank) throw new StrandError("INVALID_VALUE", `${tool} needs a traversal: begin with n_from_type, e_from_type or a search`);
}

/** INVALID_PARAMETER naming `path` unless some held type declares `property`. */
function checkProperty(env: ToolEnv, t: Traversal, property: string, path: string): void {
  if (t.types.some((label) => env.schema.get(label)?.properties.has(property))) return;
  throw unknownProperty(path, property, t.types, env.schema);
}

export function init(env: ToolEnv, body: unknown, client?: string): ToolResult {
  parseInput(BUILTIN_TOOLS.init.input, body);
  return env.connections.create(client).id;
}

/** Ends the connection: its id is unknown afterwards, and its slot and items are free again. */
export function close(env: ToolEnv, body: unknown): ToolResult {
  const { connection } = openCall(env, BUILTIN_TOOLS.close.input, body);
  env.connections.close(connection);
  return { connection_id: connection.id, closed: true };
}

export function reset(env: ToolEnv, body: unknown): ToolResult {
  const { connection } = openCall(env, BUILTIN_TOOLS.reset.input, body);
  connection.traversal = BLANK;
  return connection.id;
}

export function nFromType(env: ToolEnv, body: unknown): ToolResult {
  const { connection, input } = openCall(env, BUILTIN_TOOLS.n_from_type.input, body);
  const name = input.data.node_type;
  const budget = env.connections.budget(connection);
  // A vector type is accepted too: vectors are graph items like nodes.
  if (env.schema.get(name)?.kind === "vector") {
    const vectors = env.store.read((db) => db.vectorsByLabel(name));
    return held(connection, loaded(heldItems(within(budget, "n_from_type", vectors), env.schema), [name]));
  }
  const label = env.schema.require(name, "node", "data.node_type").name;
  // The scan keeps no record: each becomes a held item, and the first one past the limit stops it.
  const items: HeldItem[] = [];
  env.store.read((db) =>
    db.nodesWhere(label, (node) => {
      items.push(heldItem(node, env.schema));
      budget.hold(items.length, "n_from_type");
      return false;
    }),
  );
  return held(connection, loaded(items, [label]));
}

/** `items`, after RESULT_TOO_LARGE if the connection may not hold that many. */
function within<T>(budget: CallBudget, tool: string, items: T[]): T[] {
  budget.hold(items.length, tool);
  return items;
}

export function eFromType(env: ToolEnv, body: unknown): ToolResult {
  const { connection, input } = openCall(env, BUILTIN_TOOLS.e_from_type.input, body);
  const label = env.schema.edge(input.data.edge_type, "data.edge_type").name;
  const budget = env.connections.budget(connection);
  const edges = within(
    budget,
    "e_from_type",
    env.store.read((db) => db.edgesByLabel(label)),
  );
  return held(connection, loaded(heldItems(edges, env.schema), [label]));
}

export function step(tool: StepTool): (env: ToolEnv, body: unknown) => ToolResult {
  return (env, body) => {
    const { connection, input } = openCall(env, BUILTIN_TOOLS[tool].input, body);
    const current = connection.traversal;
    const plan = planStep(tool, input.data, "data", current.types, env.schema);
    const budget = env.connections.budget(connection);
    const items = env.store.read((db) => plan.expand(db, current.items, budget));
    return held(connection, loaded(items, [plan.result]));
  };
}

export function filterItems(env: ToolEnv, body: unknown): ToolResult {
  const { connection, input } = openCall(env, BUILTIN_TOOLS.filter_items.input, body, () => boundFilterDepth(body));
  const current = connection.traversal;
  requireLoaded(current, "filter_items");
  const predicate = compileFilter(input.data.filter, "data.filter", current.types, env.schema);
  const budget = env.connections.budget(connection);
  const items = env.store.read((db) =>
    current.items.filter((item) => {
      const record = recordOf(db, env.schema, item);
      return record !== null && predicate(db, record, budget);
    }),
  );
  return held(connection, loaded(items, current.types));
}

export function orderBy(env: ToolEnv, body: unknown): ToolResult {
  const { connection, input } = openCall(env, BUILTIN_TOOLS.order_by.input, body);
  const { properties, order: direction } = input.data;
  const property = typeof properties === "string" ? properties : properties[0]!;
  const dir = direction.toLowerCase() === "desc" ? "desc" : "asc";
  const current = connection.traversal;
  requireLoaded(current, "order_by");
  checkProperty(env, current, property, "data.properties");
  // Stored values are canonical (Dates as UTC ISO strings), so the sort order is the typed order.
  const records = env.store.read((db) => recordsOf(db, env.schema, current.items));
  const sorted = order(records, (item) => (Object.hasOwn(item, property) ? item[property]! : null), dir);
  connection.traversal = loaded(heldItems(sorted, env.schema), current.types);
  return sorted[0] ?? null;
}

export function next(env: ToolEnv, body: unknown): ToolResult {
  const { connection } = openCall(env, BUILTIN_TOOLS.next.input, body);
  // Items deleted since the traversal was built are passed over.
  let traversal = connection.traversal;
  const record = env.store.read((db) => {
    for (;;) {
      const { item, next: moved } = advance(traversal);
      traversal = moved;
      if (item === null) return null;
      const found = recordOf(db, env.schema, item);
      if (found !== null) return found;
    }
  });
  connection.traversal = traversal;
  return record;
}

export function collect(env: ToolEnv, body: unknown): ToolResult {
  const { connection, input } = openCall(env, BUILTIN_TOOLS.collect.input, body);
  const start = input.range?.start ?? 0;
  const end = input.range?.end ?? -1;
  if (end !== -1 && end < start) throw invalid("range.end", `-1 (to the end) or an integer >= range.start (${start})`, end);
  const drop = input.drop ?? true;
  const items = connection.traversal.items;
  const slice = items.slice(start, end === -1 ? items.length : end);
  const out: GraphItem[] = env.store.read((db) => recordsOf(db, env.schema, slice));
  if (drop) connection.traversal = BLANK;
  return out;
}

export function schemaResource(env: ToolEnv, body: unknown): ToolResult {
  openCall(env, BUILTIN_TOOLS.schema_resource.input, body);
  return env.schemaResource;
}

function groupingProperties(env: ToolEnv, input: ToolInput<"group_by" | "aggregate_by">, t: Traversal): string[] {
  // Top level per the tool table; also accepted under data like the other tools' fields.
  const top = input.properties ?? undefined;
  const inData = input.data?.properties ?? undefined;
  if (top !== undefined && inData !== undefined) {
    throw new StrandError("INVALID_PARAMETER", "give 'properties' once, at the top level or as data.properties, not both");
  }
  const path = top !== undefined ? "properties" : "data.properties";
  const raw = top ?? inData;
  if (raw === undefined) throw new StrandError("MISSING_PARAMETER", "missing 'properties' (the property names to group by)");
  const properties = typeof raw === "string" ? [raw] : raw;
  for (let i = 0; i < properties.length; i++) checkProperty(env, t, properties[i]!, fieldPath(path, i));
  return properties;
}

export function groupByTool(env: ToolEnv, body: unknown): ToolResult {
  const { connection, input } = openCall(env, BUILTIN_TOOLS.group_by.input, body);
  const current = connection.traversal;
  requireLoaded(current, "group_by");
  const properties = groupingProperties(env, input, current);
  return groupBy(
    env.store.read((db) => recordsOf(db, env.schema, current.items)),
    properties,
  );
}

export function aggregateByTool(env: ToolEnv, body: unknown): ToolResult {
  const { connection, input } = openCall(env, BUILTIN_TOOLS.aggregate_by.input, body);
  const current = connection.traversal;
  requireLoaded(current, "aggregate_by");
  const properties = groupingProperties(env, input, current);
  return aggregateBy(
    env.store.read((db) => recordsOf(db, env.schema, current.items)),
    properties,
  ) as unknown as ToolResult;
}
