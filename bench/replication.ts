// Replication (issue 15), side by side in one run (bench/README.md, "Replication"):
//   1. the commit log's cost on a durable write, in process: two stores of bench/project, one
//      writing the log (the default) and one with `commitLog: false`, in alternating blocks of
//      single awaited writes (latency) and of 64 writes in flight (throughput);
//   2. a leader over HTTP (`POST /AddItem` from a separate load process) with 0 and with 1 async
//      replica (`strand serve --follow`) following it, and a failover group's leader with 1 sync
//      replica (`--etcd … --sync-replicas 1`, one local etcd member), in rounds whose order
//      rotates: the async replica is SIGSTOPped for the 0-replica and the sync runs and let go
//      (and caught up) for the 1-async runs; each figure is a ratio to the 0-replica runs; the
//      group's leader also takes the same writes into a tenant (`/t/bench/AddItem`), whose writes
//      its sync replica acknowledges by the tenant feed (server/cluster/in-sync.ts);
//   3. replica lag during those loaded runs: every 100 ms a probe write on the leader, then a read
//      on the replica with Strand-After set to the probe's Strand-Commit; lag is the time from the
//      leader's answer to the replica's.
// On one machine the replica competes with the leader and the load for the same cores: this shows
// the overhead of replicating, not read scale.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { join } from "node:path";
import type { SchemaDescriptor } from "../core/schema.js";
import { GraphStore } from "../runtime/graph-store.js";
import { stopChild, trackChild } from "./cleanup.js";
import { itemProps } from "./fill.js";
import { randomIndex, seededRandom } from "./random.js";
import { startBenchEtcd } from "./etcd.js";
import { runLoad, type LoadResult } from "./load.js";
import { BENCH_PROJECT, captureOutput, CLI, REPO_ROOT, waitFor } from "./servers.js";
import { geomean, median, quantileSorted } from "./stats.js";

export interface ReplicationBenchOptions {
  root: string;
  schema: SchemaDescriptor;
  /** Writes per side and block kind in process. */
  writes: number;
  rounds: number;
  durationSeconds: number;
  connections: number;
  log: (line: string) => void;
}

interface Latency {
  meanUs: number;
  p50Us: number;
  p99Us: number;
}

export interface ReplicationBenchResult {
  logCost: {
    withLog: Latency;
    without: Latency;
    latencyRatio: number;
    throughputWith: number;
    throughputWithout: number;
    throughputRatio: number;
    /** Writes of 1,000 edges with random ends among 5,000 nodes (issue 32 item 2). */
    edges: EdgeWritesCost;
  };
  http: {
    single: LoadResult[];
    replicated: LoadResult[];
    throughputRatio: number;
    p99Single: number;
    p99Replicated: number;
    /** Geometric mean of the per-round p99 ratios, 1 async / 0 replicas. */
    p99Ratio: number;
  };
  /** The group leader with 1 sync replica; null when no etcd binary is installed. */
  sync: SyncRuns | null;
  /** The same leader, the writes going to a tenant; null when no etcd binary is installed. */
  syncTenant: SyncRuns | null;
  lag: { samples: number; p50Ms: number; p99Ms: number; maxMs: number };
}

/** The log's cost on writes of EDGE_BATCH edges each, in process CPU per write. */
export interface EdgeWritesCost {
  writes: number;
  cpuWithMs: number;
  cpuWithoutMs: number;
  /** 1 - without / with: the part of a write's CPU the log takes (target ≤ 0.1). */
  share: number;
  /** The log entries' bytes per edge (a follower reading: every write recorded). */
  logBytesPerEdge: number;
}

export const EDGE_BATCH = 1000;
const EDGE_NODES = 5000;
export const LOG_SHARE_TARGET = 0.1;

interface SyncRuns {
  runs: LoadResult[];
  throughputRatio: number;
  p99: number;
  p99Ratio: number;
}

const KEY = "bench-replication-key";

