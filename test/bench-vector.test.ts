// The vector benchmark's correctness (bench/vector*.ts): its flags, its data and ground truth,
// Strand and raw hnswlib returning the same neighbours as brute force on an exact small case and
// the same neighbours as each other on the HNSW path, and the floor server answering like raw
// hnswlib. No timing here (that is `npm run bench`).
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { OptionsError, parseOptions } from "../bench/options.js";
import { seededRandom } from "../bench/random.js";
import { exactTopK, recallAtK, unitVectors, vectorAt } from "../bench/vector-data.js";
import { startVectorFloor } from "../bench/vector-floor-server.js";
import { vectorProjectSchema } from "../bench/vector-project.js";
import {
  buildRawIndex,
  defaultEf,
  fillVectors,
  rawNearest,
  runVectorInProcess,
  strandNearest,
  vectorFixture,
  type RawIndex,
  type VectorFixture,
} from "../bench/vector.js";
import { GraphStore } from "../runtime/graph-store.js";
import { DEFAULT_VECTOR_OPTIONS, EXACT_LIMIT } from "../runtime/vector/metric.js";
import { removeDir, tempDir } from "./support/store-fixtures.js";

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function freshDir(): string {
  const dir = tempDir("strand-bench-vector-");
  dirs.push(dir);
  return dir;
}

describe("bench options for vectors and BM25", () => {
  test("defaults, --quick sizes and explicit flags", () => {
    const full = parseOptions([])!;
    expect([full.vectorCount, full.vectorQueries, full.vectorSearches, full.bm25Docs, full.bm25Queries]).toEqual([
      20_000, 500, 3_000, 100_000, 1_000,
    ]);
    expect([full.skipVector, full.skipVectorHttp, full.skipBm25]).toEqual([false, false, false]);
    const quick = parseOptions(["--quick"])!;
    expect([quick.vectorCount, quick.vectorQueries, quick.vectorSearches, quick.bm25Docs, quick.bm25Queries]).toEqual([
      6_000, 100, 500, 10_000, 200,
    ]);
    const explicit = parseOptions(["--quick", "--vector-count", "9000", "--bm25-docs", "500", "--skip-vector-http", "--skip-bm25"])!;
    expect([explicit.vectorCount, explicit.bm25Docs, explicit.skipVector, explicit.skipVectorHttp, explicit.skipBm25]).toEqual([
      9_000,
      500,
      false,
      true,
      true,
    ]);
    expect(parseOptions(["--skip-vector"])!.skipVector).toBe(true);
  });

  test("a size that is not a positive integer is refused", () => {
    expect(() => parseOptions(["--vector-count", "0"])).toThrow('--vector-count must be a positive integer, got "0"');
    expect(() => parseOptions(["--bm25-docs", "1.5"])).toThrow(OptionsError);
  });
});

describe("vector bench data", () => {
  test("unit vectors are seeded and of norm 1", () => {
    const a = unitVectors(seededRandom(3), 50, 8);
    const b = unitVectors(seededRandom(3), 50, 8);
    expect(a.flat).toEqual(b.flat);
    for (let i = 0; i < 50; i++) expect(Math.hypot(...vectorAt(a, i))).toBeCloseTo(1, 12);
  });

  test("exactTopK ranks by cosine (ties by index) and recallAtK counts shared entries", () => {
    const points = { dim: 2, count: 4, flat: Float64Array.from([1, 0, 0, 1, Math.SQRT1_2, Math.SQRT1_2, -1, 0]) };
    expect(exactTopK(points, [1, 0.1], 3)).toEqual([0, 2, 1]);
    expect(exactTopK(points, [0, -1], 2)).toEqual([0, 3]); // 0 and 3 tie at 0: lower index first
    expect(
      recallAtK(
        [
          [1, 2, 3],
          [4, 5],
        ],
        [[3, 9, 1], [5]],
      ),
    ).toBe(3 / 5);
  });

  test("defaultEf is what SearchV uses without an explicit ef: max(ef_search, 40 k), growing beyond 20k vectors", () => {
    expect(defaultEf(DEFAULT_VECTOR_OPTIONS, 10, 20_000)).toBe(400);
    expect(defaultEf(DEFAULT_VECTOR_OPTIONS, 1, 20_000)).toBe(64);
    // (100k / 20k)^0.9 = 4.26: 1703 at 100k, 13525 at 1M; never more than the live vectors.
    expect(defaultEf(DEFAULT_VECTOR_OPTIONS, 10, 100_000)).toBe(1703);
    expect(defaultEf(DEFAULT_VECTOR_OPTIONS, 10, 1_000_000)).toBe(13525);
    expect(defaultEf(DEFAULT_VECTOR_OPTIONS, 100, 5_000)).toBe(4000);
    expect(defaultEf(DEFAULT_VECTOR_OPTIONS, 200, 5_000)).toBe(5000);
  });
});

