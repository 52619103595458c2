// Recall at the default breadth as the index grows (issue 16 item 4): for each size in
// --recall-counts and each distribution (uniform unit vectors, the hard case; clustered ones,
// closer to real embeddings), `count` vectors of dimension 128 go to `V::Vec` through GraphStore
// and to a raw hnswlib-node index built alike (same M, ef_construction, metric, seed and order,
// so both graphs are the same). Strand searches with no explicit ef (what SearchV does by
// default), raw hnswlib at that same ef (so at equal recall); recall@10 against brute force, then
// timed calls in alternating blocks. Targets: recall@10 >= 0.95 at 100k uniform, Strand's QPS
// >= 0.9x raw's at the same recall.
import { rmSync } from "node:fs";
import { join } from "node:path";
import { GraphStore } from "../runtime/graph-store.js";
import { DEFAULT_VECTOR_OPTIONS } from "../runtime/vector/metric.js";
import { seededRandom, type Random } from "./random.js";
import { exactTopK, recallAtK, unitVectors, vectorAt, type VectorSet } from "./vector-data.js";
import { vectorProjectSchema } from "./vector-project.js";
import { buildRawIndex, defaultEf, fillVectors, rawNearest, side, strandNearest, timeBoth, type SearchSide } from "./vector.js";

export const RECALL_TARGETS = { recall: 0.95, recallAt: 100_000, qpsRatio: 0.9 } as const;

const DIM = 128;
const K = 10;
const CLUSTERS = 100;
/** Spread of a clustered point around its centre, per dimension, relative to the centre's. */
const SPREAD = 0.5;

export type Distribution = "uniform" | "clustered";

export interface RecallRow {
  data: Distribution;
  count: number;
  /** the breadth Strand chose by default; raw hnswlib ran at the same */
  ef: number;
  strand: SearchSide;
  raw: SearchSide;
  /** strand QPS / raw QPS */
  ratio: number;
}

export interface RecallSettings {
  root: string;
  counts: readonly number[];
  queries: number;
  searches: number;
  seed: number;
  log: (line: string) => void;
}

function normal(random: Random): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/** `count` unit vectors around CLUSTERS random centres (each point: centre + Gaussian noise, normalised). */
function clusteredVectors(random: Random, centres: VectorSet, count: number): VectorSet {
  const flat = new Float64Array(count * DIM);
  const noise = SPREAD / Math.sqrt(DIM);
  for (let i = 0; i < count; i++) {
    const c = Math.floor(random() * centres.count);
    let norm = 0;
    for (let d = 0; d < DIM; d++) {
      const x = centres.flat[c * DIM + d]! + noise * normal(random);
      flat[i * DIM + d] = x;
      norm += x * x;
    }
    const scale = 1 / Math.sqrt(norm);
    for (let d = 0; d < DIM; d++) flat[i * DIM + d]! *= scale;
  }
  return { dim: DIM, count, flat };
}

/** Points and queries drawn from the same distribution. */
function dataset(data: Distribution, count: number, queries: number, seed: number): { set: VectorSet; queries: number[][] } {
  const random = seededRandom(seed);
  if (data === "uniform") {
    const set = unitVectors(random, count, DIM);
    const q = unitVectors(random, queries, DIM);
    return { set, queries: Array.from({ length: queries }, (_, i) => vectorAt(q, i)) };
  }
  const centres = unitVectors(random, CLUSTERS, DIM);
  const set = clusteredVectors(random, centres, count);
  const q = clusteredVectors(random, centres, queries);
  return { set, queries: Array.from({ length: queries }, (_, i) => vectorAt(q, i)) };
}

async function measure(data: Distribution, count: number, settings: RecallSettings): Promise<RecallRow> {
  const { set, queries } = dataset(data, count, settings.queries, settings.seed);
  const truth = queries.map((q) => exactTopK(set, q, K));
  const dir = join(settings.root, `recall-${data}-${count}`);
  const store = GraphStore.open({ path: dir, schema: vectorProjectSchema() });
  try {
    const t0 = performance.now();
    await fillVectors(store, set);
    const raw = buildRawIndex(set, DEFAULT_VECTOR_OPTIONS);
    settings.log(
      `recall: ${count.toLocaleString("en-US")} ${data} vectors in Strand and raw hnswlib in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
    );
    const ef = defaultEf(DEFAULT_VECTOR_OPTIONS, K, count);
    const strandFound = queries.map((q) => strandNearest(store, q, K, null));
    const rawFound = queries.map((q) => rawNearest(raw, q, K, ef));
    raw.setEf(ef);
    const times = timeBoth(
      (q) => strandNearest(store, q, K, null),
      (q) => raw.searchKnn(q, K),
      queries,
      settings.searches,
    );
    const row: RecallRow = {
      data,
      count,
      ef,
      strand: side(times.strand, recallAtK(truth, strandFound)),
      raw: side(times.raw, recallAtK(truth, rawFound)),
      ratio: 0,
    };
    row.ratio = row.strand.qps / row.raw.qps;
    settings.log(
      `recall: ${data} ${count}: default ef ${ef}: Strand recall@${K} ${row.strand.recall.toFixed(3)} at ${row.strand.qps.toFixed(0)} QPS, raw ${row.raw.recall.toFixed(3)} at ${row.raw.qps.toFixed(0)} QPS (${row.ratio.toFixed(2)}x)`,
    );
    return row;
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runVectorRecall(settings: RecallSettings): Promise<RecallRow[]> {
  const rows: RecallRow[] = [];
  for (const count of settings.counts)
    for (const data of ["uniform", "clustered"] as const) rows.push(await measure(data, count, settings));
  return rows;
}

export function renderRecall(rows: readonly RecallRow[]): string {
  const lines = [
    `SearchV recall@${K} at the default breadth (dim ${DIM}; raw hnswlib at the same ef, same graph; targets: recall >= ${RECALL_TARGETS.recall} at ${RECALL_TARGETS.recallAt.toLocaleString("en-US")} uniform, QPS >= ${RECALL_TARGETS.qpsRatio}x raw)`,
    "  data        vectors     ef   Strand recall   Strand QPS   raw recall   raw QPS   Strand/raw QPS   result",
  ];
  for (const r of rows) {
    // The targets are set at 100k uniform vectors (the hard case); the other rows are the curve.
    const target = r.data === "uniform" && r.count === RECALL_TARGETS.recallAt;
    const pass = r.strand.recall >= RECALL_TARGETS.recall && r.ratio >= RECALL_TARGETS.qpsRatio;
    lines.push(
      `  ${r.data.padEnd(10)}${r.count.toLocaleString("en-US").padStart(9)}${String(r.ef).padStart(7)}${r.strand.recall.toFixed(3).padStart(16)}${r.strand.qps.toFixed(0).padStart(13)}${r.raw.recall.toFixed(3).padStart(13)}${r.raw.qps.toFixed(0).padStart(10)}${`${r.ratio.toFixed(2)}x`.padStart(17)}   ${target ? (pass ? "PASS" : "MISS") : ""}`,
    );
  }
  return lines.join("\n");
}
