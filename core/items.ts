// Records as they travel through a query and over the wire. Fields are flattened beside the
// identity members, exactly as clients receive them.
import type { JsonValue } from "./schema.js";

export type PropValue = JsonValue;
export type Props = Record<string, PropValue>;

/**
 * `target[key] = value` that always makes `key` an own member: plain assignment to "__proto__"
 * would set the prototype instead (and drop the value). For objects built from user-chosen names.
 */
export function setMember(target: Record<string, PropValue>, key: string, value: PropValue): void {
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

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
