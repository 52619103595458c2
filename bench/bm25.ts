// SearchBM25 in process on a synthetic corpus (issue 3 target: p99 <= 20 ms for 3-term queries
// on 100k documents). Documents `N::Doc {title, body}` draw their words from a seeded Zipf
// (s = 1) distribution over a vocabulary of made-up words, as natural text does; queries draw
// their 3 terms from the same distribution, so frequent words (df near N) are queried too.
// Runs alone: `node dist/bench/bm25.js [--docs N] [--queries N]`, or from the orchestrator via
// benchBm25().
import { pathToFileURL } from "node:url";
import type { SchemaDescriptor } from "../core/schema.js";
import { GraphStore } from "../runtime/graph-store.js";
import { cleanup, installCleanupHandlers, tempDir } from "./cleanup.js";
import { seededRandom, type Random } from "./random.js";
import { mean, quantileSorted } from "./stats.js";

export const BM25_TARGET_P99_MS = 20;

export interface Bm25BenchOptions {
  docs: number;
  queries: number;
  vocabulary: number;
  limit: number;
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

export interface Bm25BenchResult {
  options: Bm25BenchOptions;
  /** All documents in one write, postings gathered per term (what a bulk import does). */
  fillDocsPerSec: number;
  /** The same write with each document's postings written on their own (the cost before batching). */
  perDocumentDocsPerSec: number;
  /** Writes of 5,000 documents, batched. */
  fill5kDocsPerSec: number;
  timings: Bm25Timing[];
  /** Query timings on the store filled per document (same index, built the other way). */
  unbatchedTimings: Bm25Timing[];
}

const text = { kind: "scalar", name: "String" } as const;
const schema: SchemaDescriptor = {
  nodes: [
    {
      name: "Doc",
      fields: [
        { name: "title", type: text, index: "none", default: null },
        { name: "body", type: text, index: "none", default: null },
      ],
    },
  ],
  vectors: [],
  edges: [],
};

const SYLLABLES = ["ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "pa", "do", "gu", "he", "ji", "by", "qu"];

/** The i-th word of the vocabulary: distinct, pronounceable, lower-case a-z. */
function wordAt(i: number): string {
  let w = "";
  let n = i;
  do {
    w += SYLLABLES[n % SYLLABLES.length];
    n = Math.floor(n / SYLLABLES.length);
  } while (n > 0);
  return w;
}

/** Draws vocabulary ranks with probability ∝ 1/(rank + 1) (inverse CDF, binary search). */
function zipf(random: Random, size: number): () => number {
  const cdf = new Float64Array(size);
  let h = 0;
  for (let i = 0; i < size; i++) cdf[i] = h += 1 / (i + 1);
  return () => {
    const u = random() * h;
    let lo = 0;
    let hi = size - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/** One store filled with the corpus in writes of `batch` documents; docs/s of the fill. */
async function fill(
  store: GraphStore,
  docs: readonly { title: string; body: string }[],
  batch: number,
  perDocument: boolean,
): Promise<number> {
  const t0 = performance.now();
  for (let done = 0; done < docs.length; done += batch) {
    const slice = docs.slice(done, done + batch);
    await store.write((db) => {
      for (const props of slice) {
        db.addNode("Doc", props);
        // A search (of no terms) makes the writer write the gathered postings first: each
        // document's postings are then written on their own, one get and put per term, as
        // before batching (runtime/write/postings-batch.ts).
        if (perDocument) db.searchBM25("Doc", "", 1);
      }
    });
  }
  return docs.length / ((performance.now() - t0) / 1000);
}

export async function benchBm25(options: Bm25BenchOptions, log: (line: string) => void): Promise<Bm25BenchResult> {
  const random = seededRandom(2024);
  const rank = zipf(random, options.vocabulary);
  const words = (n: number): string[] => Array.from({ length: n }, () => wordAt(rank()));
  // Document frequencies of the generated corpus, to report how common the queried terms are.
  const df = new Map<string, number>();
  const docs = Array.from({ length: options.docs }, () => {
    const title = words(4 + Math.floor(random() * 5));
    const body = words(40 + Math.floor(random() * 41));
    for (const w of new Set([...title, ...body])) df.set(w, (df.get(w) ?? 0) + 1);
    return { title: title.join(" "), body: body.join(" ") };
  });
  const queries = makeQueries(options, rank);
  const unbatchedDir = tempDir("strand-bench-bm25-");
  const unbatched = GraphStore.open({ path: unbatchedDir, schema });
  let perDocumentDocsPerSec: number;
  let unbatchedTimings: Bm25Timing[];
  try {
    perDocumentDocsPerSec = await fill(unbatched, docs, options.docs, true);
    log(
      `bm25: ${options.docs.toLocaleString("en-US")} documents in one write, postings per document: ${Math.round(perDocumentDocsPerSec)} docs/s`,
    );
    unbatchedTimings = time(unbatched, options, queries, df);
  } finally {
    await unbatched.close();
  }
  const dir = tempDir("strand-bench-bm25-");
  const store = GraphStore.open({ path: dir, schema });
  try {
    const fillDocsPerSec = await fill(store, docs, options.docs, false);
    log(`bm25: ${options.docs.toLocaleString("en-US")} documents in one write, postings batched: ${Math.round(fillDocsPerSec)} docs/s`);
    const batch5k = tempDir("strand-bench-bm25-");
    const store5k = GraphStore.open({ path: batch5k, schema });
    let fill5kDocsPerSec: number;
    try {
      fill5kDocsPerSec = await fill(store5k, docs, 5_000, false);
    } finally {
      await store5k.close();
    }
    return {
      options,
      fillDocsPerSec,
      perDocumentDocsPerSec,
      fill5kDocsPerSec,
      timings: time(store, options, queries, df),
      unbatchedTimings,
    };
  } finally {
    await store.close();
  }
}

/** The same queries for both stores: `options.queries` of 1 term, then of 3 terms. */
function makeQueries(options: Bm25BenchOptions, rank: () => number): Map<number, string[][]> {
  const out = new Map<number, string[][]>();
  for (const terms of [1, 3])
    out.set(
      terms,
      Array.from({ length: options.queries }, () => Array.from({ length: terms }, () => wordAt(rank()))),
    );
  return out;
}

function time(
  store: GraphStore,
  options: Bm25BenchOptions,
  queriesByTerms: Map<number, string[][]>,
  df: ReadonlyMap<string, number>,
): Bm25Timing[] {
  const timings: Bm25Timing[] = [];
  for (const [terms, queries] of queriesByTerms) {
    const dfShare = queries.flatMap((q) => q.map((term) => (df.get(term) ?? 0) / options.docs));
    for (const q of queries.slice(0, 50)) store.read((db) => db.searchBM25("Doc", q.join(" "), options.limit)); // warm-up
    const ms: number[] = [];
    for (const q of queries) {
      const start = performance.now();
      store.read((db) => db.searchBM25("Doc", q.join(" "), options.limit));
      ms.push(performance.now() - start);
    }
    ms.sort((a, b) => a - b);
    timings.push({
      terms,
      meanMs: mean(ms),
      p50Ms: quantileSorted(ms, 0.5),
      p99Ms: quantileSorted(ms, 0.99),
      meanDfShare: mean(dfShare),
    });
  }
  return timings;
}

export function renderBm25(result: Bm25BenchResult): string {
  const o = result.options;
  const lines = [
    `SearchBM25 in process: ${o.docs.toLocaleString("en-US")} documents (~66 Zipf words each, vocabulary ${o.vocabulary.toLocaleString("en-US")}), limit ${o.limit}, ${o.queries} queries per row`,
    `  AddN with indexing, all documents in one write: ${Math.round(result.fillDocsPerSec).toLocaleString("en-US")} docs/s with postings batched per term, ${Math.round(result.perDocumentDocsPerSec).toLocaleString("en-US")} docs/s written per document (before batching): ${(result.fillDocsPerSec / result.perDocumentDocsPerSec).toFixed(1)}x (target >= 10x)`,
    `  AddN with indexing, writes of 5,000 documents, batched: ${Math.round(result.fill5kDocsPerSec).toLocaleString("en-US")} docs/s`,
    "  index    terms   mean ms   p50 ms   p99 ms   mean df/N   target",
  ];
  const rows = [...result.timings.map((t) => ["batched", t] as const), ...result.unbatchedTimings.map((t) => ["per-doc", t] as const)];
  for (const [built, t] of rows) {
    const verdict = t.terms === 3 ? `p99 <= ${BM25_TARGET_P99_MS} ms: ${t.p99Ms <= BM25_TARGET_P99_MS ? "PASS" : "MISS"}` : "";
    lines.push(
      `  ${built.padEnd(7)}  ${String(t.terms).padStart(5)}   ${t.meanMs.toFixed(2).padStart(7)}   ${t.p50Ms.toFixed(2).padStart(6)}   ${t.p99Ms.toFixed(2).padStart(6)}   ${t.meanDfShare.toFixed(3).padStart(9)}   ${verdict}`,
    );
  }
  return lines.join("\n");
}

function parseArgs(argv: readonly string[]): Bm25BenchOptions {
  const o = { ...DEFAULT_BM25_OPTIONS };
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i]!.replace(/^--/, "");
    const value = Number(argv[i + 1]);
    if (!(key in o) || !Number.isSafeInteger(value) || value < 1)
      throw new Error(`usage: bm25.js [--docs N] [--queries N] [--vocabulary N] [--limit N]`);
    o[key as keyof Bm25BenchOptions] = value;
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
