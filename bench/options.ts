// Command-line flags of `npm run bench` (bench/run.ts). `--quick` picks small sizes and short
// runs for a smoke test; explicit flags override it.
import { resolve } from "node:path";
import { parseArgs } from "node:util";

export interface BenchOptions {
  /** Seconds of each measured load run. */
  durationSeconds: number;
  /** Seconds of the unmeasured warm-up run per route and server. */
  warmupSeconds: number;
  /** Measured rounds; each round runs every route on both servers, alternating which goes first. */
  rounds: number;
  /** Records pre-filled into both servers for the point reads. */
  records: number;
  connections: number;
  /** Nodes of the traversal graph; each gets `fanout` out-edges. */
  graphNodes: number;
  fanout: number;
  /** Timed 2-hop samples (after `traversalWarmup` untimed ones). */
  traversalSamples: number;
  traversalWarmup: number;
  /** Person nodes of the in-process scan benchmark (3 Knows out-edges each). */
  scanNodes: number;
  /** Timed calls per scan query and side (after `scanWarmup` untimed ones). */
  scanSamples: number;
  scanWarmup: number;
  /** Vectors of the SearchV comparison with raw hnswlib (dim 128, uniform unit vectors). */
  vectorCount: number;
  /** Query vectors: recall@10 is over all of them, timed searches cycle through them. */
  vectorQueries: number;
  /** Timed searches per side and ef. */
  vectorSearches: number;
  /** Documents of the SearchBM25 benchmark (bench/bm25.ts). */
  bm25Docs: number;
  bm25Queries: number;
  skipHttp: boolean;
  /** Skip Strand vs the Hono + better-sqlite3 server (peer-http.ts). */
  skipPeer: boolean;
  /** Nodes of that comparison's graph (10 out-edges each). */
  peerNodes: number;
  /** Its connection counts, one comparison each (1: requests one at a time). */
  peerConnections: readonly number[];
  skipTraversal: boolean;
  skipScan: boolean;
  skipVector: boolean;
  /** Run the vector comparison in process only (no SearchV/AddV over HTTP). */
  skipVectorHttp: boolean;
  skipBm25: boolean;
  /** Vectors of the restart-after-kill -9 benchmark (bench/vector-restart.ts). */
  restartVectors: number;
  /** AddV writes acknowledged between the checkpoint and the kill. */
  restartWrites: number;
  skipRestart: boolean;
  /** Index sizes of the recall run (uniform and clustered vectors each, default settings). */
  recallCounts: number[];
  skipRecall: boolean;
  skipStartup: boolean;
  /** Starts per project and variant (cold, warm) in the startup benchmark. */
  startupRuns: number;
  /** Another build's dist/cli/strand.js, measured beside this one in the startup benchmark. */
  startupBaseline: string | null;
  /** Nodes of the import/export benchmark (10 edges each; bench/data.ts); 100000 is the size. */
  dataNodes: number;
  /** Edges the FOR-loop ingest over HTTP writes, 1000 per request. */
  forEdges: number;
  /** Requests in flight in the FOR-loop ingest, one run per value (1: one request at a time). */
  forInFlight: readonly number[];
  /** Another build's dist/cli/strand.js, measured beside this one in the FOR-loop ingest. */
  dataBaselines: readonly string[];
  /** Vectors (dimension 128) of the vector import against raw hnswlib-node; 100000 is the size. */
  dataVectors: number;
  skipData: boolean;
  /** Nodes of the storage benchmark (10 edges each; bench/storage.ts); 100000 = the 1M edges. */
  storageNodes: number;
  skipStorage: boolean;
  /** Skip /health latency while one worst-case request runs (health-stall.ts). */
  skipHealth: boolean;
  /** Replication (bench/replication.ts): the commit log's cost, a leader with 0 and 1 replica, lag. */
  skipReplication: boolean;
  skipIdempotency: boolean;
  skipAdhoc: boolean;
  skipTenants: boolean;
  /** Tenants of 100 records each in the tenants run. */
  tenants: number;
  skipFiltered: boolean;
  skipMemorySearch: boolean;
  quick: boolean;
  /** Seed of the PRNG behind the graph's edges and every random choice. */
  seed: number;
  /** When set, `strand serve` runs under `node --cpu-prof` and writes its profile here on exit. */
  profileDir: string | null;
}

