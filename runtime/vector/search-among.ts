// `trav::SearchV<T>(vector, k)`: exact (brute-force) search over the vectors a traversal holds.
// Only the items of type T take part, each vector once; scores are the same similarity the index
// search reports for the type's metric (metric.ts), so both forms rank and score alike.
import type { NodeItem } from "../../core/items.js";
import type { VectorTypeInfo } from "../store/schema-info.js";
import { TopN, type Scored } from "./brute-force.js";
import { checkVector, dimensionMismatch, similarity, type Metric } from "./metric.js";
import { checkCount, withScore } from "./search.js";
import { vectorOf } from "./vector-records.js";

/**
 * The min(k, candidates) items of type `info` among `items` most similar to `query`, best first
 * (ties by id), each with `score`. A query of another dimension than the type's (`dimension`,
 * undefined while it has no vectors) is DIMENSION_MISMATCH even when no candidate is left; a bad
 * query or k is INVALID_VALUE, as for the index search.
 */
export function searchAmong(
  info: VectorTypeInfo,
  metric: Metric,
  dimension: number | undefined,
  items: readonly NodeItem[],
  query: unknown,
  k: unknown,
): NodeItem[] {
  const label = info.name;
  const q = checkVector(query, `query vector for V::${label}`);
  const n = checkCount(k, "k", 0);
  if (dimension !== undefined && q.length !== dimension) throw dimensionMismatch(label, dimension, q.length);
  const byId = new Map<string, NodeItem>();
  const best = new TopN(n);
  for (const item of items) {
    if (item.label !== label || byId.has(item.id)) continue;
    byId.set(item.id, item);
    const v = vectorOf(info, item);
    if (v.length !== q.length) throw dimensionMismatch(label, v.length, q.length);
    const scored: Scored = { slot: 0, id: item.id, score: similarity(metric, q, v) };
    best.push(scored);
  }
  return best.sorted().map((s) => withScore(withoutScore(byId.get(s.id)!), s.score));
}

/** A vector type cannot declare `score` (E104): a `score` member is an earlier search's. */
function withoutScore(item: NodeItem): NodeItem {
  if (!Object.hasOwn(item, "score")) return item;
  const { score: _, ...rest } = item;
  return rest as NodeItem;
}
