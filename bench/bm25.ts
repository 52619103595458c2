// SearchBM25 in process on a synthetic corpus (bm25-corpus.ts; issue 3 target: p99 <= 20 ms for
// 3-term queries on 100k documents) and the cost of indexing it (issue 16 item 5: the batched
// bulk path >= 10x the per-document path, queries no slower).
//
// Each fill is timed in wall-clock docs/s and in CPU seconds of this process (the machine is
// shared: CPU time and ratios hold where wall time drifts). With `--baseline <dist dir>` (a
// build of another commit, e.g. `git archive <commit> | tar -x -C dir`, node_modules linked in,
// `npm run build`, then its node_modules replaced by a symlink to this checkout's: see
// loadBaseline) the same corpus is also indexed by that build's GraphStore, in this process,
// and the queries are timed on both stores in alternating blocks, so the two latencies are
// measured side by side under the same load.
// Runs alone: `node dist/bench/bm25.js [--docs N] [--queries N] [--baseline DIR]`, or from the
// orchestrator via benchBm25().
import { realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { SchemaDescriptor } from "../core/schema.js";
import { GraphStore } from "../runtime/graph-store.js";
import { BM25_SCHEMA, bm25Corpus } from "./bm25-corpus.js";
import { cleanup, installCleanupHandlers, tempDir } from "./cleanup.js";
import { mean, quantileSorted } from "./stats.js";

export const BM25_TARGET_P99_MS = 20;

export interface Bm25BenchOptions {
  docs: number;
  queries: number;
  vocabulary: number;
  limit: number;
  /** The dist directory of a baseline build to compare with (index speed and query latency). */
  baseline?: string;
}

export const DEFAULT_BM25_OPTIONS: Bm25BenchOptions = { docs: 100_000, queries: 1_000, vocabulary: 50_000, limit: 10 };

export interface Bm25Timing {
  terms: number;
  meanMs: number;
  p50Ms: number;
  p99Ms: number;
  /** Mean document frequency of the query terms, as a share of N. */
  meanDfShare: number;
}

export interface Bm25Fill {
  docsPerSec: number;
  /** CPU seconds (user + system) of this process during the fill. */
  cpuSeconds: number;
}

export interface Bm25BenchResult {
  options: Bm25BenchOptions;
  /** All documents in one write, postings gathered per term (what a bulk import does). */
  fillDocsPerSec: number;
  fillCpuSeconds: number;
  /** The same write with each document's postings written on their own (the cost before batching). */
  perDocumentDocsPerSec: number;
  perDocumentCpuSeconds: number;
  /** Writes of 5,000 documents, batched. */
  fill5kDocsPerSec: number;
  timings: Bm25Timing[];
  /** Query timings on the store filled per document (same index, built the other way). */
  unbatchedTimings: Bm25Timing[];
  /** The baseline build's batched fill and its queries, timed alternately with `timings`. */
  baseline: { dist: string; fill: Bm25Fill; timings: Bm25Timing[] } | null;
}

/** What the bench uses of a GraphStore, so that another build's GraphStore can stand in. */
interface BenchDb {
  addNode(label: string, props: { title: string; body: string }): unknown;
  searchBM25(label: string, text: string, limit: number): unknown;
}
interface BenchStore {
  write(fn: (db: BenchDb) => void): Promise<unknown>;
  read(fn: (db: BenchDb) => unknown): unknown;
  close(): Promise<void>;
}
interface BenchStoreClass {
  open(options: { path: string; schema: SchemaDescriptor }): BenchStore;
}

/** One store filled with the corpus in writes of `batch` documents. */
async function fill(
  store: BenchStore,
  docs: readonly { title: string; body: string }[],
  batch: number,
  perDocument: boolean,
): Promise<Bm25Fill> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let done = 0; done < docs.length; done += batch) {
    const slice = docs.slice(done, done + batch);
    await store.write((db) => {
      for (const props of slice) {
        db.addNode("Doc", props);
        // A search (of no terms) makes the writer write the gathered postings first: each
        // document's postings are then written on their own, one get and put per term, as
        // before batching (runtime/search/postings-batch.ts).
        if (perDocument) db.searchBM25("Doc", "", 1);
      }
    });
  }
  const cpu = process.cpuUsage(cpu0);
  return { docsPerSec: docs.length / ((performance.now() - t0) / 1000), cpuSeconds: (cpu.user + cpu.system) / 1e6 };
}

