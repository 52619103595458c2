// The search algorithm over an in-memory snapshot: snapshot visibility, pending (committed but
// not yet applied) vectors, deleted points, the exact paths and the LMDB fallback.
import { describe, expect, test } from "vitest";
import type { VectorAdd } from "../runtime/vector/changes.js";
import { DEFAULT_VECTOR_OPTIONS, EXACT_LIMIT, resolveVectorOptions, similarity } from "../runtime/vector/metric.js";
import { searchVectors, type SearchOutcome, type VectorSnapshot } from "../runtime/vector/search.js";
import { VectorIndex } from "../runtime/vector/vector-index.js";
import { exactTopK, gaussian, memorySnapshot, rng, unitVector } from "./support/vector-fixtures.js";

const info = { name: "Doc", embedding: null } as unknown as Parameters<typeof searchVectors>[0]["info"];

function points(seed: number, n: number, dim: number): number[][] {
  const normal = gaussian(rng(seed));
  return Array.from({ length: n }, () => unitVector(normal, dim));
}

function run(index: VectorIndex, snapshot: VectorSnapshot, query: number[], k: number, pending: VectorAdd[] = []): SearchOutcome {
  return searchVectors({ info, index, pending, snapshot, options: DEFAULT_VECTOR_OPTIONS, query, k, ef: null });
}

function indexOf(ps: readonly number[][], ids: readonly string[], only: (i: number) => boolean = () => true): VectorIndex {
  const index = new VectorIndex("Doc", DEFAULT_VECTOR_OPTIONS);
  ps.forEach((p, i) => {
    if (only(i)) index.add(i, ids[i]!, p);
  });
  return index;
}

const LARGE = EXACT_LIMIT + 1500;

describe("HNSW path", () => {
  const ps = points(5, LARGE, 16);
  const q = ps[17]!;
  const nearest = exactTopK(ps, q, 60);

  test("markDelete'd points are skipped without eating into k", () => {
    const { ids } = memorySnapshot("Doc", ps);
    const index = indexOf(ps, ids);
    for (const i of nearest.slice(0, 50)) index.remove(i);
    const got = index.nearest(q, 10, 64);
    expect(got.length).toBe(10);
    expect(got.filter((g) => nearest.slice(0, 50).includes(g.slot))).toEqual([]);
    expect(index.live).toBe(LARGE - 50);
  });

  test("vectors the index has but the snapshot lacks are never returned, and never reduce the count", () => {
    const hidden = new Set(nearest.slice(0, 30).map((i) => memorySnapshot("Doc", ps).ids[i]!));
    const { snapshot, ids } = memorySnapshot("Doc", ps, hidden);
    const out = run(indexOf(ps, ids), snapshot, q, 10);
    expect(out.path).toBe("hnsw");
    expect(out.items.length).toBe(10);
    expect(out.items.filter((d) => hidden.has(d.id))).toEqual([]);
    expect(out.items.map((d) => d.id)).toEqual(nearest.slice(30, 40).map((i) => ids[i]));
  });

  test("committed vectors not yet applied to the index are found through the pending log", () => {
    const { snapshot, ids } = memorySnapshot("Doc", ps);
    const late = new Set(nearest.slice(0, 3));
    const index = indexOf(ps, ids, (i) => !late.has(i));
    const pending: VectorAdd[] = [...late].map((i) => ({
      kind: "add",
      label: "Doc",
      slot: i,
      id: ids[i]!,
      vector: ps[i]!,
      generation: LARGE + i,
      epoch: "e",
    }));
    const out = run(index, snapshot, q, 5, pending);
    expect(out.path).toBe("hnsw");
    expect(out.items.map((d) => d.id)).toEqual(nearest.slice(0, 5).map((i) => ids[i]));
    expect(out.items[0]!.score).toBe(1);
  });

  test("a pending add of a rolled-back write does not hide a committed one that reused its slot", () => {
    const { snapshot, ids } = memorySnapshot("Doc", ps);
    const index = indexOf(ps, ids, (i) => i !== nearest[0]);
    const slot = nearest[0]!;
    const pending: VectorAdd[] = [
      { kind: "add", label: "Doc", slot, id: "rolled-back-00000000000000000000000000", vector: q, generation: LARGE + 1, epoch: "e" },
      { kind: "add", label: "Doc", slot, id: ids[slot]!, vector: ps[slot]!, generation: LARGE + 1, epoch: "e" },
    ];
    expect(run(index, snapshot, q, 1, pending).items.map((d) => d.id)).toEqual([ids[slot]]);
  });

  test("an index that cannot supply k visible vectors falls back to ranking the snapshot exactly", () => {
    const { snapshot, ids } = memorySnapshot("Doc", ps);
    const out = run(new VectorIndex("Doc", DEFAULT_VECTOR_OPTIONS), snapshot, q, 10);
    expect(out.path).toBe("lmdb-scan");
    expect(out.items.map((d) => d.id)).toEqual(nearest.slice(0, 10).map((i) => ids[i]));
  });
});

