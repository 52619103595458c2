// The tools' inputs, described once: zod v4 schemas that tools/list renders as JSON Schema
// (protocol.ts) and that every call is checked against, over /mcp/<tool> and the protocol alike
// (input-parse.ts), each field with the words its errors use (input-words.ts). What depends on
// the project's schema or on the traversal (type and property names, which way a step goes, a
// filter value read as its property's type) the tools check themselves. A null member is an
// absent one: optional members take null, required ones are missing when null.
import * as z from "zod/v4";
import type { ParamSpec } from "../../core/query-module.js";
import type { ValueType } from "../../core/schema.js";
import { integerRange } from "../../core/scalars.js";
import { checkVector } from "../../runtime/vector/metric.js";
import { isObject, type JsonObject } from "./body.js";
import { integer, members, nonEmpty, worded } from "./input-words.js";
import { STEP_TOOLS, type StepFields, type StepTool } from "./steps.js";
import type { BuiltinToolName } from "./tool-names.js";
import { type FilterOperator, OPERATORS } from "./typed-compare.js";

export type InputSchema = z.ZodObject;

const connectionId = worded(z.string().describe("the id init returned"), { expected: "a string (the id init returned)" });

const withConnection = <S extends z.ZodRawShape>(shape: S) => members({ connection_id: connectionId, ...shape });
const withData = <S extends z.ZodRawShape>(shape: S) => withConnection({ data: members(shape) });

/** An optional string that must not be empty when given. */
const someString = (description: string) => worded(z.string().min(1), { expected: "a non-empty string" }).nullish().describe(description);

const stepFields = {
  edge_type: someString(
    "`node` or `vec`: the kind of the items the step arrives at (or, in the other accepted layout, the edge type's name)",
  ),
  edge_label: someString("the edge type's name (or, in the other accepted layout, `node` / `vec`)"),
};

const condition = members({
  key: worded(z.string().min(1).describe("a property of the held items"), { what: "a property name", expected: "a property name" }),
  operator: worded(z.enum(OPERATORS), { what: `one of ${OPERATORS.join(" ")}` }),
  // Any list passes here: its items are read as the property's declared type, which words what is wrong with them.
  value: worded(
    z
      .union([z.string(), z.number(), z.boolean(), z.array(z.unknown())])
      .describe(
        "a string, number or boolean, or a list of them, read as the property's declared type; with lists the condition holds when any pair does (`!=`: no pair is equal)",
      ),
    { what: "a string or an array of strings", expected: "a string, a number, a boolean or an array of them" },
  ),
});

export interface FilterCondition {
  key: string;
  operator: FilterOperator;
  value: string | number | boolean | unknown[];
}
export interface FilterLayer {
  properties?: FilterCondition[][] | null | undefined;
  filter_traversals?: TraversalFilter[] | null | undefined;
}
export interface TraversalFilter {
  tool_name: StepTool;
  args: StepFields & { filter?: FilterLayer | null | undefined };
  filters?: FilterLayer | null | undefined;
}

const filterLayer: z.ZodType<FilterLayer> = z.lazy(() =>
  members({
    properties: worded(z.array(worded(z.array(condition), { expected: "an array of conditions {key, operator, value} (one AND-group)" })), {
      expected: "an array of AND-groups: [[{key, operator, value}, ...], ...]",
    })
      .nullish()
      .describe("OR over AND-groups of conditions"),
    filter_traversals: worded(z.array(traversalFilter), { expected: "an array of {tool_name, args}" })
      .nullish()
      .describe("all must hold: the step from the item, narrowed by its nested filter, reaches at least one item"),
  }),
);

const traversalFilter: z.ZodType<TraversalFilter> = z.lazy(() =>
  members({
    tool_name: worded(z.enum(STEP_TOOLS), { what: STEP_TOOLS.join(" | "), expected: `one of ${STEP_TOOLS.join(", ")}` }),
    args: members({ ...stepFields, filter: filterLayer.nullish() }, "the step's fields: {edge_type, edge_label, filter?}"),
    filters: filterLayer.nullish().describe("the nested filter, when not given as args.filter"),
  }),
);

