// `npm run bench`: Strand against its floors, side by side in one run (see bench/README.md).
//   1. HTTP point read:  POST /GetItem  vs the floor's /floor/read
//   2. durable writes:   POST /AddItem  vs the floor's /floor/write
//   3. 2-hop traversal in process through GraphStore vs the same gets on raw lmdb
//   4. WHERE-filtered scan and projection in process (generated query code) vs hand-written
//      loops over the same LMDB data
//   5. SearchV in process vs raw hnswlib-node on the same vectors, then SearchV and AddV over
//      HTTP vs a vector floor server (vector-suite.ts)
//      and recall at the default breadth at 20k and 100k vectors, uniform and clustered (vector-recall.ts)
//   6. Opening a store of vectors after kill -9 vs after a clean stop (vector-restart.ts)
//   7. SearchBM25 p50/p99 in process on a Zipf corpus, and indexing with postings batched or not (bm25.ts)
//   8. startup of `strand serve`, cold and warm, for the example and a 250-query project (startup.ts)
//   9. import vs a raw lmdb loop, export, FOR-loop edge ingest over HTTP (data.ts)
//  10. bytes on disk per node, edge and vector, and RSS under 2-hop load (storage.ts)
//  11. filtered SearchV (1% passing, with and without an INDEX) vs unfiltered (vector-filtered.ts)
//  12. search_nodes of strand memory vs the reference MCP memory server, 10k entities (memory-search.ts)
//  13. tenants: RSS with every tenant idle, the first request to an idle one, an open one vs the default (tenants.ts)
//  14. HTTP point read, 1-hop, 2-hop and write vs a Hono + better-sqlite3 server, 1 and 32 connections (peer-http.ts)
// Both HTTP servers run in their own child processes and the load in a third (load.ts); the
// orchestrator only fills data, starts and stops them, and reports.
import { type IdempotencyResult, renderIdempotency, runIdempotencyBench } from "./idempotency.js";
import { type AdHocResult, renderAdHoc, runAdHocBench } from "./adhoc.js";
import { renderTenants, runTenantsBench, type TenantsResult } from "./tenants.js";
import { renderPeerHttp, runPeerHttp, type PeerHttpResult } from "./peer-http.js";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { GraphStore } from "../runtime/graph-store.js";
import type { SchemaDescriptor } from "../core/schema.js";
import { cleanup, installCleanupHandlers, tempDir } from "./cleanup.js";
import { fillItems } from "./fill.js";
import { floorRecordId } from "./floor-server.js";
import { compareRoutes, type Comparison } from "./http-bench.js";
import { OptionsError, parseOptions, USAGE, type BenchOptions } from "./options.js";
import { benchSchema } from "./project.js";
import { randomIndex, seededRandom } from "./random.js";
import { emptyBenchReport, renderJson, renderTable, type BenchReport } from "./report.js";
import { startFloor, startStrand, type ChildServer } from "./servers.js";
import { runTraversal } from "./traversal.js";
import { runScan } from "./scan.js";
import { runIndexWhere } from "./index-where.js";
import { benchCompile, renderCompile, type CompileTiming } from "./compile-speed.js";
import { runVectorBench } from "./vector-suite.js";
import { benchBm25, DEFAULT_BM25_OPTIONS } from "./bm25.js";
import { benchVectorRestart } from "./vector-restart.js";
import { benchStartup } from "./startup.js";
import { renderData, runDataBench, type DataBenchResult } from "./data.js";
import { renderStorage, runStorageBench, type StorageBenchResult } from "./storage.js";
import { renderRecall, runVectorRecall, type RecallRow } from "./vector-recall.js";
import { type FilteredRow, renderFiltered, runFilteredSearch } from "./vector-filtered.js";
import { type MemorySearchRow, renderMemorySearch, runMemorySearch } from "./memory-search.js";
import { renderHealthStall, runHealthStall, type StallResult } from "./health-stall.js";
import { renderReplication, runReplicationBench, type ReplicationBenchResult } from "./replication.js";

const started = performance.now();
const log = (line: string): void => {
  process.stderr.write(`[bench ${((performance.now() - started) / 1000).toFixed(0).padStart(4)}s] ${line}\n`);
};

async function post(url: string, body: unknown): Promise<{ status: number; json: unknown }> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as unknown };
}

/** One request per route before any load: a wrong route or body would otherwise measure 404s. */
async function sanityCheck(url: string, body: unknown, mustContain: string): Promise<void> {
  const { status, json } = await post(url, body);
  const text = JSON.stringify(json);
  if (status !== 200 || !text.includes(mustContain)) {
    throw new Error(`sanity check of ${url} failed: ${status} ${text.slice(0, 300)}`);
  }
}

