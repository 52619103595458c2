// Counting walks over adjacency lists without reading records: what `::Out<A>::Out<B>::COUNT`,
// `EXISTS(_::Out<A>)` and `WHERE(_::Out<A>::COUNT::GT(n))` compile to (QueryContext.countAdjacent).
// The answer is exactly the length of the list the steps would return: a traversal keeps one
// item per edge walked (duplicates included), so the number of walks is the sum, over the nodes
// reached before the last step, of (times reached) × (that node's degree in the last step).
// Every adjacency entry has its record (both are written and dropped in one transaction), so no
// record needs to be read to know it is there.
import type { NodeItem } from "../../core/items.js";
import type { AdjacencyStep } from "../../core/query-context.js";

/** The adjacency reads a count needs, in the caller's transaction. */
export interface AdjacencyReads {
  /** The other endpoint of each edge of the list, in creation order (repeats kept). */
  others(direction: "out" | "in", nodeId: string, edgeLabel: string): readonly string[];
  /** The list's length, without reading its entries. */
  degree(direction: "out" | "in", nodeId: string, edgeLabel: string): number;
}

/** The number of walks `steps` take from `items`, or `limit` once that many are found. */
export function countWalks(reads: AdjacencyReads, items: readonly NodeItem[], steps: readonly AdjacencyStep[], limit = Infinity): number {
  if (steps.length === 0) return Math.min(items.length, limit);
  // Nodes reached, each with the number of walks that reach it: a node reached by many walks is
  // expanded once (the lists are the same for each walk).
  let reached = new Map<string, number>();
  for (const item of items) reached.set(item.id, (reached.get(item.id) ?? 0) + 1);
  for (let s = 0; s < steps.length - 1; s++) {
    const [direction, edgeLabel] = steps[s]!;
    const next = new Map<string, number>();
    for (const [id, walks] of reached)
      for (const other of reads.others(direction, id, edgeLabel)) next.set(other, (next.get(other) ?? 0) + walks);
    if (next.size === 0) return 0;
    reached = next;
  }
  const [direction, edgeLabel] = steps[steps.length - 1]!;
  let total = 0;
  for (const [id, walks] of reached) {
    total += walks * reads.degree(direction, id, edgeLabel);
    if (total >= limit) return limit;
  }
  return total;
}