/**
 * The baseline build's GraphStore. It must load the very lmdb module this build loads: a second
 * copy of lmdb-js in one process shares the native addon's global buffers with the first and
 * corrupts its reads, so the baseline's node_modules must be a symlink to this checkout's.
 */
async function loadBaseline(dist: string): Promise<BenchStoreClass> {
  const entry = join(resolve(dist), "runtime", "graph-store.js");
  const theirs = realpathSync(createRequire(entry).resolve("lmdb"));
  const ours = realpathSync(createRequire(import.meta.url).resolve("lmdb"));
  if (theirs !== ours)
    throw new Error(
      `--baseline ${dist} loads lmdb from ${theirs}, this build from ${ours}: two copies of lmdb cannot share a process; make the baseline's node_modules a symlink to this checkout's (ln -s)`,
    );
  const module = (await import(pathToFileURL(entry).href)) as { GraphStore?: unknown };
  if (typeof module.GraphStore !== "function") throw new Error(`${dist}: runtime/graph-store.js exports no GraphStore`);
  return module.GraphStore as unknown as BenchStoreClass;
}

export async function benchBm25(options: Bm25BenchOptions, log: (line: string) => void): Promise<Bm25BenchResult> {
  const { docs, df, queries } = bm25Corpus(options.docs, options.queries, options.vocabulary);
  const n = options.docs.toLocaleString("en-US");
  const describe = (f: Bm25Fill) => `${Math.round(f.docsPerSec)} docs/s, ${f.cpuSeconds.toFixed(1)} CPU s`;
  const current = GraphStore as unknown as BenchStoreClass;
  const baselineClass = options.baseline === undefined ? null : await loadBaseline(options.baseline);
  const open: BenchStore[] = [];
  const openStore = (cls: BenchStoreClass): BenchStore => {
    const store = cls.open({ path: tempDir("strand-bench-bm25-"), schema: BM25_SCHEMA });
    open.push(store);
    return store;
  };
  try {
    const unbatched = openStore(current);
    const perDocument = await fill(unbatched, docs, options.docs, true);
    log(`bm25: ${n} documents in one write, postings per document: ${describe(perDocument)}`);
    const store = openStore(current);
    const batched = await fill(store, docs, options.docs, false);
    log(`bm25: ${n} documents in one write, postings batched: ${describe(batched)}`);
    let baseline: { store: BenchStore; fill: Bm25Fill } | null = null;
    if (baselineClass !== null) {
      const baseStore = openStore(baselineClass);
      baseline = { store: baseStore, fill: await fill(baseStore, docs, options.docs, false) };
      log(`bm25: ${n} documents in one write, batched, baseline build: ${describe(baseline.fill)}`);
    }
    const store5k = openStore(current);
    const fill5k = await fill(store5k, docs, 5_000, false);
    const timed = time([store, unbatched, ...(baseline ? [baseline.store] : [])], options, queries, df);
    return {
      options,
      fillDocsPerSec: batched.docsPerSec,
      fillCpuSeconds: batched.cpuSeconds,
      perDocumentDocsPerSec: perDocument.docsPerSec,
      perDocumentCpuSeconds: perDocument.cpuSeconds,
      fill5kDocsPerSec: fill5k.docsPerSec,
      timings: timed[0]!,
      unbatchedTimings: timed[1]!,
      baseline: baseline === null ? null : { dist: options.baseline!, fill: baseline.fill, timings: timed[2]! },
    };
  } finally {
    for (const store of open) await store.close();
  }
}

/** Queries per block: the stores take turns by blocks, the first store changing every block. */
const BLOCK = 50;

/**
 * The same queries on every store, in alternating blocks so that each store's latencies come
 * from the same stretch of time: per row (1 term, then 3), an untimed warm-up of BLOCK queries
 * on each store, then every block of queries on each store in turn.
 */
function time(
  stores: readonly BenchStore[],
  options: Bm25BenchOptions,
  queriesByTerms: Map<number, string[][]>,
  df: ReadonlyMap<string, number>,
): Bm25Timing[][] {
  const timings: Bm25Timing[][] = stores.map(() => []);
  const search = (store: BenchStore, q: string[]) => store.read((db) => db.searchBM25("Doc", q.join(" "), options.limit));
  for (const [terms, queries] of queriesByTerms) {
    const dfShare = mean(queries.flatMap((q) => q.map((term) => (df.get(term) ?? 0) / options.docs)));
    for (const store of stores) for (const q of queries.slice(0, BLOCK)) search(store, q);
    const ms: number[][] = stores.map(() => []);
    for (let from = 0, block = 0; from < queries.length; from += BLOCK, block++) {
      for (let k = 0; k < stores.length; k++) {
        const s = (k + block) % stores.length;
        for (const q of queries.slice(from, from + BLOCK)) {
          const start = performance.now();
          search(stores[s]!, q);
          ms[s]!.push(performance.now() - start);
        }
      }
    }
    ms.forEach((m, s) => {
      m.sort((a, b) => a - b);
      timings[s]!.push({ terms, meanMs: mean(m), p50Ms: quantileSorted(m, 0.5), p99Ms: quantileSorted(m, 0.99), meanDfShare: dfShare });
    });
  }
  return timings;
}