const propertyName = worded(z.string().min(1), { expected: "a property name" });
/** A property name, or a list of them (each issue of the union is reported at the union). */
const namesExpected = (issue: z.core.$ZodIssue): string => {
  if (issue.code === "too_big") return "one property name (order_by sorts by one property)";
  return issue.code === "too_small" && issue.origin === "string" ? "a property name" : "a non-empty array of property names";
};
const propertyNames = worded(z.union([propertyName, z.array(propertyName).min(1)]), {
  what: "the property names to group by",
  expected: namesExpected,
})
  .nullish()
  .describe("property names (one may be given as a string)");
const sortProperty = worded(z.union([propertyName, z.array(propertyName).min(1).max(1)]), {
  what: "the property to sort by",
  expected: namesExpected,
});
const sortOrder = worded(
  z
    .string()
    .refine((order) => /^(asc|desc)$/i.test(order))
    .describe("asc or desc"),
  {
    expected: "'asc' or 'desc'",
  },
);
const breadth = (description: string) => integer(1).nullish().describe(description);

export interface BuiltinTool {
  description: string;
  input: InputSchema;
}

const tool = <S extends InputSchema>(description: string, input: S) => ({ description, input });

export const BUILTIN_TOOLS = {
  init: tool("Open a connection with a blank traversal; returns its id (pass it as connection_id).", members({})),
  n_from_type: tool(
    "The traversal holds every node of the type. Returns {connection_id, count}.",
    withData({ node_type: nonEmpty("a node type name") }),
  ),
  e_from_type: tool(
    "The traversal holds every edge of the type. Returns {connection_id, count}.",
    withData({ edge_type: nonEmpty("an edge type name") }),
  ),
  out_step: tool("Step from the held nodes/vectors to the targets of their outgoing edges of the type.", withData(stepFields)),
  in_step: tool("Step from the held nodes/vectors to the sources of their incoming edges of the type.", withData(stepFields)),
  out_e_step: tool(
    "Step from the held nodes/vectors to their outgoing edges of the type (or from held edges to their targets).",
    withData(stepFields),
  ),
  in_e_step: tool(
    "Step from the held nodes/vectors to their incoming edges of the type (or from held edges to their sources).",
    withData(stepFields),
  ),
  filter_items: tool("Narrow the traversal with a filter. Returns {connection_id, count}.", withData({ filter: filterLayer })),
  order_by: tool(
    "Sort the traversal by one property and rewind the cursor; returns the first item (null when empty).",
    withData({ properties: sortProperty, order: sortOrder }),
  ),
  next: tool("The item at the cursor, advancing it; null at the end.", withConnection({})),
  collect: tool(
    "Items start..end of the traversal (end -1: to the end). drop (default true) resets the traversal afterwards.",
    withConnection({
      range: members({ start: integer(0).nullish(), end: integer(-1).nullish() }).nullish(),
      drop: worded(z.boolean(), { expected: "true or false" }).nullish(),
    }),
  ),
  reset: tool("Blank the traversal; returns the connection id.", withConnection({})),
  close: tool(
    "End the connection (its id is unknown afterwards), freeing its place among the client's connections. Returns {connection_id, closed: true}.",
    withConnection({}),
  ),
  schema_resource: tool(
    "The schema (nodes, vectors, edges with their property types) and every query ({name, parameters, returns}); those marked #[mcp] are also tools named <Query>Mcp.",
    withConnection({}),
  ),
  group_by: tool(
    "[{<property>: value, ..., count}] over the held items.",
    withConnection({ properties: propertyNames, data: members({ properties: propertyNames }).nullish() }),
  ),
  aggregate_by: tool(
    "[{count, data: [items]}] over the held items, grouped by the properties.",
    withConnection({ properties: propertyNames, data: members({ properties: propertyNames }).nullish() }),
  ),
  search_vector: tool(
    "The k vectors most similar to `vector` with score >= min_score: among the held vectors when the traversal is loaded, " +
      "else among every vector (of `label` when given). Returns them; the traversal continues from them.",
    withData({
      // Refused as a vector is refused everywhere (runtime/vector/metric.ts).
      vector: worded(z.array(z.number()).describe("an array of numbers"), { check: (value, path) => void checkVector(value, path) }),
      k: integer(1, "how many vectors"),
      min_score: worded(z.number(), { expected: "a number" }).nullish(),
      label: worded(z.string(), { expected: "a vector type name" })
        .nullish()
        .describe("a vector type (only for a search over every vector)"),
      ef: breadth("HNSW search breadth for this search (default: max(ef_search, 40·k, more beyond 20k vectors), as SearchV)"),
    }),
  ),
  search_vector_text: tool(
    "Embed the text with the configured model and return the 5 nearest vectors of the type; the traversal continues from them.",
    withData({
      query: nonEmpty("the text to search for"),
      label: nonEmpty("a vector type name"),
      ef: breadth(
        "HNSW search breadth for this search (default: max(ef_search, 200), SearchV's max(ef_search, 40·k, more beyond 20k vectors) for k = 5)",
      ),
    }),
  ),
  search_keyword: tool(
    "BM25 keyword search over the nodes (or vectors) of the type, best first; the traversal continues from them.",
    withData({
      query: nonEmpty("the words to search for"),
      label: nonEmpty("a node or vector type"),
      limit: integer(1, "how many results"),
    }),
  ),
} satisfies Record<BuiltinToolName, BuiltinTool>;

