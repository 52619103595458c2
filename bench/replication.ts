// Replication (issue 15), side by side in one run (bench/README.md, "Replication"):
//   1. the commit log's cost on a durable write, in process: two stores of bench/project, one
//      writing the log (the default) and one with `commitLog: false`, in alternating blocks of
//      single awaited writes (latency) and of 64 writes in flight (throughput);
//   2. a leader over HTTP (`POST /AddItem` from a separate load process) with 0 and with 1 async
//      replica (`strand serve --follow`) following it, in alternating rounds: the replica is
//      SIGSTOPped for the 0-replica runs and let go (and caught up) for the 1-replica runs;
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
  };
  http: { single: LoadResult[]; replicated: LoadResult[]; throughputRatio: number; p99Single: number; p99Replicated: number };
  lag: { samples: number; p50Ms: number; p99Ms: number; maxMs: number };
}

const KEY = "bench-replication-key";

export async function runReplicationBench(options: ReplicationBenchOptions): Promise<ReplicationBenchResult> {
  const logCost = await benchLogCost(options);
  options.log(
    `commit log: write p50 ${fmt(logCost.withLog.p50Us)} vs ${fmt(logCost.without.p50Us)} µs without, mean ratio ${logCost.latencyRatio.toFixed(3)}; 64 in flight ${logCost.throughputRatio.toFixed(3)}x the throughput`,
  );
  const { http, lag } = await benchReplicatedHttp(options);
  return { logCost, http, lag };
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
  };
}

async function benchReplicatedHttp(options: ReplicationBenchOptions): Promise<Pick<ReplicationBenchResult, "http" | "lag">> {
  const leader = await serve(join(options.root, "leader"), []);
  const replica = await serve(join(options.root, "replica"), ["--follow", leader.url]);
  const single: LoadResult[] = [];
  const replicated: LoadResult[] = [];
  const lags: number[] = [];
  let n = 1_000_000;
  const load = (): Promise<LoadResult> =>
    runLoad({
      url: `${leader.url}/AddItem`,
      connections: options.connections,
      durationSeconds: options.durationSeconds,
      bodies: () => JSON.stringify(itemProps(n++)),
    });
  try {
    for (let round = 0; round < options.rounds; round++) {
      for (const withReplica of round % 2 === 0 ? [false, true] : [true, false]) {
        if (withReplica) {
          replica.child.kill("SIGCONT");
          await caughtUp(leader.url, replica.url);
          const probing = probeLag(leader.url, replica.url, lags);
          replicated.push(await load());
          await probing.stop();
        } else {
          replica.child.kill("SIGSTOP");
          single.push(await load());
        }
        const last = withReplica ? replicated.at(-1)! : single.at(-1)!;
        options.log(
          `round ${round + 1}: leader with ${withReplica ? 1 : 0} replica: ${last.requestsPerSec.toFixed(0)} writes/s, p99 ${last.p99Ms} ms, non-2xx ${last.non2xx}`,
        );
      }
    }
  } finally {
    replica.child.kill("SIGCONT");
    await replica.stop();
    await leader.stop();
  }
  const ratios = single.map((s, i) => replicated[i]!.requestsPerSec / s.requestsPerSec);
  const sorted = [...lags].sort((a, b) => a - b);
  return {
    http: {
      single,
      replicated,
      throughputRatio: geomean(ratios),
      p99Single: Math.max(...single.map((s) => s.p99Ms)),
      p99Replicated: Math.max(...replicated.map((s) => s.p99Ms)),
    },
    lag: {
      samples: sorted.length,
      p50Ms: sorted.length === 0 ? 0 : quantileSorted(sorted, 0.5),
      p99Ms: sorted.length === 0 ? 0 : quantileSorted(sorted, 0.99),
      maxMs: sorted.at(-1) ?? 0,
    },
  };
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
    `  POST /AddItem on the leader: 1 async replica / 0 replicas throughput ${r.http.throughputRatio.toFixed(3)}x (${median(r.http.replicated.map((x) => x.requestsPerSec)).toFixed(0)} vs ${median(r.http.single.map((x) => x.requestsPerSec)).toFixed(0)} writes/s median), p99 ${r.http.p99Replicated} vs ${r.http.p99Single} ms`,
    `  replica lag under that load (probe write on the leader → Strand-After read on the replica): p50 ${r.lag.p50Ms.toFixed(1)} ms, p99 ${r.lag.p99Ms.toFixed(1)} ms, max ${r.lag.maxMs.toFixed(1)} ms (${r.lag.samples} probes)`,
  ].join("\n");
}