export async function runReplicationBench(options: ReplicationBenchOptions): Promise<ReplicationBenchResult> {
  const logCost = await benchLogCost(options);
  options.log(
    `commit log: write p50 ${fmt(logCost.withLog.p50Us)} vs ${fmt(logCost.without.p50Us)} µs without, mean ratio ${logCost.latencyRatio.toFixed(3)}; 64 in flight ${logCost.throughputRatio.toFixed(3)}x the throughput`,
  );
  const { http, lag, sync, syncTenant } = await benchReplicatedHttp(options);
  return { logCost, http, lag, sync, syncTenant };
}

async function benchLogCost(options: ReplicationBenchOptions): Promise<ReplicationBenchResult["logCost"]> {
  const open = (name: string, commitLog: boolean): GraphStore => {
    const path = join(options.root, `log-cost-${name}`);
    fs.mkdirSync(path);
    return GraphStore.open({ path, schema: options.schema, commitLog });
  };
  const sides = [
    { store: open("with", true), single: [] as number[], flight: [] as number[] },
    { store: open("without", false), single: [] as number[], flight: [] as number[] },
  ];
  try {
    const block = 100;
    let n = 0;
    for (let done = 0; done < options.writes; done += block) {
      // Alternate which side goes first, so drift over the run hits both alike.
      const order = (done / block) % 2 === 0 ? sides : [...sides].reverse();
      for (const side of order) {
        for (let i = 0; i < block; i++) {
          const t0 = process.hrtime.bigint();
          await side.store.write((db) => db.addNode("Item", itemProps(n++)));
          side.single.push(Number(process.hrtime.bigint() - t0) / 1000);
        }
        const t0 = process.hrtime.bigint();
        await Promise.all(Array.from({ length: 64 }, () => side.store.write((db) => db.addNode("Item", itemProps(n++)))));
        side.flight.push(Number(process.hrtime.bigint() - t0) / 1000);
      }
    }
  } finally {
    for (const side of sides) await side.store.close();
  }
  const edges = await benchEdgeWrites(options);
  const [withLog, without] = sides.map((s) => latency(s.single)) as [Latency, Latency];
  const [flightWith, flightWithout] = sides.map((s) => (64 * 1e6) / (s.flight.reduce((a, b) => a + b, 0) / s.flight.length)) as [
    number,
    number,
  ];
  return {
    withLog,
    without,
    latencyRatio: withLog.meanUs / without.meanUs,
    throughputWith: flightWith,
    throughputWithout: flightWithout,
    throughputRatio: flightWith / flightWithout,
    edges,
  };
}

/**
 * Writes of EDGE_BATCH edges with random ends (each touches ~1,000 out lists), on a store that
 * records its log and one without, in alternating blocks; the process's CPU per write (lmdb's
 * flushing threads included, alike on both sides), the first block of each side left out.
 */
export async function benchEdgeWrites(options: ReplicationBenchOptions): Promise<EdgeWritesCost> {
  const sides = [true, false].map((commitLog) => {
    const path = join(options.root, `log-cost-edges-${commitLog}`);
    fs.mkdirSync(path);
    return { store: GraphStore.open({ path, schema: options.schema, commitLog }), cpuUs: 0, ids: [] as string[] };
  });
  const random = seededRandom(15);
  const blocks = Math.max(4, Math.round(options.writes / 100));
  const perBlock = 5;
  let logBytes = 0;
  try {
    for (const side of sides)
      side.ids = await side.store.write((db) => Array.from({ length: EDGE_NODES }, (_, i) => db.addNode("Item", itemProps(i)).id));
    const [recorded] = sides;
    for (let block = 0; block < blocks; block++) {
      for (const side of block % 2 === 0 ? sides : [...sides].reverse()) {
        const before = side.store.log.committed;
        const cpu = process.cpuUsage();
        for (let w = 0; w < perBlock; w++) {
          await side.store.write((db) => {
            for (let e = 0; e < EDGE_BATCH; e++)
              db.addEdge("Link", {}, side.ids[randomIndex(random, EDGE_NODES)]!, side.ids[randomIndex(random, EDGE_NODES)]!);
          });
        }
        const used = process.cpuUsage(cpu);
        if (block > 1) side.cpuUs += used.user + used.system;
        if (side === recorded && block > 1) {
          const read = side.store.log.read(before, perBlock, 1 << 30);
          if (read !== "gone") for (const frame of read.frames) logBytes += frame.length;
        }
      }
    }
  } finally {
    for (const side of sides) await side.store.close();
  }
  const writes = (blocks - 2) * perBlock;
  const [cpuWith, cpuWithout] = sides.map((s) => s.cpuUs / writes / 1000) as [number, number];
  return {
    writes,
    cpuWithMs: cpuWith,
    cpuWithoutMs: cpuWithout,
    share: 1 - cpuWithout / cpuWith,
    logBytesPerEdge: logBytes / (writes * EDGE_BATCH),
  };
}