export type ToolInput<T extends BuiltinToolName> = z.output<(typeof BUILTIN_TOOLS)[T]["input"]>;

/**
 * `{connection_id, data}` of a `#[mcp]` query as a call is checked: its parameters are the
 * query's, checked as `POST /<Query>` checks them (http/params.ts); tools/list shows them
 * (queryInputSchema).
 */
export function queryCallInput(query: string) {
  const data = worded(z.custom<JsonObject>(isObject), { expected: `an object of ${query}'s parameters` });
  // Checked by http/idempotency-key.ts, as the header is; taken by queries that write.
  return withConnection({ data: data.nullish(), idempotency_key: z.string().nullish() });
}

/** What tools/list says of a writing query's idempotency_key. */
const IDEMPOTENCY_KEY_DESCRIPTION =
  "Optional: a key (1 to 255 visible characters, a UUID is usual) that makes the write run at most once: a retry with the same key and data returns the first answer";

const UUID_RE = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** The zod schema of a HelixQL value type (parameters of `#[mcp]` queries). */
export function valueSchema(type: ValueType): z.ZodType {
  switch (type.kind) {
    case "array":
      return z.array(valueSchema(type.element));
    case "object": {
      const shape: Record<string, z.ZodType> = {};
      for (const f of type.fields) shape[f.name] = f.optional ? valueSchema(f.type).nullable().optional() : valueSchema(f.type);
      return z.strictObject(shape);
    }
    case "scalar": {
      const range = integerRange(type.name);
      if (range) return z.number().int().min(range.min).max(range.max).describe(type.name);
      switch (type.name) {
        case "F32":
        case "F64":
          return z.number().describe(type.name);
        case "Boolean":
          return z.boolean();
        case "String":
          return z.string();
        case "ID":
          return z.string().regex(UUID_RE).describe("ID (a UUID)");
        case "Date":
          return z.union([z.string(), z.number().int()]).describe("Date: RFC 3339 with an offset, YYYY-MM-DD, or unix seconds");
      }
    }
  }
  throw new Error(`no schema for value type ${JSON.stringify(type)}`);
}

/** `{connection_id, data: {params}}` for a `#[mcp]` query. */
export function queryInputSchema(params: readonly ParamSpec[], writes = false): InputSchema {
  const shape: Record<string, z.ZodType> = {};
  for (const p of params) shape[p.name] = p.optional ? valueSchema(p.type).nullable().optional() : valueSchema(p.type);
  const data = z.strictObject(shape);
  const input = { data: params.every((p) => p.optional) ? data.optional() : data };
  if (!writes) return withConnection(input);
  return withConnection({ ...input, idempotency_key: z.string().min(1).max(255).optional().describe(IDEMPOTENCY_KEY_DESCRIPTION) });
}
