// AddE / UpsertE with several items at an end (HelixDB >= 2.1): one edge per (from, to) pair,
// the cross product when both ends are lists, in from-major order (every `to` of the first
// `from`, then of the next). Pure: the caller makes or upserts each edge through its writer.
import type { EdgeItem } from "../../core/items.js";

/** `make(from, to)` for every pair, from-major; [] when either list is empty. */
export function eachPair<T>(fromIds: readonly string[], toIds: readonly string[], make: (fromId: string, toId: string) => T): T[] {
  const out: T[] = [];
  for (const fromId of fromIds) for (const toId of toIds) out.push(make(fromId, toId));
  return out;
}

/**
 * UpsertE over pairs: each pair upserts among the edges of `existing` that connect exactly that
 * pair (`upsertOne` updates the first of them that still exists, else creates the edge). A pair
 * listed again (an item twice in a list) finds the edge its first occurrence made or updated.
 */
export function upsertPairs(
  existing: readonly EdgeItem[],
  fromIds: readonly string[],
  toIds: readonly string[],
  upsertOne: (candidates: readonly EdgeItem[], fromId: string, toId: string) => EdgeItem,
): EdgeItem[] {
  const byPair = new Map<string, EdgeItem[]>();
  for (const edge of existing) {
    const key = pairKey(edge.from_node, edge.to_node);
    const list = byPair.get(key);
    if (list === undefined) byPair.set(key, [edge]);
    else list.push(edge);
  }
  return eachPair(fromIds, toIds, (fromId, toId) => {
    const key = pairKey(fromId, toId);
    const edge = upsertOne(byPair.get(key) ?? [], fromId, toId);
    byPair.set(key, [edge]);
    return edge;
  });
}

/** Ids are compared as stored (lower case); an id parameter may arrive in upper case. */
function pairKey(fromId: unknown, toId: unknown): string {
  return `${String(fromId).toLowerCase()} ${String(toId).toLowerCase()}`;
}