type Mode = "single" | "async" | "sync" | "sync-tenant";
const MODES: readonly Mode[] = ["single", "async", "sync", "sync-tenant"];
const LABELS: Record<Mode, string> = {
  single: "leader with 0 replicas",
  async: "leader with 1 async replica",
  sync: "group leader with 1 sync replica",
  "sync-tenant": "group leader with 1 sync replica, writes to a tenant",
};

async function benchReplicatedHttp(
  options: ReplicationBenchOptions,
): Promise<Pick<ReplicationBenchResult, "http" | "lag" | "sync" | "syncTenant">> {
  const leader = await serve(join(options.root, "leader"), []);
  const replica = await serve(join(options.root, "replica"), ["--follow", leader.url]);
  const group = await syncGroup(options);
  const runs: Record<Mode, LoadResult[]> = { single: [], async: [], sync: [], "sync-tenant": [] };
  const lags: number[] = [];
  let n = 1_000_000;
  const load = (url: string): Promise<LoadResult> =>
    runLoad({
      url: `${url}/AddItem`,
      connections: options.connections,
      durationSeconds: options.durationSeconds,
      bodies: () => JSON.stringify(itemProps(n++)),
    });
  try {
    for (let round = 0; round < options.rounds; round++) {
      // Each mode goes first, second and third in turn, so drift over the run hits all alike.
      const order = MODES.map((_, i) => MODES[(i + round) % MODES.length]!).filter((m) => !m.startsWith("sync") || group !== null);
      for (const mode of order) {
        if (mode === "async") {
          replica.child.kill("SIGCONT");
          await caughtUp(leader.url, replica.url);
          const probing = probeLag(leader.url, replica.url, lags);
          runs.async.push(await load(leader.url));
          await probing.stop();
        } else {
          replica.child.kill("SIGSTOP");
          const url = mode === "single" ? leader.url : mode === "sync" ? group!.leader.url : `${group!.leader.url}/t/bench`;
          runs[mode].push(await load(url));
        }
        const last = runs[mode].at(-1)!;
        options.log(
          `round ${round + 1}: ${LABELS[mode]}: ${last.requestsPerSec.toFixed(0)} writes/s, p99 ${last.p99Ms} ms, non-2xx ${last.non2xx}`,
        );
      }
    }
  } finally {
    replica.child.kill("SIGCONT");
    await replica.stop();
    await leader.stop();
    if (group !== null) {
      await group.replica.stop();
      await group.leader.stop();
    }
  }
  const ratio = (side: LoadResult[]): number => geomean(runs.single.map((s, i) => side[i]!.requestsPerSec / s.requestsPerSec));
  const p99Ratio = (side: LoadResult[]): number => geomean(runs.single.map((s, i) => side[i]!.p99Ms / Math.max(1, s.p99Ms)));
  const syncRuns = (side: LoadResult[]): SyncRuns => ({
    runs: side,
    throughputRatio: ratio(side),
    p99: Math.max(...side.map((s) => s.p99Ms)),
    p99Ratio: p99Ratio(side),
  });
  const sorted = [...lags].sort((a, b) => a - b);
  return {
    http: {
      single: runs.single,
      replicated: runs.async,
      throughputRatio: ratio(runs.async),
      p99Single: Math.max(...runs.single.map((s) => s.p99Ms)),
      p99Replicated: Math.max(...runs.async.map((s) => s.p99Ms)),
      p99Ratio: p99Ratio(runs.async),
    },
    sync: group === null ? null : syncRuns(runs.sync),
    syncTenant: group === null ? null : syncRuns(runs["sync-tenant"]),
    lag: {
      samples: sorted.length,
      p50Ms: sorted.length === 0 ? 0 : quantileSorted(sorted, 0.5),
      p99Ms: sorted.length === 0 ? 0 : quantileSorted(sorted, 0.99),
      maxMs: sorted.at(-1) ?? 0,
    },
  };
}

