// HNSW recall at default settings against exact brute force (issue 3), and exactness of small
// types. Seeded data; not timed. The clustered set goes through the store, the uniform set
// through the same VectorIndex + search code over an in-memory snapshot (no LMDB cost).
import { afterAll, expect, test } from "vitest";
import { GraphStore } from "../runtime/graph-store.js";
import { DEFAULT_VECTOR_OPTIONS } from "../runtime/vector/metric.js";
import { searchVectors } from "../runtime/vector/search.js";
import { VectorIndex } from "../runtime/vector/vector-index.js";
import { removeDir, tempDir } from "./support/store-fixtures.js";
import {
  clusteredVectors,
  exactTopK,
  gaussian,
  memorySnapshot,
  recallAtK,
  rng,
  unitVector,
  vectorSchema,
} from "./support/vector-fixtures.js";

const N = 20_000;
const DIM = 128;
const QUERIES = 100;
const K = 10;
const dirs: string[] = [];

afterAll(() => dirs.forEach(removeDir));

test("recall@10 >= 0.95 on 20k clustered vectors (100 overlapping Gaussian clusters, dim 128), through the store", async () => {
  const { points, sample } = clusteredVectors(42, N, DIM, 100, 2.0);
  const dir = tempDir("strand-recall-");
  dirs.push(dir);
  const store = GraphStore.open({ path: dir, schema: vectorSchema });
  try {
    const ids: string[] = [];
    for (let start = 0; start < N; start += 2500) {
      const batch = points.slice(start, start + 2500);
      ids.push(...(await store.write((db) => batch.map((p) => db.addVector("Doc", p, {}).id))));
    }
    const queries = Array.from({ length: QUERIES }, sample);
    const exact = queries.map((q) => exactTopK(points, q, K).map((i) => ids[i]!));
    const found = store.read((db) => queries.map((q) => db.searchVectors("Doc", q, K).map((d) => d.id)));
    expect(found.every((f) => f.length === K)).toBe(true);
    const recall = recallAtK(exact, found);
    const recall64 = recallAtK(
      exact,
      store.read((db) => queries.map((q) => db.searchVectors("Doc", q, K, 64).map((d) => d.id))),
    );
    console.log(`clustered recall@10 = ${recall.toFixed(3)} (ef = 64: ${recall64.toFixed(3)})`);
    expect(recall).toBeGreaterThanOrEqual(0.95);
  } finally {
    await store.close();
  }
}, 300_000);

test("recall@10 >= 0.90 on 20k uniformly random unit vectors (dim 128)", () => {
  const normal = gaussian(rng(1234));
  const points = Array.from({ length: N }, () => unitVector(normal, DIM));
  const { snapshot, ids } = memorySnapshot("Doc", points);
  const index = new VectorIndex("Doc", DEFAULT_VECTOR_OPTIONS);
  for (let i = 0; i < points.length; i++) index.add(i, ids[i]!, points[i]!);
  const info = { name: "Doc", embedding: null } as unknown as Parameters<typeof searchVectors>[0]["info"];
  const queries = Array.from({ length: QUERIES }, () => unitVector(normal, DIM));
  const exact = queries.map((q) => exactTopK(points, q, K).map((i) => ids[i]!));
  const search = (q: number[], ef: number | null) =>
    searchVectors({ info, index, pending: [], snapshot, options: DEFAULT_VECTOR_OPTIONS, query: q, k: K, ef });
  const found = queries.map((q) => search(q, null));
  expect(found.every((f) => f.path === "hnsw" && f.items.length === K)).toBe(true);
  const recall = recallAtK(
    exact,
    found.map((f) => f.items.map((d) => d.id)),
  );
  // The same search at a fixed ef of 64 (the configured ef_search alone) falls well short.
  const recall64 = recallAtK(
    exact,
    queries.map((q) => search(q, 64).items.map((d) => d.id)),
  );
  console.log(`uniform recall@10 = ${recall.toFixed(3)} (ef = 64: ${recall64.toFixed(3)})`);
  expect(recall).toBeGreaterThanOrEqual(0.9);
  expect(recall64).toBeLessThan(0.9);
}, 300_000);
