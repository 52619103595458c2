// SearchV in process against raw hnswlib-node on the same vectors (issue 3 target: Strand's
// QPS >= 0.8 of raw at equal recall). `count` seeded uniform unit vectors (vector-data.ts) are
// written to `V::Vec` through GraphStore (batched durable writes); a raw HierarchicalNSW gets the
// same vectors in the same order with the same M, ef_construction, metric and random seed, so
// both graphs are built alike. For each search breadth ef, Strand (`searchVectors` in a
// `store.read`) and raw `searchKnn` answer the same queries: recall@k against brute force, then
// timed calls in alternating blocks. The headline row is Strand at its default ef (max(ef_search,
// 40·k)) against raw at that same ef; the other rows show the recall/QPS curve of both.
import hnswlib from "hnswlib-node";
import type { GraphStore } from "../runtime/graph-store.js";
import { DEFAULT_VECTOR_OPTIONS, EXACT_LIMIT, defaultEf as searchDefaultEf, type VectorOptions } from "../runtime/vector/metric.js";
import { RANDOM_SEED } from "../runtime/vector/vector-index.js";
import { seededRandom } from "./random.js";
import { mean, quantileSorted } from "./stats.js";
import { exactTopK, recallAtK, unitVectors, vectorAt, type VectorSet } from "./vector-data.js";
import { SEARCHED } from "./vector-project.js";

const { HierarchicalNSW } = hnswlib;
export type RawIndex = InstanceType<typeof HierarchicalNSW>;

export const VECTOR_TARGETS = {
  /** In-process SearchV QPS at least this share of raw hnswlib's at the same ef (equal recall). */
  searchRatio: 0.8,
  /** Acknowledged AddV inserts per second over HTTP at dim 384. */
  addPerSec: 1_000,
} as const;

/** The data both sides search: vectors, queries and the queries' exact top-k (vector numbers). */
export interface VectorFixture {
  set: VectorSet;
  queries: number[][];
  truth: number[][];
  k: number;
  groundTruthSeconds: number;
}

export function vectorFixture(seed: number, count: number, dim: number, queries: number, k: number): VectorFixture {
  const random = seededRandom(seed);
  const set = unitVectors(random, count, dim);
  const querySet = unitVectors(random, queries, dim);
  const list = Array.from({ length: queries }, (_, i) => vectorAt(querySet, i));
  const t0 = performance.now();
  const truth = list.map((q) => exactTopK(set, q, k));
  return { set, queries: list, truth, k, groundTruthSeconds: (performance.now() - t0) / 1000 };
}

export interface VectorInProcessSettings {
  /** Timed searches per side and ef. */
  searches: number;
  /** Explicit breadths measured besides the default one. */
  efs: readonly number[];
  log: (line: string) => void;
}

export interface SearchSide {
  qps: number;
  meanUs: number;
  p50Us: number;
  p99Us: number;
  /** recall@k against brute force over all queries. */
  recall: number;
}

export interface EfRow {
  ef: number;
  /** True for the row where Strand ran without an explicit ef (what SearchV does by default). */
  strandDefault: boolean;
  strand: SearchSide;
  raw: SearchSide;
  /** strand QPS / raw QPS. */
  ratio: number;
  /** Mean share of raw's k results that Strand returned too (1 = same neighbours). */
  agreement: number;
}

export interface VectorInProcessResult {
  data: "uniform unit vectors";
  count: number;
  dim: number;
  queries: number;
  k: number;
  searches: number;
  options: VectorOptions;
  /** "hnsw" above EXACT_LIMIT live vectors; "exact" below (Strand then searches by brute force). */
  strandPath: "hnsw" | "exact";
  strandBuildSeconds: number;
  rawBuildSeconds: number;
  groundTruthSeconds: number;
  rows: EfRow[];
  /** The default-ef row. */
  headline: EfRow;
}

const WRITE_BATCH = 2_500;
const BLOCK = 100;
const WARMUP = 50;

/** Writes vector i of `set` as `V::Vec {n: i}` (batched durable writes). */
export async function fillVectors(store: GraphStore, set: VectorSet): Promise<void> {
  for (let start = 0; start < set.count; start += WRITE_BATCH) {
    const end = Math.min(set.count, start + WRITE_BATCH);
    await store.write((db) => {
      for (let i = start; i < end; i++) db.addVector(SEARCHED, vectorAt(set, i), { n: i });
    });
  }
}

/** A raw hnswlib index over `set` (label i = vector i), built as Strand builds its own. */
export function buildRawIndex(set: VectorSet, options: VectorOptions): RawIndex {
  const raw = new HierarchicalNSW(options.metric, set.dim);
  raw.initIndex({ maxElements: set.count, m: options.m, efConstruction: options.efConstruction, randomSeed: RANDOM_SEED });
  for (let i = 0; i < set.count; i++) raw.addPoint(vectorAt(set, i), i);
  return raw;
}

/** Strand's k nearest as vector numbers (`n`), in result order; `ef` null = Strand's default. */
export function strandNearest(store: GraphStore, query: readonly number[], k: number, ef: number | null): number[] {
  return store.read((db) => db.searchVectors(SEARCHED, query, k, ef).map((item) => item.n as number));
}

