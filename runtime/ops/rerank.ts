// Rerankers over ranked result lists (best first).
//
// RRF (reciprocal rank fusion): an item's fused score is Σ over the lists containing it of
// 1 / (k + rank), rank counted from 1. Items are returned by fused score, ties by id, each with
// `score` replaced by the fused score (unless its type declares a `score` field of its own).
// Lists are matched by item id, so a SearchV and a SearchBM25 over the same vector type fuse
// into one ranking.
//
// MMR (maximal marginal relevance): repeatedly picks the item maximising
//   lambda · relevance − (1 − lambda) · max similarity to the items already picked,
// where relevance is the item's `score` (its rank position when it has none) and similarity
// between embeddings is cosine, negative euclidean distance, or the dot product.
import { StrandError } from "../../core/errors.js";
import type { NodeItem } from "../../core/items.js";
import { similarity as vectorSimilarity } from "../vector/metric.js";

export type MmrDistance = "cosine" | "euclidean" | "dotproduct";

/**
 * `ownScore(item)`: the item's type declares a `score` field, whose stored value it keeps (it is
 * still ranked by the fused score, which it then does not carry).
 */
export function rerankRRF<T extends NodeItem>(
  lists: readonly (readonly T[])[],
  k: number,
  ownScore: (item: T) => boolean = () => false,
): T[] {
  if (typeof k !== "number" || !Number.isFinite(k) || k <= 0) {
    throw new StrandError("INVALID_VALUE", `RerankRRF k must be a finite number > 0, got ${String(k)}`);
  }
  const fused = new Map<string, { item: T; score: number }>();
  for (const list of lists) {
    const seen = new Set<string>();
    list.forEach((item, i) => {
      if (seen.has(item.id)) return; // a list ranks each item once
      seen.add(item.id);
      const entry = fused.get(item.id);
      const add = 1 / (k + i + 1);
      if (entry === undefined) fused.set(item.id, { item, score: add });
      else entry.score += add;
    });
  }
  return [...fused.values()]
    .sort((a, b) => b.score - a.score || (a.item.id < b.item.id ? -1 : a.item.id > b.item.id ? 1 : 0))
    .map(({ item, score }) => (ownScore(item) ? item : { ...item, score }));
}

/** The embedding of a vector item: its `embedding` field when declared, else `data`. */
export function embeddingOf(item: NodeItem): number[] | null {
  const v = Object.hasOwn(item, "embedding") ? item.embedding : item.data;
  return Array.isArray(v) && v.every((x) => typeof x === "number") ? (v as number[]) : null;
}

/** Similarity of two embeddings, finite for finite components (runtime/vector/metric.ts). */
function similarity(a: readonly number[], b: readonly number[], distance: MmrDistance): number {
  const n = Math.min(a.length, b.length);
  const x = a.length === n ? a : a.slice(0, n);
  const y = b.length === n ? b : b.slice(0, n);
  if (distance === "dotproduct") return vectorSimilarity("ip", x, y);
  if (distance === "euclidean") return -Math.sqrt(-vectorSimilarity("l2", x, y));
  return vectorSimilarity("cosine", x, y);
}

export function rerankMMR<T extends NodeItem>(items: readonly T[], lambda: number, distance: MmrDistance): T[] {
  if (!Number.isFinite(lambda) || lambda < 0 || lambda > 1) {
    throw new StrandError("INVALID_VALUE", `RerankMMR lambda must be between 0 and 1, got ${String(lambda)}`);
  }
  const vectors = items.map((item) => {
    const v = embeddingOf(item);
    if (v === null) throw new StrandError("INVALID_VALUE", `RerankMMR needs vectors; item ${item.id} (${item.label}) has no embedding`);
    return v;
  });
  const relevance = items.map((item, i) => (typeof item.score === "number" ? item.score : 1 / (i + 1)));
  const picked: number[] = [];
  const left = new Set(items.map((_, i) => i));
  while (left.size > 0) {
    // The first candidate left is the fallback, so a NaN everywhere (a relevance of ±Infinity, say)
    // still picks something: NaN counts as the worst score, ties keep the earlier (better) item.
    let best = -1;
    let bestScore = -Infinity;
    for (const i of left) {
      let maxSim = 0;
      if (picked.length > 0) {
        maxSim = -Infinity;
        for (const j of picked) maxSim = Math.max(maxSim, similarity(vectors[i]!, vectors[j]!, distance));
      }
      const raw = lambda * relevance[i]! - (1 - lambda) * maxSim;
      const s = Number.isNaN(raw) ? -Infinity : raw;
      if (best === -1 || s > bestScore) {
        bestScore = s;
        best = i;
      }
    }
    picked.push(best);
    left.delete(best);
  }
  return picked.map((i) => items[i]!);
}
