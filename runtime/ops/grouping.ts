// GROUP_BY / AGGREGATE_BY: partition items by the tuple of values of the named properties.
import type { AggregateGroup, GraphItem, GroupCount, PropValue } from "../../core/items.js";

/** The item's value for `name`, null when it lacks it. */
function fieldValueOf(item: GraphItem, name: string): PropValue {
  return Object.hasOwn(item, name) ? (item[name] ?? null) : null;
}

/**
 * A key identifying the value tuple: JSON with object keys sorted, so structurally equal values
 * share a key while "1" and 1 (or null and "null") do not.
 */
function canonicalJson(value: PropValue): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k]!)}`).join(",")}}`;
}

interface Group<T> {
  values: PropValue[];
  members: T[];
}

/** Groups in order of first appearance; each keeps its members in input order. */
function partition<T extends GraphItem>(items: readonly T[], properties: readonly string[]): Group<T>[] {
  const groups = new Map<string, Group<T>>();
  for (const item of items) {
    const values = properties.map((p) => fieldValueOf(item, p));
    const key = canonicalJson(values);
    const group = groups.get(key);
    if (group) group.members.push(item);
    else groups.set(key, { values, members: [item] });
  }
  return [...groups.values()];
}

/**
 * `[{p1, p2, ..., count}]`, one entry per distinct combination, members in the order of
 * `properties` then `count`. A property named "count" is overwritten by the group count.
 */
export function groupBy(items: readonly GraphItem[], properties: readonly string[]): GroupCount[] {
  return partition(items, properties).map((group) => {
    // fromEntries defines own data properties, so a property named "__proto__" stays a plain member.
    const entry: Record<string, PropValue> = Object.fromEntries(properties.map((p, i) => [p, group.values[i] ?? null]));
    entry.count = group.members.length;
    return entry as GroupCount;
  });
}

/** `[{count, data: [items...]}]` with the same grouping and order as `groupBy`. */
export function aggregateBy<T extends GraphItem>(items: readonly T[], properties: readonly string[]): AggregateGroup<T>[] {
  return partition(items, properties).map((group) => ({ count: group.members.length, data: group.members }));
}