describe("exact path (at most EXACT_LIMIT live vectors)", () => {
  const ps = points(9, 1000, 8);
  const q = ps[3]!;
  const nearest = exactTopK(ps, q, 30);

  test("uses the exact copy, skipping vectors hidden from the snapshot", () => {
    const all = memorySnapshot("Doc", ps);
    const hidden = new Set(nearest.slice(0, 7).map((i) => all.ids[i]!));
    const { snapshot, ids } = memorySnapshot("Doc", ps, hidden);
    const index = indexOf(ps, ids);
    expect(index.exact?.size).toBe(1000);
    const out = run(index, snapshot, q, 12);
    expect(out.path).toBe("exact-copy");
    expect(out.items.map((d) => d.id)).toEqual(nearest.slice(7, 19).map((i) => ids[i]));
    expect(out.items.map((d) => d.score)).toEqual(nearest.slice(7, 19).map((i) => similarity("cosine", q, ps[i]!)));
  });

  test("k above the live count returns every visible vector", () => {
    const { snapshot, ids } = memorySnapshot("Doc", ps.slice(0, 5));
    const out = run(indexOf(ps.slice(0, 5), ids), snapshot, q, 100);
    expect(out.items.map((d) => d.id)).toEqual(exactTopK(ps.slice(0, 5), q, 5).map((i) => ids[i]));
  });

  test("equal scores are ordered by id", () => {
    const same = [
      [1, 0],
      [2, 0],
      [3, 0],
      [0, 1],
    ];
    const { snapshot, ids } = memorySnapshot("Doc", same);
    const index = new VectorIndex("Doc", DEFAULT_VECTOR_OPTIONS);
    // Inserted in reverse: the order must come from the ids, not from insertion.
    for (let i = same.length - 1; i >= 0; i--) index.add(i, ids[i]!, same[i]!);
    const out = run(index, snapshot, [1, 0], 3);
    expect(out.items.map((d) => [d.id, d.score])).toEqual([
      [ids[0], 1],
      [ids[1], 1],
      [ids[2], 1],
    ]);
  });

  test("the exact copy is dropped once the type grows past twice the limit", () => {
    const index = new VectorIndex("Doc", DEFAULT_VECTOR_OPTIONS);
    const ps2 = points(3, 2 * EXACT_LIMIT + 1, 4);
    for (let i = 0; i < ps2.length; i++) index.add(i, `id${i}`, ps2[i]!);
    expect(index.exact).toBe(null);
  });
});

