// Vector test data: a schema with vector types, seeded generators and exact ground truth.
import { seededRandom as rng } from "../../bench/random.js";
import type { SchemaDescriptor, ValueType } from "../../core/schema.js";
import { similarity, type Metric } from "../../runtime/vector/metric.js";
import type { VectorSnapshot } from "../../runtime/vector/search.js";

const s = (name: "String" | "F64" | "U32"): ValueType => ({ kind: "scalar", name });

export const vectorSchema: SchemaDescriptor = {
  nodes: [{ name: "Author", fields: [{ name: "name", type: s("String"), index: "none", default: null }] }],
  vectors: [
    {
      name: "Doc",
      fields: [
        { name: "title", type: s("String"), index: "none", default: null },
        { name: "topic", type: s("String"), index: "index", default: null },
        { name: "slug", type: s("String"), index: "unique", default: null },
        { name: "rank", type: s("U32"), index: "none", default: { kind: "literal", value: 0 } },
      ],
    },
    {
      name: "Chunk",
      fields: [
        { name: "text", type: s("String"), index: "none", default: null },
        { name: "embedding", type: { kind: "array", element: s("F64") }, index: "none", default: null },
      ],
    },
  ],
  edges: [
    { name: "Wrote", from: "Author", to: "Doc", unique: false, fields: [] },
    { name: "Cites", from: "Doc", to: "Doc", unique: false, fields: [] },
    { name: "HasChunk", from: "Doc", to: "Chunk", unique: false, fields: [] },
  ],
};

/** The seeded uniform generator the vector tests share (mulberry32). */

export { rng };

/** Standard normal samples (Box-Muller) from a seeded uniform generator. */
export function gaussian(random: () => number): () => number {
  return () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

export function unitVector(normal: () => number, dim: number): number[] {
  const v = Array.from({ length: dim }, normal);
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

/** n points around `clusters` random centres (centre spread 1 and point spread `sigma` per axis). */
export function clusteredVectors(
  seed: number,
  n: number,
  dim: number,
  clusters: number,
  sigma: number,
): { points: number[][]; sample: () => number[] } {
  const random = rng(seed);
  const normal = gaussian(random);
  const centres = Array.from({ length: clusters }, () => Array.from({ length: dim }, normal));
  const sample = (): number[] => {
    const c = centres[Math.floor(random() * clusters)]!;
    return c.map((x) => x + sigma * normal());
  };
  return { points: Array.from({ length: n }, sample), sample };
}

/** Indices of the k most similar points (score descending, then index ascending), by a full scan. */
export function exactTopK(
  points: readonly (readonly number[])[],
  query: readonly number[],
  k: number,
  metric: Metric = "cosine",
): number[] {
  // Insertion into a sorted list of at most k: each point is scored once.
  const best: { i: number; score: number }[] = [];
  points.forEach((p, i) => {
    const score = similarity(metric, query, p);
    if (best.length === k && score <= best[k - 1]!.score) return;
    let at = best.length;
    while (at > 0 && best[at - 1]!.score < score) at--;
    best.splice(at, 0, { i, score });
    if (best.length > k) best.pop();
  });
  return best.map((x) => x.i);
}

/** Mean fraction of the exact top-k found by `found` (one list per query). */
export function recallAtK(exact: readonly (readonly (number | string)[])[], found: readonly (readonly (number | string)[])[]): number {
  let hits = 0;
  let total = 0;
  exact.forEach((truth, q) => {
    const got = new Set(found[q]);
    for (const t of truth) if (got.has(t)) hits++;
    total += truth.length;
  });
  return hits / total;
}

/**
 * A VectorSnapshot over plain arrays: vector i has id `v<i padded>`, slot i and record
 * {id, label, data}; `hidden` ids are absent from the snapshot (not yet, or no longer, in it).
 */
export function memorySnapshot(
  label: string,
  points: readonly (readonly number[])[],
  hidden: ReadonlySet<string> = new Set(),
): {
  snapshot: VectorSnapshot;
  ids: string[];
} {
  const ids = points.map((_, i) => `v${String(i).padStart(35, "0")}`);
  const slotById = new Map<string, number>();
  ids.forEach((id, i) => {
    if (!hidden.has(id)) slotById.set(id, i);
  });
  const snapshot: VectorSnapshot = {
    meta: (l) =>
      l === label
        ? { epoch: "e", dimension: points[0]!.length, nextSlot: points.length, live: slotById.size, generation: points.length }
        : undefined,
    slotOf: (l, id) => (l === label ? slotById.get(id) : undefined),
    record: (l, id) => {
      const slot = l === label ? slotById.get(id) : undefined;
      return slot === undefined ? undefined : { id, label, data: points[slot] as number[] };
    },
    slots: () => [...slotById].map(([id, slot]) => ({ id, slot })),
  };
  return { snapshot, ids };
}