async function benchHttp(options: BenchOptions, schema: SchemaDescriptor, root: string): Promise<Comparison[]> {
  const strandDir = join(root, "strand");
  const floorDir = join(root, "floor");
  mkdirSync(strandDir);
  mkdirSync(floorDir);

  // The floor fills itself in its own process while this one fills Strand's directory.
  const floorStarting = startFloor(floorDir, options.records);
  floorStarting.catch(() => undefined); // awaited below; keeps an early failure from being unhandled
  const t0 = performance.now();
  const store = GraphStore.open({ path: strandDir, schema });
  let ids: string[];
  try {
    ids = await fillItems(store, options.records);
  } finally {
    await store.close();
  }
  log(`filled ${options.records.toLocaleString("en-US")} items through GraphStore in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const servers: ChildServer[] = [];
  try {
    const floor = await floorStarting;
    servers.push(floor);
    const strand = await startStrand(strandDir, options.profileDir);
    servers.push(strand);
    log(`servers up: strand ${strand.url} (pid ${strand.child.pid}), floor ${floor.url} (pid ${floor.child.pid})`);

    await sanityCheck(`${strand.url}/GetItem`, { id: ids[0] }, ids[0]!);
    await sanityCheck(`${floor.url}/floor/read`, { id: floorRecordId(0) }, floorRecordId(0));
    await sanityCheck(`${strand.url}/AddItem`, { name: "sanity", n: -1 }, "sanity");
    await sanityCheck(`${floor.url}/floor/write`, { name: "sanity" }, "sanity");

    const random = seededRandom(options.seed);
    let written = 0;
    return await compareRoutes(
      [
        {
          key: "read",
          title: "HTTP point read",
          strand: {
            url: `${strand.url}/GetItem`,
            pid: strand.child.pid,
            bodies: () => JSON.stringify({ id: ids[randomIndex(random, ids.length)] }),
          },
          floor: {
            url: `${floor.url}/floor/read`,
            pid: floor.child.pid,
            bodies: () => JSON.stringify({ id: floorRecordId(randomIndex(random, options.records)) }),
          },
        },
        {
          key: "write",
          title: "HTTP durable write",
          strand: {
            url: `${strand.url}/AddItem`,
            pid: strand.child.pid,
            bodies: () => JSON.stringify({ name: `written ${written}`, n: written++ }),
          },
          floor: { url: `${floor.url}/floor/write`, pid: floor.child.pid, bodies: () => JSON.stringify({ name: `written ${written++}` }) },
        },
      ],
      {
        connections: options.connections,
        durationSeconds: options.durationSeconds,
        warmupSeconds: options.warmupSeconds,
        rounds: options.rounds,
        log,
      },
    );
  } catch (error) {
    for (const server of servers) process.stderr.write(`--- output of ${server.url} (pid ${server.child.pid}):\n${server.output()}\n`);
    throw error;
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}

async function main(): Promise<number> {
  let options: BenchOptions | null;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof OptionsError)) throw error;
    process.stderr.write(`bench: ${error.message}\n\n${USAGE}`);
    return 2;
  }
  if (options === null) {
    process.stdout.write(USAGE);
    return 0;
  }
  installCleanupHandlers();
  const schema = benchSchema();
  const root = tempDir("strand-bench-");
  const report: BenchReport = emptyBenchReport();
  let compile: CompileTiming[] = [];
  let data: DataBenchResult | null = null;
  let storage: StorageBenchResult | null = null;
  let recall: RecallRow[] | null = null;
  let filtered: FilteredRow[] | null = null;
  const filteredCount = options.quick ? 20_000 : 100_000;
  let memorySearch: MemorySearchRow[] | null = null;
  const memoryEntities = options.quick ? 2_000 : 10_000;
  let health: StallResult | null = null;
  let replication: ReplicationBenchResult | null = null;
  let idempotency: IdempotencyResult | null = null;
  let adhoc: AdHocResult | null = null;
  let tenants: TenantsResult | null = null;
  let peer: PeerHttpResult | null = null;
  try {
    compile = benchCompile(options.quick ? [1] : [1, 10]);
    if (!options.skipHttp) {
      const [read, write] = await benchHttp(options, schema, root);
      report.read = read ?? null;
      report.write = write ?? null;
    }
    if (!options.skipPeer) {
      const dir = join(root, "peer");
      mkdirSync(dir);
      peer = await runPeerHttp({
        root: dir,
        schema,
        nodes: options.peerNodes,
        fanout: options.fanout,
        connections: options.peerConnections,
        durationSeconds: options.durationSeconds,
        warmupSeconds: options.warmupSeconds,
        rounds: options.rounds,
        seed: options.seed,
        log,
      });
    }
    if (!options.skipTraversal) {
      const dir = join(root, "graph");
      mkdirSync(dir);
      report.traversal = await runTraversal({
        dir,
        schema,
        nodes: options.graphNodes,
        fanout: options.fanout,
        samples: options.traversalSamples,
        warmup: options.traversalWarmup,
        seed: options.seed,
        log,
      });
    }
    if (!options.skipScan) {
      report.scan = await runScan({
        dir: root,
        nodes: options.scanNodes,
        knows: 3,
        samples: options.scanSamples,
        warmup: options.scanWarmup,
        seed: options.seed,
        log,
      });
      report.indexWhere = await runIndexWhere({
        dir: root,
        nodes: options.quick ? 10_000 : 50_000,
        samples: options.scanSamples,
        warmup: options.scanWarmup,
        seed: options.seed,
        log,
      });
    }
    if (!options.skipVector) report.vector = await runVectorBench(options, root, log);
    if (!options.skipRecall) {
      const o = {
        root,
        counts: options.recallCounts,
        queries: options.vectorQueries,
        searches: options.vectorSearches,
        seed: options.seed,
        log,
      };
      recall = await runVectorRecall(o);
    }
    if (!options.skipFiltered) {
      filtered = await runFilteredSearch({ root, count: filteredCount, queries: options.quick ? 50 : 200, seed: options.seed, log });
    }
    if (!options.skipMemorySearch) {
      memorySearch = await runMemorySearch({ entities: memoryEntities, queries: options.quick ? 20 : 100, seed: options.seed, log });
    }
    if (!options.skipRestart) {
      const o = { count: options.restartVectors, dim: 128, writes: options.restartWrites, seed: options.seed };
      report.restart = await benchVectorRestart(o, log);
    }
    if (!options.skipBm25) {
      report.bm25 = await benchBm25({ ...DEFAULT_BM25_OPTIONS, docs: options.bm25Docs, queries: options.bm25Queries }, log);
    }
    if (!options.skipStartup) {
      report.startup = await benchStartup({ root, runs: options.startupRuns, baselineCli: options.startupBaseline, log });
    }
    if (!options.skipData) {
      const dir = join(root, "data");
      mkdirSync(dir);
      data = await runDataBench({
        root: dir,
        nodes: options.dataNodes,
        degree: 10,
        forBatch: 1000,
        forEdges: options.forEdges,
        forInFlight: options.forInFlight,
        baselines: options.dataBaselines,
        vectors: options.dataVectors,
        seed: options.seed,
        log,
      });
    }
    if (!options.skipStorage) {
      const dir = join(root, "storage");
      mkdirSync(dir);
      const vectors = options.quick ? 2_000 : 20_000;
      storage = await runStorageBench({
        root: dir,
        nodes: options.storageNodes,
        degree: 10,
        vectors,
        loadTraversals: options.quick ? 3_000 : 30_000,
        seed: options.seed,
        log,
      });
    }
    if (!options.skipHealth) health = await runHealthStall({ rounds: options.quick ? 1 : 3, log });
    if (!options.skipReplication) {
      const dir = join(root, "replication");
      mkdirSync(dir);
      const { quick, rounds, durationSeconds, connections } = options;
      replication = await runReplicationBench({ root: dir, schema, writes: quick ? 200 : 2000, rounds, durationSeconds, connections, log });
    }
    if (!options.skipIdempotency) idempotency = await runIdempotencyBench({ calls: options.quick ? 300 : 2000, root, log });
    if (!options.skipAdhoc) adhoc = await runAdHocBench({ calls: options.quick ? 300 : 2000, root, log });
    if (!options.skipTenants)
      tenants = await runTenantsBench({
        tenants: options.tenants,
        calls: options.quick ? 300 : 2000,
        settleSeconds: options.quick ? 20 : 60,
        root,
        log,
      });
  } finally {
    await cleanup();
  }
  log(`done in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  const json = (name: string, value: unknown): string | null => (value === null ? null : `BENCH_${name}_JSON ${JSON.stringify(value)}`);
  const sections = [
    renderTable(report, options),
    peer === null ? null : renderPeerHttp(peer),
    renderCompile(compile),
    data === null ? null : renderData(data),
    recall === null ? null : renderRecall(recall),
    filtered === null ? null : renderFiltered(filtered, filteredCount),
    memorySearch === null ? null : renderMemorySearch(memorySearch, memoryEntities),
    health === null ? null : renderHealthStall(health),
    storage === null ? null : renderStorage(storage),
    replication === null ? null : renderReplication(replication),
    idempotency === null ? null : renderIdempotency(idempotency),
    adhoc === null ? null : renderAdHoc(adhoc),
    tenants === null ? null : renderTenants(tenants),
    renderJson(report, options),
    json("COMPILE", compile),
    json("DATA", data),
    json("RECALL", recall),
    json("FILTERED_SEARCH", filtered),
    json("MEMORY_SEARCH", memorySearch),
    json("HEALTH_STALL", health),
    json("STORAGE", storage),
    json("REPLICATION", replication),
    json("IDEMPOTENCY", idempotency),
    json("ADHOC", adhoc),
    json("TENANTS", tenants),
    json("PEER_HTTP", peer),
  ];
  process.stdout.write(`\n${sections.filter((s) => s !== null).join("\n")}\n`);
  const invalid = [
    report.read,
    report.write,
    report.vector?.http?.search ?? null,
    report.vector?.http?.add ?? null,
    ...(peer?.runs.flatMap((r) => r.comparisons) ?? []),
  ].some((c) => c !== null && !c.valid);
  if (invalid) process.stderr.write("bench: some runs had connection errors or non-2xx responses; their figures are not valid\n");
  return invalid ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  async (error: unknown) => {
    process.stderr.write(`bench: failed\n${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    await cleanup();
    process.exitCode = 1;
  },
);
