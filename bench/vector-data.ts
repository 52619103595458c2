// The vector benchmark's data: seeded uniformly random unit vectors (the hard case of issue 3:
// no cluster structure for HNSW to exploit), their exact top-k by brute force, and recall@k.
// Vectors are kept flat (one Float64Array, row-major) so ground truth over 20k x 128 stays fast.
import type { Random } from "./random.js";

export interface VectorSet {
  dim: number;
  count: number;
  /** Row-major: vector i is flat[i * dim .. (i + 1) * dim). */
  flat: Float64Array;
}

/** Standard normal samples (Box-Muller) from a uniform generator. */
function normal(random: Random): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/** `count` unit vectors drawn uniformly from the sphere (normalised Gaussians). */
export function unitVectors(random: Random, count: number, dim: number): VectorSet {
  const flat = new Float64Array(count * dim);
  for (let i = 0; i < count; i++) {
    let norm = 0;
    for (let d = 0; d < dim; d++) {
      const x = normal(random);
      flat[i * dim + d] = x;
      norm += x * x;
    }
    const scale = 1 / Math.sqrt(norm);
    for (let d = 0; d < dim; d++) flat[i * dim + d]! *= scale;
  }
  return { dim, count, flat };
}

/** Vector i as a plain array (what AddV and a JSON body take). */
export function vectorAt(set: VectorSet, i: number): number[] {
  return Array.from(set.flat.subarray(i * set.dim, (i + 1) * set.dim));
}

/**
 * Indices of the k points with the highest cosine similarity to `query` (ties: lower index
 * first). Points are unit vectors, so the dot product ranks them; the query need not be unit.
 */
export function exactTopK(points: VectorSet, query: readonly number[], k: number): number[] {
  const { dim, count, flat } = points;
  const best: { i: number; score: number }[] = [];
  for (let i = 0; i < count; i++) {
    let dot = 0;
    const base = i * dim;
    for (let d = 0; d < dim; d++) dot += flat[base + d]! * query[d]!;
    if (best.length === k && dot <= best[k - 1]!.score) continue;
    let at = best.length;
    while (at > 0 && best[at - 1]!.score < dot) at--;
    best.splice(at, 0, { i, score: dot });
    if (best.length > k) best.pop();
  }
  return best.map((b) => b.i);
}

/** Mean share of each query's exact top-k found in its result list. */
export function recallAtK(exact: readonly (readonly number[])[], found: readonly (readonly number[])[]): number {
  let hits = 0;
  let total = 0;
  exact.forEach((truth, q) => {
    const got = new Set(found[q]);
    for (const t of truth) if (got.has(t)) hits++;
    total += truth.length;
  });
  return total === 0 ? Number.NaN : hits / total;
}