describe("options", () => {
  test("defaults, partial options, and invalid values named by key", () => {
    expect(resolveVectorOptions(undefined)).toEqual({ m: 16, efConstruction: 128, efSearch: 64, metric: "cosine" });
    expect(resolveVectorOptions({ efSearch: 200, m: undefined })).toEqual({ m: 16, efConstruction: 128, efSearch: 200, metric: "cosine" });
    expect(() => resolveVectorOptions({ m: 1 })).toThrow("vector option m must be an integer from 2 to 1000000, got 1");
    expect(() => resolveVectorOptions({ efSearch: 1.5 })).toThrow("vector option efSearch must be an integer from 1 to 1000000, got 1.5");
    expect(() => resolveVectorOptions({ metric: "dot" as "ip" })).toThrow("vector option metric must be one of cosine, l2, ip, got dot");
  });

  test("l2 and ip scores", () => {
    expect(similarity("l2", [1, 2], [4, 6])).toBe(-25);
    expect(similarity("ip", [1, 2], [4, 6])).toBe(16);
    expect(similarity("cosine", [0, 0], [4, 6])).toBe(0);
  });

  test("an l2 index ranks by distance, scores are minus the squared distance", () => {
    const options = { ...DEFAULT_VECTOR_OPTIONS, metric: "l2" as const };
    const ps = [
      [0, 0],
      [3, 4],
      [1, 1],
      [10, 0],
    ];
    const { snapshot, ids } = memorySnapshot("Doc", ps);
    const index = new VectorIndex("Doc", options);
    for (let i = 0; i < ps.length; i++) index.add(i, ids[i]!, ps[i]!);
    const out = searchVectors({ info, index, pending: [], snapshot, options, query: [1, 0], k: 3, ef: null });
    expect(out.items.map((d) => [d.id, d.score])).toEqual([
      [ids[0], -1],
      [ids[2], -1],
      [ids[1], -20],
    ]);
  });
});

describe("scores on extreme magnitudes (finite in, finite out)", () => {
  test("cosine is scale-free: huge, tiny and mixed components give the true cosine", () => {
    expect(similarity("cosine", [1, 1], [1e300, 1e300])).toBe(1);
    expect(similarity("cosine", [1e300, 1e300], [1e300, 1e300])).toBe(1);
    expect(similarity("cosine", [1e300, 1e300], [1, 0])).toBe(0.7071067811865475);
    expect(similarity("cosine", [1e200, 1], [1, 0])).toBe(1);
    expect(similarity("cosine", [1e-200, 0], [1, 0])).toBe(1);
    expect(similarity("cosine", [1e-200, 1e-200], [0, 1])).toBe(0.7071067811865475);
    expect(similarity("cosine", [-1e-320, 0], [1e308, 0])).toBe(-1);
    // The stride form (the exact copy) scales the same way.
    expect(similarity("cosine", [1e-200, 0], [9, 9, 1e300, 0], 2)).toBe(1);
  });

  test("a zero vector under cosine has no direction: similarity 0 to everything, itself included", () => {
    expect(similarity("cosine", [0, 0], [0, 0])).toBe(0);
    expect(similarity("cosine", [0, 0], [1e-300, 0])).toBe(0);
    expect(similarity("cosine", [1e300, 0], [0, 0])).toBe(0);
  });

  test("l2 and ip never overflow to Infinity or NaN: beyond the f64 range they clamp to ±MAX_VALUE", () => {
    expect(similarity("l2", [1e300, 0], [-1e300, 0])).toBe(-Number.MAX_VALUE);
    expect(similarity("l2", [1e154, 0], [0, 0])).toBe(-(1e154 * 1e154));
    expect(similarity("l2", [1.5e308, 0], [-1.5e308, 0])).toBe(-Number.MAX_VALUE);
    expect(similarity("ip", [1e308, 0], [1e308, 0])).toBe(Number.MAX_VALUE);
    expect(similarity("ip", [1e308, 0], [-1e308, 0])).toBe(-Number.MAX_VALUE);
    expect(similarity("ip", [1e300, 1e300], [1e-300, -1e-300])).toBe(0);
    // Infinity − Infinity in the plain sum is NaN; on a common scale it is the true 0.
    expect(similarity("ip", [1e308, 1e308], [1e308, -1e308])).toBe(0);
    // The f32 range itself stays exact in f64.
    expect(similarity("ip", [3.4e38, 3.4e38], [3.4e38, 3.4e38])).toBe(2 * 3.4e38 * 3.4e38);
    expect(similarity("l2", [3.4e38], [-3.4e38])).toBe(-(6.8e38 * 6.8e38));
  });
});
