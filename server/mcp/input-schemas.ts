// Input schemas (zod v4, which the MCP SDK turns into JSON Schema for `tools/list`) and one-line
// descriptions of every tool. They describe the same bodies the `/mcp/<tool>` endpoints take; the
// tool functions still validate every body themselves (and name the culprit field).
import * as z from "zod/v4";
import type { ParamSpec } from "../../core/query-module.js";
import type { ValueType } from "../../core/schema.js";
import { integerRange } from "../../core/scalars.js";
import { STEP_TOOLS } from "./steps.js";
import { OPERATORS } from "./typed-compare.js";

export type InputSchema = z.ZodObject;

const connectionId = z.string().describe("the id `init` returned");

const stepFields = {
  edge_type: z
    .string()
    .optional()
    .describe("`node` or `vec`: the kind of the items the step arrives at (or, in the other accepted layout, the edge type's name)"),
  edge_label: z.string().optional().describe("the edge type's name (or, in the other accepted layout, `node` / `vec`)"),
};

const filterValue = z.union([z.string(), z.number(), z.boolean()]);

const condition = z.strictObject({
  key: z.string().describe("a property of the held items"),
  operator: z.enum(OPERATORS),
  value: z
    .union([filterValue, z.array(filterValue)])
    .describe("read as the property's declared type; with lists the condition holds when any pair does (`!=`: no pair is equal)"),
});

interface FilterLayerShape {
  properties?: Array<Array<z.infer<typeof condition>>> | undefined;
  filter_traversals?: TraversalFilterShape[] | undefined;
}
interface TraversalFilterShape {
  tool_name: (typeof STEP_TOOLS)[number];
  args: { edge_type?: string | undefined; edge_label?: string | undefined; filter?: FilterLayerShape | undefined };
  filters?: FilterLayerShape | undefined;
}

const filterLayer: z.ZodType<FilterLayerShape> = z.lazy(() =>
  z.strictObject({
    properties: z.array(z.array(condition)).optional().describe("OR over AND-groups of conditions"),
    filter_traversals: z
      .array(traversalFilter)
      .optional()
      .describe("all must hold: the step from the item, narrowed by its nested filter, reaches at least one item"),
  }),
);

const traversalFilter: z.ZodType<TraversalFilterShape> = z.lazy(() =>
  z.strictObject({
    tool_name: z.enum(STEP_TOOLS),
    args: z.strictObject({ ...stepFields, filter: filterLayer.optional() }),
    filters: filterLayer.optional().describe("the nested filter, when not given as args.filter"),
  }),
);

const withConnection = (shape: z.ZodRawShape = {}): InputSchema => z.strictObject({ connection_id: connectionId, ...shape });
const withData = (shape: z.ZodRawShape): InputSchema => withConnection({ data: z.strictObject(shape) });
const properties = z.array(z.string()).min(1).describe("property names");

export interface BuiltinTool {
  description: string;
  input: InputSchema;
}

export const BUILTIN_TOOLS: Readonly<Record<string, BuiltinTool>> = {
  init: { description: "Open a connection with a blank traversal; returns its id (pass it as connection_id).", input: z.strictObject({}) },
  n_from_type: {
    description: "The traversal holds every node of the type. Returns {connection_id, count}.",
    input: withData({ node_type: z.string().describe("a node type name") }),
  },
  e_from_type: {
    description: "The traversal holds every edge of the type. Returns {connection_id, count}.",
    input: withData({ edge_type: z.string().describe("an edge type name") }),
  },
  out_step: {
    description: "Step from the held nodes/vectors to the targets of their outgoing edges of the type.",
    input: withData(stepFields),
  },
  in_step: {
    description: "Step from the held nodes/vectors to the sources of their incoming edges of the type.",
    input: withData(stepFields),
  },
  out_e_step: {
    description: "Step from the held nodes/vectors to their outgoing edges of the type (or from held edges to their targets).",
    input: withData(stepFields),
  },
  in_e_step: {
    description: "Step from the held nodes/vectors to their incoming edges of the type (or from held edges to their sources).",
    input: withData(stepFields),
  },
  filter_items: {
    description: "Narrow the traversal with a filter. Returns {connection_id, count}.",
    input: withData({ filter: filterLayer }),
  },
  order_by: {
    description: "Sort the traversal by one property and rewind the cursor; returns the first item (null when empty).",
    input: withData({ properties: z.union([z.string(), z.array(z.string()).length(1)]), order: z.string().describe("asc or desc") }),
  },
  next: { description: "The item at the cursor, advancing it; null at the end.", input: withConnection() },
  collect: {
    description: "Items start..end of the traversal (end -1: to the end). drop (default true) resets the traversal afterwards.",
    input: withConnection({
      range: z.strictObject({ start: z.number().int().min(0).optional(), end: z.number().int().min(-1).optional() }).optional(),
      drop: z.boolean().optional(),
    }),
  },
  reset: { description: "Blank the traversal; returns the connection id.", input: withConnection() },
  close: {
    description:
      "End the connection (its id is unknown afterwards), freeing its place among the client's connections. Returns {connection_id, closed: true}.",
    input: withConnection(),
  },
  schema_resource: {
    description:
      "The schema (nodes, vectors, edges with their property types) and every query ({name, parameters, returns}); those marked #[mcp] are also tools named <Query>Mcp.",
    input: withConnection(),
  },
  group_by: { description: "[{<property>: value, ..., count}] over the held items.", input: withConnection({ properties }) },
  aggregate_by: {
    description: "[{count, data: [items]}] over the held items, grouped by the properties.",
    input: withConnection({ properties }),
  },
  search_vector: {
    description:
      "The k vectors most similar to `vector` with score >= min_score: among the held vectors when the traversal is loaded, " +
      "else among every vector (of `label` when given). Returns them; the traversal continues from them.",
    input: withData({
      vector: z.array(z.number()),
      k: z.number().int().min(1),
      min_score: z.number().optional(),
      label: z.string().optional().describe("a vector type (only for a search over every vector)"),
      ef: z
        .number()
        .int()
        .min(1)
        .optional()
        .describe("HNSW search breadth for this search (default: max(ef_search, 40·k, more beyond 20k vectors), as SearchV)"),
    }),
  },
  search_vector_text: {
    description:
      "Embed the text with the configured model and return the 5 nearest vectors of the type; the traversal continues from them.",
    input: withData({
      query: z.string(),
      label: z.string().describe("a vector type"),
      ef: z
        .number()
        .int()
        .min(1)
        .optional()
        .describe(
          "HNSW search breadth for this search (default: max(ef_search, 200), SearchV's max(ef_search, 40·k, more beyond 20k vectors) for k = 5)",
        ),
    }),
  },
  search_keyword: {
    description: "BM25 keyword search over the nodes (or vectors) of the type, best first; the traversal continues from them.",
    input: withData({ query: z.string(), label: z.string().describe("a node or vector type"), limit: z.number().int().min(1) }),
  },
};

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
export function queryInputSchema(params: readonly ParamSpec[]): InputSchema {
  const shape: Record<string, z.ZodType> = {};
  for (const p of params) shape[p.name] = p.optional ? valueSchema(p.type).nullable().optional() : valueSchema(p.type);
  const data = z.strictObject(shape);
  return withConnection({ data: params.every((p) => p.optional) ? data.optional() : data });
}