describe("Strand and raw hnswlib on the same vectors", () => {
  const K = 10;
  let fixture: VectorFixture;
  let store: GraphStore;
  let raw: RawIndex;

  beforeAll(async () => {
    fixture = vectorFixture(11, 300, 16, 20, K);
    store = GraphStore.open({ path: freshDir(), schema: vectorProjectSchema() });
    await fillVectors(store, fixture.set);
    raw = buildRawIndex(fixture.set, DEFAULT_VECTOR_OPTIONS);
  });

  afterAll(async () => {
    await store?.close();
  });

  test("a small type: Strand (exact) and raw at ef >= N both return brute force's top 10, in order", () => {
    expect(fixture.set.count).toBeLessThanOrEqual(EXACT_LIMIT);
    for (const [q, query] of fixture.queries.entries()) {
      expect(strandNearest(store, query, K, null)).toEqual(fixture.truth[q]);
      expect(rawNearest(raw, query, K, fixture.set.count)).toEqual(fixture.truth[q]);
    }
  });

  test("the floor server answers /floor/search like raw hnswlib and acknowledges /floor/add", async () => {
    const dir = freshDir();
    raw.writeIndexSync(join(dir, "raw.hnsw"));
    const floor = await startVectorFloor({ indexFile: join(dir, "raw.hnsw"), dim: 16, path: join(dir, "floor"), addDim: 4, ef: 300, k: K });
    try {
      const post = async (route: string, body: unknown): Promise<{ status: number; json: unknown }> => {
        const res = await fetch(`${floor.url}${route}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        return { status: res.status, json: (await res.json()) as unknown };
      };
      const search = await post("/floor/search", { v: fixture.queries[0] });
      expect(search.status).toBe(200);
      expect((search.json as { hits: { n: number }[] }).hits.map((h) => h.n)).toEqual(fixture.truth[0]);
      const add = await post("/floor/add", { v: [1, 0, 0, 0], n: 1 });
      expect(add.status).toBe(200);
      expect((add.json as { vec: string }).vec).toMatch(/^[0-9a-f-]{36}$/);
      expect(await post("/floor/add", { v: [1, 0], n: 2 })).toEqual({ status: 400, json: { error: "v, n", code: "INVALID_VALUE" } });
    } finally {
      await floor.close();
    }
  });
});

test("the HNSW path: runVectorInProcess finds the same neighbours as raw hnswlib at every ef", async () => {
  const fixture = vectorFixture(5, EXACT_LIMIT + 904, 16, 30, 10);
  const store = GraphStore.open({ path: freshDir(), schema: vectorProjectSchema() });
  try {
    const lines: string[] = [];
    const { result } = await runVectorInProcess(store, fixture, { searches: 10, efs: [64], log: (line) => lines.push(line) });
    expect(result.strandPath).toBe("hnsw");
    expect(result.rows.map((r) => [r.ef, r.strandDefault])).toEqual([
      [64, false],
      [400, true],
    ]);
    expect(result.headline.ef).toBe(400);
    for (const row of result.rows) {
      expect(row.agreement).toBe(1);
      expect(row.strand.recall).toBe(row.raw.recall);
    }
    expect(result.headline.strand.recall).toBeGreaterThan(0.9);
    expect(lines.length).toBe(4); // fill, raw build, one line per ef
  } finally {
    await store.close();
  }
}, 120_000);