/**
 * A failover group on one local etcd member: a leader and one in-sync replica, --sync-replicas 1.
 * Its lease is long (60 s) so that a loaded machine never makes it change leaders mid-run.
 */
async function syncGroup(options: ReplicationBenchOptions): Promise<{ leader: Served; replica: Served } | null> {
  const etcd = await startBenchEtcd();
  if (etcd === null) {
    options.log("no etcd binary (Debian's etcd-server): the 1-sync-replica runs are left out");
    return null;
  }
  const flags = ["--etcd", etcd, "--group", "bench", "--sync-replicas", "1", "--lease-ttl", "60", "--sync-timeout", "60000"];
  const leader = await serve(join(options.root, "sync-leader"), flags);
  await until(async () => (await status(leader.url)).role === "leader");
  const replica = await serve(join(options.root, "sync-replica"), flags);
  await until(async () => (await status(leader.url)).cluster?.inSync.length === 1);
  return { leader, replica };
}

async function status(url: string): Promise<{ role: string; seq: number; cluster?: { inSync: string[] } }> {
  const res = await fetch(`${url}/replication/status`, { headers: { "x-replication-key": KEY } });
  return (await res.json()) as { role: string; seq: number; cluster?: { inSync: string[] } };
}

async function until(test: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await test().catch(() => false))) {
    if (Date.now() > deadline) throw new Error("the bench's sync group did not form within 60 s");
    await new Promise((r) => setTimeout(r, 100));
  }
}

interface Served {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

async function serve(dataDir: string, extra: string[]): Promise<Served> {
  const args = [CLI, "serve", BENCH_PROJECT, "--port", "0", "--data", dataDir, "--log-level", "warn", "--replication-key", KEY, ...extra];
  const child = spawn(process.execPath, args, { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "pipe"] });
  trackChild(child);
  let onLog: ((all: string) => void) | undefined;
  const output = captureOutput(child, (all) => onLog?.(all));
  const url = await waitFor<string>(child, "strand serve", output, (done) => {
    onLog = (all) => {
      const match = /strand listening on (http:\/\/\S+)/.exec(all);
      if (match) done(match[1]!);
    };
  });
  return { url, child, stop: () => stopChild(child) };
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; commit: number }> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
  await res.arrayBuffer();
  return { status: res.status, commit: Number(res.headers.get("strand-commit")) };
}

/** Resolves once the replica has applied everything the leader had when called. */
async function caughtUp(leader: string, replica: string): Promise<void> {
  const res = await fetch(`${leader}/replication/status`, { headers: { "x-replication-key": KEY } });
  const { seq } = (await res.json()) as { seq: number };
  for (;;) {
    const read = await post(`${replica}/GetItem`, { id: "00000000-0000-7000-8000-000000000000" }, { "strand-after": String(seq) });
    if (read.status !== 503) return;
  }
}

