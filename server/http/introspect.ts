// `GET /introspect`: what this server serves, as plain JSON — the schema's types with their
// properties' HelixQL type names, and every query's parameters and RETURN names:
//
//   { "schema": { "nodes":   [{ "name", "properties": { field: "String" | "[F64]" | ... } }],
//                 "vectors": [{ "name", "properties": {...} }],
//                 "edges":   [{ "name", "from", "to", "properties": {...} }] },
//     "queries": [{ "name", "parameters": { param: "ID" | "String?" | ... }, "returns": [names] }] }
//
// Optional parameters carry a trailing `?`. Types, queries and members keep declaration order.
import type { QueryModule } from "../../core/query-module.js";
import { helixTypeName, type FieldDescriptor, type SchemaDescriptor } from "../../core/schema.js";

export interface TypeIntrospection {
  name: string;
  properties: Record<string, string>;
}

export interface EdgeIntrospection extends TypeIntrospection {
  from: string;
  to: string;
}

export interface QueryIntrospection {
  name: string;
  parameters: Record<string, string>;
  returns: string[];
}

export interface Introspection {
  schema: { nodes: TypeIntrospection[]; vectors: TypeIntrospection[]; edges: EdgeIntrospection[] };
  queries: QueryIntrospection[];
}

function properties(fields: readonly FieldDescriptor[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of fields) out[f.name] = helixTypeName(f.type);
  return out;
}

export function introspect(schema: SchemaDescriptor, queries: readonly QueryModule[]): Introspection {
  return {
    schema: {
      nodes: schema.nodes.map((n) => ({ name: n.name, properties: properties(n.fields) })),
      vectors: schema.vectors.map((v) => ({ name: v.name, properties: properties(v.fields) })),
      edges: schema.edges.map((e) => ({ name: e.name, from: e.from, to: e.to, properties: properties(e.fields) })),
    },
    queries: queries.map((q) => {
      const parameters: Record<string, string> = {};
      for (const p of q.params) parameters[p.name] = `${helixTypeName(p.type)}${p.optional ? "?" : ""}`;
      return { name: q.name, parameters, returns: [...q.returns] };
    }),
  };
}