/** Raw hnswlib's k nearest labels, nearest first, at breadth ef. */
export function rawNearest(raw: RawIndex, query: readonly number[], k: number, ef: number): number[] {
  raw.setEf(ef);
  const { neighbors, distances } = raw.searchKnn(query as number[], k);
  // searchKnn returns farthest first.
  return neighbors
    .map((n, i) => ({ n, d: distances[i]! }))
    .sort((a, b) => a.d - b.d || a.n - b.n)
    .map((x) => x.n);
}

/** The ef Strand searches with when the query gives none, for `count` live vectors (runtime/vector/search.ts). */
export function defaultEf(options: VectorOptions, k: number, count: number): number {
  return searchDefaultEf(options.efSearch, k, count);
}

export function side(times: Float64Array, recall: number): SearchSide {
  const sorted = Float64Array.from(times).sort();
  const meanUs = mean(times);
  return { qps: 1e6 / meanUs, meanUs, p50Us: quantileSorted(sorted, 0.5), p99Us: quantileSorted(sorted, 0.99), recall };
}

/** Timed calls over the query set, blocks of Strand and raw alternating (even blocks Strand first). */
export function timeBoth(
  strand: (q: number[]) => unknown,
  raw: (q: number[]) => unknown,
  queries: readonly number[][],
  searches: number,
): { strand: Float64Array; raw: Float64Array } {
  for (let i = 0; i < Math.min(WARMUP, queries.length); i++) {
    strand(queries[i]!);
    raw(queries[i]!);
  }
  const times = { strand: new Float64Array(searches), raw: new Float64Array(searches) };
  for (let block = 0; block < searches; block += BLOCK) {
    const end = Math.min(searches, block + BLOCK);
    const order = (block / BLOCK) % 2 === 0 ? (["strand", "raw"] as const) : (["raw", "strand"] as const);
    for (const which of order) {
      const fn = which === "strand" ? strand : raw;
      for (let s = block; s < end; s++) {
        const q = queries[s % queries.length]!;
        const t = process.hrtime.bigint();
        fn(q);
        times[which][s] = Number(process.hrtime.bigint() - t) / 1000;
      }
    }
  }
  return times;
}

/** Mean share of `b`'s entries also in `a`, per query. */
function overlap(a: readonly (readonly number[])[], b: readonly (readonly number[])[]): number {
  return recallAtK(b, a);
}

export async function runVectorInProcess(
  store: GraphStore,
  fixture: VectorFixture,
  settings: VectorInProcessSettings,
): Promise<{ result: VectorInProcessResult; raw: RawIndex }> {
  const { set, queries, truth, k } = fixture;
  const { count, dim } = set;
  const options = DEFAULT_VECTOR_OPTIONS;

  let t0 = performance.now();
  await fillVectors(store, set);
  const strandBuildSeconds = (performance.now() - t0) / 1000;
  settings.log(
    `vector: ${count.toLocaleString("en-US")} vectors of dim ${dim} written through GraphStore in ${strandBuildSeconds.toFixed(1)} s`,
  );
  t0 = performance.now();
  const raw = buildRawIndex(set, options);
  const rawBuildSeconds = (performance.now() - t0) / 1000;
  settings.log(
    `vector: raw hnswlib built in ${rawBuildSeconds.toFixed(1)} s; exact top-${k} of ${queries.length} queries took ${fixture.groundTruthSeconds.toFixed(1)} s`,
  );

  const standard = defaultEf(options, k, count);
  const efs = [...new Set([...settings.efs, standard])].sort((a, b) => a - b);
  const rows: EfRow[] = [];
  for (const ef of efs) {
    const strandDefault = ef === standard;
    const strandEf = strandDefault ? null : ef;
    const strandFound = queries.map((q) => strandNearest(store, q, k, strandEf));
    const rawFound = queries.map((q) => rawNearest(raw, q, k, ef));
    raw.setEf(ef);
    const times = timeBoth(
      (q) => strandNearest(store, q, k, strandEf),
      (q) => raw.searchKnn(q, k),
      queries,
      settings.searches,
    );
    const row: EfRow = {
      ef,
      strandDefault,
      strand: side(times.strand, recallAtK(truth, strandFound)),
      raw: side(times.raw, recallAtK(truth, rawFound)),
      ratio: 0,
      agreement: overlap(strandFound, rawFound),
    };
    row.ratio = row.strand.qps / row.raw.qps;
    rows.push(row);
    settings.log(
      `vector: ef ${ef}${strandDefault ? " (Strand's default)" : ""}: strand ${row.strand.qps.toFixed(0)} QPS recall ${row.strand.recall.toFixed(3)}, raw ${row.raw.qps.toFixed(0)} QPS recall ${row.raw.recall.toFixed(3)}, ratio ${row.ratio.toFixed(2)}`,
    );
  }
  const result: VectorInProcessResult = {
    data: "uniform unit vectors",
    count,
    dim,
    queries: queries.length,
    k,
    searches: settings.searches,
    options,
    strandPath: count > EXACT_LIMIT ? "hnsw" : "exact",
    strandBuildSeconds,
    rawBuildSeconds,
    groundTruthSeconds: fixture.groundTruthSeconds,
    rows,
    headline: rows.find((r) => r.strandDefault)!,
  };
  return { result, raw };
}