export const USAGE = `usage: node dist/bench/run.js [flags]
  --duration <s>      seconds per measured load run (default 10)
  --rounds <n>        measured rounds, alternating which server goes first (default 2)
  --records <n>       records pre-filled into both servers (default 100000)
  --connections <n>   concurrent HTTP connections (default 32)
  --graph-nodes <n>   nodes of the traversal graph, 10 out-edges each (default 100000)
  --samples <n>       timed 2-hop samples (default 20000)
  --scan-nodes <n>    people scanned by the WHERE-filtered scan and projection (default 100000)
  --scan-samples <n>  timed calls per scan query and side (default 20)
  --vector-count <n>  vectors searched by SearchV vs raw hnswlib-node, dim 128 (default 20000)
  --bm25-docs <n>     documents of the SearchBM25 corpus (default 100000)
  --restart-vectors <n>  vectors of the restart-after-kill -9 run, dim 128 (default 100000)
  --restart-writes <n>   AddV writes between the last checkpoint and the kill (default 1000)
  --data-nodes <n>    nodes imported and exported with 10 edges each (default 20000; 100000 = the target size)
  --for-edges <n>     edges written by the FOR-loop ingest over HTTP (default 100000)
  --for-in-flight <n,n>  requests in flight in the FOR-loop ingest, one run per value (default 1,4)
  --data-baseline <cli>[,<cli>..]  also run the FOR-loop ingest with these strand.js builds (e.g. main, a commit before issue 12), side by side
  --data-vectors <n>  vectors imported (dim 128, HNSW built once) vs raw hnswlib-node (default 20000; 100000 = the target size)
  --seed <n>          PRNG seed (default 42)
  --profile <dir>     run strand serve under --cpu-prof, profile written to <dir>
  --skip-http         skip the HTTP read/write comparisons
  --skip-peer         skip HTTP read, 1-hop, 2-hop and write vs a Hono + better-sqlite3 server
  --peer-nodes <n>    nodes of that comparison's graph, 10 out-edges each (default 100000)
  --peer-connections <n,n>  its connection counts, one comparison each (default 1,32)
  --skip-traversal    skip the in-process 2-hop traversal
  --skip-scan         skip the in-process WHERE scan and projection
  --skip-vector       skip SearchV/AddV (in process and over HTTP)
  --skip-vector-http  run the SearchV comparison in process only
  --skip-bm25         skip SearchBM25
  --skip-restart      skip the restart-after-kill -9 run
  --recall-counts <n,n>  index sizes of the default-breadth recall run, uniform and clustered (default 20000,100000)
  --skip-recall       skip the default-breadth recall run
  --skip-startup      skip the startup times (22-query example, generated 250-query project)
  --startup-runs <n>  starts per project, cold and warm (default 5)
  --startup-baseline <cli>  also time this strand.js (e.g. a build of the commit before a change)
  --skip-data         skip import, export and FOR-loop ingest
  --storage-nodes <n> nodes of the storage bench, 10 edges each (default 100000)
  --skip-storage      skip bytes per node/edge/vector and RSS under 2-hop load
  --skip-health       skip /health latency while one worst-case request runs
  --skip-replication  skip the commit log's cost, the leader with 0, 1 async and 1 sync replica, replica lag
  --skip-idempotency  skip idempotent writes over HTTP (keyed write vs plain, replay vs point read)
  --skip-adhoc        skip ad-hoc queries over HTTP (POST /query: cached read vs named, first compile)
  --skip-tenants      skip tenants (RSS with all idle, first request to an idle one, an open one vs the default)
  --tenants <n>       tenants of 100 records each written for that run (default 1000; 10000 = the target)
  --skip-filtered     skip filtered SearchV (1% passing, with and without an INDEX) vs unfiltered
  --skip-memory-search  skip search_nodes of strand memory vs the reference MCP memory server
  --quick             smoke run: short runs, small data, small graph
`;

export class OptionsError extends Error {}

const FLAGS = {
  duration: { type: "string" },
  rounds: { type: "string" },
  records: { type: "string" },
  connections: { type: "string" },
  "graph-nodes": { type: "string" },
  samples: { type: "string" },
  "scan-nodes": { type: "string" },
  "scan-samples": { type: "string" },
  "vector-count": { type: "string" },
  "bm25-docs": { type: "string" },
  "data-nodes": { type: "string" },
  "for-edges": { type: "string" },
  "for-in-flight": { type: "string" },
  "data-baseline": { type: "string" },
  "data-vectors": { type: "string" },
  seed: { type: "string" },
  profile: { type: "string" },
  "skip-http": { type: "boolean" },
  "skip-peer": { type: "boolean" },
  "peer-nodes": { type: "string" },
  "peer-connections": { type: "string" },
  "skip-traversal": { type: "boolean" },
  "skip-scan": { type: "boolean" },
  "skip-vector": { type: "boolean" },
  "skip-vector-http": { type: "boolean" },
  "skip-bm25": { type: "boolean" },
  "skip-restart": { type: "boolean" },
  "recall-counts": { type: "string" },
  "skip-recall": { type: "boolean" },
  "restart-vectors": { type: "string" },
  "restart-writes": { type: "string" },
  "skip-startup": { type: "boolean" },
  "startup-runs": { type: "string" },
  "startup-baseline": { type: "string" },
  "skip-data": { type: "boolean" },
  "storage-nodes": { type: "string" },
  "skip-storage": { type: "boolean" },
  "skip-health": { type: "boolean" },
  "skip-idempotency": { type: "boolean" },
  "skip-adhoc": { type: "boolean" },
  "skip-tenants": { type: "boolean" },
  tenants: { type: "string" },
  "skip-filtered": { type: "boolean" },
  "skip-memory-search": { type: "boolean" },
  "skip-replication": { type: "boolean" },
  quick: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

function positive(flag: string, value: string | undefined, fallback: number, integer = true): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n))) {
    throw new OptionsError(`--${flag} must be a positive ${integer ? "integer" : "number"}, got "${value}"`);
  }
  return n;
}

