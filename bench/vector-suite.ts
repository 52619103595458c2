// The vector section of `npm run bench`: the in-process comparison with raw hnswlib-node
// (vector.ts), then, on the same filled directory, SearchV and AddV over HTTP (vector-http.ts).
import { join } from "node:path";
import { GraphStore } from "../runtime/graph-store.js";
import { DEFAULT_VECTOR_OPTIONS } from "../runtime/vector/metric.js";
import type { BenchOptions } from "./options.js";
import { runVectorHttp, type VectorHttpResult } from "./vector-http.js";
import { vectorProjectSchema } from "./vector-project.js";
import { defaultEf, runVectorInProcess, vectorFixture, type VectorInProcessResult } from "./vector.js";

export const VECTOR_DIM = 128;
export const ADD_DIM = 384;
export const K = 10;
/** Explicit breadths measured besides Strand's default, so "equal recall" can be read off a curve. */
export const EXTRA_EFS = [64, 200, 800] as const;

export interface VectorBenchResult {
  inProcess: VectorInProcessResult;
  http: VectorHttpResult | null;
}

export async function runVectorBench(options: BenchOptions, root: string, log: (line: string) => void): Promise<VectorBenchResult> {
  const fixture = vectorFixture(options.seed, options.vectorCount, VECTOR_DIM, options.vectorQueries, K);
  const strandDir = join(root, "vector");
  const store = GraphStore.open({ path: strandDir, schema: vectorProjectSchema() });
  let run: Awaited<ReturnType<typeof runVectorInProcess>>;
  try {
    run = await runVectorInProcess(store, fixture, { searches: options.vectorSearches, efs: EXTRA_EFS, log });
  } finally {
    await store.close(); // writes the index files `strand serve` loads
  }
  if (options.skipVectorHttp) return { inProcess: run.result, http: null };
  const http = await runVectorHttp({
    strandDir,
    workDir: root,
    fixture,
    raw: run.raw,
    ef: defaultEf(DEFAULT_VECTOR_OPTIONS, K, options.vectorCount),
    addDim: ADD_DIM,
    addPool: options.quick ? 500 : 2_000,
    connections: options.connections,
    durationSeconds: options.durationSeconds,
    warmupSeconds: options.warmupSeconds,
    rounds: options.rounds,
    profileDir: options.profileDir,
    seed: options.seed,
    log,
  });
  return { inProcess: run.result, http };
}
