// Records as they travel through a query and over the wire. Fields are flattened beside the
// identity members, exactly as clients receive them.
import type { JsonValue } from "./schema.js";

export type PropValue = JsonValue;
export type Props = Record<string, PropValue>;

export interface NodeItem {
  id: string;
  label: string;
  [field: string]: PropValue;
}

export interface EdgeItem extends NodeItem {
  from_node: string;
  to_node: string;
}

export type GraphItem = NodeItem | EdgeItem;

/** One shortest path: the nodes from source to target, and the edges between them. */
export type Path = [NodeItem[], EdgeItem[]];

export interface GroupCount {
  count: number;
  [property: string]: PropValue;
}

export interface AggregateGroup<T extends GraphItem = GraphItem> {
  count: number;
  data: T[];
}