/** Parsed flags, or null when --help was asked for. */
export function parseOptions(argv: readonly string[]): BenchOptions | null {
  let values: { [K in keyof typeof FLAGS]?: (typeof FLAGS)[K]["type"] extends "boolean" ? boolean : string };
  try {
    values = parseArgs({ args: [...argv], options: FLAGS, allowPositionals: false, strict: true }).values;
  } catch (error) {
    throw new OptionsError((error as Error).message);
  }
  if (values.help === true) return null;
  const quick = values.quick === true;
  const durationSeconds = positive("duration", values.duration, quick ? 2 : 10, false);
  return {
    durationSeconds,
    warmupSeconds: quick ? 1 : Math.min(3, durationSeconds),
    rounds: positive("rounds", values.rounds, 2),
    records: positive("records", values.records, quick ? 10_000 : 100_000),
    connections: positive("connections", values.connections, 32),
    graphNodes: positive("graph-nodes", values["graph-nodes"], quick ? 10_000 : 100_000),
    fanout: 10,
    traversalSamples: positive("samples", values.samples, quick ? 2_000 : 20_000),
    traversalWarmup: quick ? 500 : 3_000,
    scanNodes: positive("scan-nodes", values["scan-nodes"], quick ? 10_000 : 100_000),
    scanSamples: positive("scan-samples", values["scan-samples"], quick ? 10 : 20),
    scanWarmup: quick ? 2 : 3,
    vectorCount: positive("vector-count", values["vector-count"], quick ? 6_000 : 20_000),
    vectorQueries: quick ? 100 : 500,
    vectorSearches: quick ? 500 : 3_000,
    bm25Docs: positive("bm25-docs", values["bm25-docs"], quick ? 10_000 : 100_000),
    bm25Queries: quick ? 200 : 1_000,
    skipHttp: values["skip-http"] === true,
    skipPeer: values["skip-peer"] === true,
    peerNodes: positive("peer-nodes", values["peer-nodes"], quick ? 10_000 : 100_000),
    peerConnections: (values["peer-connections"] ?? "1,32").split(",").map((v) => positive("peer-connections", v, 1)),
    skipTraversal: values["skip-traversal"] === true,
    skipScan: values["skip-scan"] === true,
    skipVector: values["skip-vector"] === true,
    skipVectorHttp: values["skip-vector-http"] === true,
    skipBm25: values["skip-bm25"] === true,
    restartVectors: positive("restart-vectors", values["restart-vectors"], quick ? 6_000 : 100_000),
    restartWrites: positive("restart-writes", values["restart-writes"], quick ? 200 : 1_000),
    skipRestart: values["skip-restart"] === true,
    recallCounts: (values["recall-counts"] ?? (quick ? "6000" : "20000,100000")).split(",").map((v) => positive("recall-counts", v, 0)),
    skipRecall: values["skip-recall"] === true,
    skipStartup: values["skip-startup"] === true,
    startupRuns: positive("startup-runs", values["startup-runs"], quick ? 2 : 5),
    startupBaseline:
      values["startup-baseline"] === undefined || values["startup-baseline"] === "" ? null : resolve(values["startup-baseline"]),
    dataNodes: positive("data-nodes", values["data-nodes"], quick ? 5_000 : 20_000),
    forEdges: positive("for-edges", values["for-edges"], quick ? 20_000 : 100_000),
    forInFlight: (values["for-in-flight"] ?? "1,4").split(",").map((v) => positive("for-in-flight", v, 1)),
    dataBaselines: (values["data-baseline"] ?? process.env.STRAND_BENCH_CLI ?? "")
      .split(",")
      .filter((cli) => cli !== "")
      .map((cli) => resolve(cli)),
    dataVectors: positive("data-vectors", values["data-vectors"], quick ? 2_000 : 20_000),
    skipData: values["skip-data"] === true,
    storageNodes: positive("storage-nodes", values["storage-nodes"], quick ? 10_000 : 100_000),
    skipStorage: values["skip-storage"] === true,
    skipHealth: values["skip-health"] === true,
    skipReplication: values["skip-replication"] === true,
    skipIdempotency: values["skip-idempotency"] === true,
    skipAdhoc: values["skip-adhoc"] === true,
    skipTenants: values["skip-tenants"] === true,
    tenants: positive("tenants", values.tenants, quick ? 100 : 1000),
    skipFiltered: values["skip-filtered"] === true,
    skipMemorySearch: values["skip-memory-search"] === true,
    quick,
    seed: positive("seed", values.seed, 42),
    profileDir: values.profile === undefined || values.profile === "" ? null : resolve(values.profile),
  };
}
