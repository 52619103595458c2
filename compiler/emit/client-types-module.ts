// `client-types.ts`: every type the typed client needs, importing nothing, so `client.ts` and this
// file work alone (in Node or a browser) without Strand installed: the item shapes as
// core/items.ts defines them, each type's record type (as schema.ts), and each query's parameters
// and answer (as its queries/<Name>.ts). test/client-standalone.test.ts keeps the shapes in step.
import type { SchemaDescriptor } from "../../core/schema.js";
import type { QueryIr } from "../ir/ir.js";
import type { ExpressionContext, KindLabels } from "./expressions.js";
import { paramsTypeText, resultTypeTextOf } from "./query-module.js";
import { recordTypes } from "./schema-module.js";
import type { FileStructure, Statement } from "./structures.js";
import { StructureKind } from "ts-morph";

const ITEM_SHAPES = `/** A value as JSON carries it. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
/** A node (or vector): its id, its type and its fields. */
export interface NodeItem {
  id: string;
  label: string;
  [field: string]: JsonValue;
}
/** An edge: a node's shape and its two ends. */
export interface EdgeItem extends NodeItem {
  from_node: string;
  to_node: string;
}
export type GraphItem = NodeItem | EdgeItem;
/** One shortest path: its nodes from source to target, and the edges between them. */
export type Path = [NodeItem[], EdgeItem[]];
/** GROUP_BY: the values of the grouped properties and how many items have them. */
export interface GroupCount {
  count: number;
  [property: string]: JsonValue;
}
/** AGGREGATE_BY: a group's size and its items. */
export interface AggregateGroup<T extends GraphItem = GraphItem> {
  count: number;
  data: T[];
}`;

export function clientTypesModule(schema: SchemaDescriptor, queries: readonly QueryIr[], labels: KindLabels): FileStructure {
  const statements: Statement[] = [ITEM_SHAPES, ...recordTypes(schema)];
  for (const query of queries) {
    const ctx: ExpressionContext = { usesList: false, usedTypes: new Set(), labels, constants: new Map() };
    statements.push({
      kind: StructureKind.TypeAlias,
      isExported: true,
      name: `${query.name}Params`,
      type: paramsTypeText(query),
      docs: [`Parameters of ${query.name}: the JSON body of POST /${query.name}.`],
    });
    statements.push({
      kind: StructureKind.TypeAlias,
      isExported: true,
      name: `${query.name}Result`,
      type: resultTypeTextOf(query, ctx),
      docs: [`The JSON response of POST /${query.name}.`],
    });
  }
  return { path: "/client-types.ts", statements };
}