/** Probe writes on the leader, each followed by a bookmarked read on the replica, until stopped. */
function probeLag(leader: string, replica: string, lags: number[]): { stop(): Promise<void> } {
  let running = true;
  let n = 0;
  const done = (async () => {
    while (running) {
      const write = await post(`${leader}/AddItem`, { name: `probe-${Date.now()}-${n++}`, n: -1 });
      const t0 = performance.now();
      const read = await post(
        `${replica}/GetItem`,
        { id: "00000000-0000-7000-8000-000000000000" },
        { "strand-after": String(write.commit) },
      );
      if (read.status !== 503) lags.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return {
    async stop() {
      running = false;
      await done;
    },
  };
}

function latency(samples: number[]): Latency {
  const sorted = [...samples].sort((a, b) => a - b);
  return { meanUs: sorted.reduce((a, b) => a + b, 0) / sorted.length, p50Us: median(sorted), p99Us: quantileSorted(sorted, 0.99) };
}

function fmt(us: number): string {
  return us.toFixed(0);
}

export function renderReplication(r: ReplicationBenchResult): string {
  const l = r.logCost;
  return [
    "Replication (issue 15; one machine: the replica shares the cores, so this is overhead, not scale)",
    `  commit log, in process: durable write mean ${fmt(l.withLog.meanUs)} µs (p50 ${fmt(l.withLog.p50Us)}, p99 ${fmt(l.withLog.p99Us)}) vs ${fmt(l.without.meanUs)} µs (p50 ${fmt(l.without.p50Us)}, p99 ${fmt(l.without.p99Us)}) without the log: ${l.latencyRatio.toFixed(3)}x`,
    `                         64 writes in flight: ${l.throughputWith.toFixed(0)} vs ${l.throughputWithout.toFixed(0)} writes/s: ${l.throughputRatio.toFixed(3)}x`,
    `                         a write of ${EDGE_BATCH} edges (random ends among ${EDGE_NODES} nodes, ${l.edges.writes} per side): CPU ${l.edges.cpuWithMs.toFixed(1)} vs ${l.edges.cpuWithoutMs.toFixed(1)} ms without the log: the log's share ${(l.edges.share * 100).toFixed(1)}% (target ≤ ${LOG_SHARE_TARGET * 100}%, issue 32 item 2), its entries ${l.edges.logBytesPerEdge.toFixed(0)} B per edge`,
    `  POST /AddItem on the leader, as ratios to the leader with 0 replicas (${median(r.http.single.map((x) => x.requestsPerSec)).toFixed(0)} writes/s median, worst p99 ${r.http.p99Single} ms):`,
    `    1 async replica:             throughput ${r.http.throughputRatio.toFixed(3)}x, p99 ${r.http.p99Ratio.toFixed(2)}x (${median(r.http.replicated.map((x) => x.requestsPerSec)).toFixed(0)} writes/s median, worst p99 ${r.http.p99Replicated} ms)`,
    r.sync === null
      ? "    1 sync replica: not measured (no etcd binary)"
      : `    1 sync replica (etcd group): throughput ${r.sync.throughputRatio.toFixed(3)}x, p99 ${r.sync.p99Ratio.toFixed(2)}x (${median(r.sync.runs.map((x) => x.requestsPerSec)).toFixed(0)} writes/s median, worst p99 ${r.sync.p99} ms)`,
    ...(r.syncTenant === null || r.sync === null
      ? []
      : [
          `    1 sync replica, to a tenant:  throughput ${r.syncTenant.throughputRatio.toFixed(3)}x, p99 ${r.syncTenant.p99Ratio.toFixed(2)}x (${median(r.syncTenant.runs.map((x) => x.requestsPerSec)).toFixed(0)} writes/s median, worst p99 ${r.syncTenant.p99} ms; ${(r.syncTenant.throughputRatio / r.sync.throughputRatio).toFixed(3)}x the project's own graph's throughput with it)`,
        ]),
    `  replica lag under that load (probe write on the leader → Strand-After read on the replica): p50 ${r.lag.p50Ms.toFixed(1)} ms, p99 ${r.lag.p99Ms.toFixed(1)} ms, max ${r.lag.maxMs.toFixed(1)} ms (${r.lag.samples} probes)`,
  ].join("\n");
}