export function renderBm25(result: Bm25BenchResult): string {
  const o = result.options;
  const docsPerSec = (v: number) => Math.round(v).toLocaleString("en-US");
  const lines = [
    `SearchBM25 in process: ${o.docs.toLocaleString("en-US")} documents (~66 Zipf words each, vocabulary ${o.vocabulary.toLocaleString("en-US")}), limit ${o.limit}, ${o.queries} queries per row`,
    `  AddN with indexing, all documents in one write: ${docsPerSec(result.fillDocsPerSec)} docs/s (${result.fillCpuSeconds.toFixed(1)} CPU s) with postings batched per term, ${docsPerSec(result.perDocumentDocsPerSec)} docs/s (${result.perDocumentCpuSeconds.toFixed(1)} CPU s) written per document (before batching): ${(result.fillDocsPerSec / result.perDocumentDocsPerSec).toFixed(1)}x wall, ${(result.perDocumentCpuSeconds / result.fillCpuSeconds).toFixed(1)}x CPU (target >= 10x)`,
  ];
  const b = result.baseline;
  if (b !== null)
    lines.push(
      `  baseline build (${b.dist}), batched, same corpus: ${docsPerSec(b.fill.docsPerSec)} docs/s (${b.fill.cpuSeconds.toFixed(1)} CPU s): this build ${(result.fillDocsPerSec / b.fill.docsPerSec).toFixed(2)}x wall, ${(b.fill.cpuSeconds / result.fillCpuSeconds).toFixed(2)}x CPU`,
    );
  lines.push(
    `  AddN with indexing, writes of 5,000 documents, batched: ${docsPerSec(result.fill5kDocsPerSec)} docs/s`,
    `  index      terms   mean ms   p50 ms   p99 ms   mean df/N   target${b ? "   (stores queried in alternating blocks of 50)" : ""}`,
  );
  const rows = [
    ...result.timings.map((t) => ["batched", t] as const),
    ...result.unbatchedTimings.map((t) => ["per-doc", t] as const),
    ...(b?.timings.map((t) => ["baseline", t] as const) ?? []),
  ];
  for (const [built, t] of rows) {
    const verdict = t.terms === 3 ? `p99 <= ${BM25_TARGET_P99_MS} ms: ${t.p99Ms <= BM25_TARGET_P99_MS ? "PASS" : "MISS"}` : "";
    lines.push(
      `  ${built.padEnd(9)}  ${String(t.terms).padStart(5)}   ${t.meanMs.toFixed(2).padStart(7)}   ${t.p50Ms.toFixed(2).padStart(6)}   ${t.p99Ms.toFixed(2).padStart(6)}   ${t.meanDfShare.toFixed(3).padStart(9)}   ${verdict}`,
    );
  }
  return lines.join("\n");
}

const USAGE = "usage: bm25.js [--docs N] [--queries N] [--vocabulary N] [--limit N] [--baseline <strand dist dir>]";

function parseArgs(argv: readonly string[]): Bm25BenchOptions {
  const o: Bm25BenchOptions = { ...DEFAULT_BM25_OPTIONS };
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i]!.replace(/^--/, "");
    const raw = argv[i + 1];
    if (raw === undefined) throw new Error(USAGE);
    if (key === "baseline") {
      o.baseline = raw;
      continue;
    }
    const value = Number(raw);
    if (!(key === "docs" || key === "queries" || key === "vocabulary" || key === "limit") || !Number.isSafeInteger(value) || value < 1)
      throw new Error(USAGE);
    o[key] = value;
  }
  return o;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  installCleanupHandlers();
  try {
    const started = performance.now();
    const result = await benchBm25(parseArgs(process.argv.slice(2)), (line) =>
      process.stderr.write(`[bench ${((performance.now() - started) / 1000).toFixed(0).padStart(4)}s] ${line}\n`),
    );
    process.stdout.write(`${renderBm25(result)}\n`);
  } finally {
    await cleanup();
  }
}
