// Strand over HTTP against the server a user would otherwise write: Hono + better-sqlite3 with
// integer keys (bench/sqlite-server.ts), on the same graph (bench/fill.ts `buildGraph`), the same
// routes and answers: a point read, one hop and two hops of records, and a durable write. Each
// route runs with one connection (requests one at a time: the CPU a request costs when the
// server is not saturated, the figure the verdict leads with) and with many, alternating which
// server goes first each round (http-bench.ts). Peak RSS (VmHWM) of both servers is read after
// all runs; the heaviest they served is the two-hop route.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { SchemaDescriptor } from "../core/schema.js";
import { GraphStore } from "../runtime/graph-store.js";
import { buildGraph } from "./fill.js";
import { compareRoutes, type Comparison, type RouteSpec } from "./http-bench.js";
import { randomIndex, seededRandom } from "./random.js";
import { buildSqlitePeer, startSqlitePeer, startStrand, type ChildServer } from "./servers.js";

export interface PeerHttpOptions {
  root: string;
  schema: SchemaDescriptor;
  nodes: number;
  fanout: number;
  /** Connection counts, one comparison each (1: sequential). */
  connections: readonly number[];
  durationSeconds: number;
  warmupSeconds: number;
  rounds: number;
  seed: number;
  log: (line: string) => void;
}

export interface PeerHttpResult {
  nodes: number;
  edges: number;
  /** One comparison per route and connection count; `floor` is the peer. */
  runs: { connections: number; comparisons: Comparison[] }[];
  /** Peak RSS in MB after all runs (VmHWM). */
  strandPeakRssMb: number | null;
  peerPeakRssMb: number | null;
  /** RSS after all runs, anonymous and file-backed (LMDB's map counts here, SQLite's page cache does not). */
  strandRss: RssParts | null;
  peerRss: RssParts | null;
}

export interface RssParts {
  anonMb: number;
  fileMb: number;
}

function rssParts(pid: number | undefined): RssParts | null {
  if (pid === undefined) return null;
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (name: string): number => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN);
    return { anonMb: kb("RssAnon") / 1024, fileMb: kb("RssFile") / 1024 };
  } catch {
    return null;
  }
}

function peakRssMb(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match === null ? null : Number(match[1]) / 1024;
  } catch {
    return null;
  }
}

/** The records of an answer (`{item}` or `{items}`) as sorted "name|n" strings: ids differ between the sides. */
function records(answer: unknown): string[] {
  const { item, items } = answer as { item?: { name: string; n: number }; items?: { name: string; n: number }[] };
  return (items ?? (item === undefined ? [] : [item])).map((r) => `${r.name}|${r.n}`).sort();
}

/** Both servers give the same records for the same node on every read route, or the comparison is void. */
async function sameAnswers(strandUrl: string, peerUrl: string, ids: readonly string[], random: () => number): Promise<void> {
  const ask = async (url: string, body: unknown): Promise<unknown> => {
    const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    if (response.status !== 200) throw new Error(`peer http: ${url} answered ${response.status}: ${await response.text()}`);
    return response.json();
  };
  for (let k = 0; k < 5; k++) {
    const i = randomIndex(random, ids.length);
    for (const [query, path] of [
      ["GetItem", "read"],
      ["OneHop", "one-hop"],
      ["TwoHop", "two-hop"],
    ] as const) {
      const mine = records(await ask(`${strandUrl}/${query}`, { id: ids[i] }));
      const theirs = records(await ask(`${peerUrl}/${path}`, { id: i }));
      if (JSON.stringify(mine) !== JSON.stringify(theirs)) {
        throw new Error(`peer http: ${query} of node ${i} differs: Strand ${mine.length} records, the peer ${theirs.length}`);
      }
    }
  }
}

export async function runPeerHttp(options: PeerHttpOptions): Promise<PeerHttpResult> {
  const { root, log } = options;
  const strandDir = join(root, "strand-peer");
  const t0 = performance.now();
  const store = GraphStore.open({ path: strandDir, schema: options.schema });
  let graph: Awaited<ReturnType<typeof buildGraph>>;
  try {
    graph = await buildGraph(store, options.nodes, options.fanout, seededRandom(options.seed));
  } finally {
    await store.close();
  }
  const targetsFile = join(root, "peer-targets.bin");
  writeFileSync(targetsFile, new Uint8Array(graph.targets.buffer, graph.targets.byteOffset, graph.targets.byteLength));
  const dbPath = join(root, "peer.sqlite");
  buildSqlitePeer(dbPath, targetsFile, options.fanout);
  log(
    `peer http: built ${options.nodes.toLocaleString("en-US")} nodes, ${graph.targets.length.toLocaleString("en-US")} edges in Strand and SQLite in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  const servers: ChildServer[] = [];
  try {
    const strand = await startStrand(strandDir, null);
    servers.push(strand);
    const peer = await startSqlitePeer(dbPath);
    servers.push(peer);
    await sameAnswers(strand.url, peer.url, graph.ids, seededRandom(options.seed + 2));
    const random = seededRandom(options.seed + 1);
    // Both sides ask for the same node: Strand by its id, the peer by its index.
    let nextIndex = 0;
    const pick = (): number => {
      nextIndex = randomIndex(random, options.nodes);
      return nextIndex;
    };
    let written = 0;
    const route = (key: string, title: string, query: string, path: string): RouteSpec => ({
      key,
      title,
      strand: { url: `${strand.url}/${query}`, pid: strand.child.pid, bodies: () => JSON.stringify({ id: graph.ids[pick()] }) },
      floor: { url: `${peer.url}/${path}`, pid: peer.child.pid, bodies: () => JSON.stringify({ id: pick() }) },
    });
    const routes: RouteSpec[] = [
      route("read", "point read", "GetItem", "read"),
      route("one-hop", "1-hop records", "OneHop", "one-hop"),
      route("two-hop", "2-hop records", "TwoHop", "two-hop"),
      {
        key: "write",
        title: "durable write",
        strand: {
          url: `${strand.url}/AddItem`,
          pid: strand.child.pid,
          bodies: () => JSON.stringify({ name: `w ${written}`, n: written++ }),
        },
        floor: { url: `${peer.url}/write`, pid: peer.child.pid, bodies: () => JSON.stringify({ name: `w ${written}`, n: written++ }) },
      },
    ];
    const runs: PeerHttpResult["runs"] = [];
    for (const connections of options.connections) {
      const comparisons = await compareRoutes(routes, {
        connections,
        durationSeconds: options.durationSeconds,
        warmupSeconds: options.warmupSeconds,
        rounds: options.rounds,
        log: (line) => log(`peer http (${connections} conn): ${line}`),
      });
      runs.push({ connections, comparisons });
    }
    return {
      nodes: options.nodes,
      edges: graph.targets.length,
      runs,
      strandPeakRssMb: peakRssMb(strand.child.pid),
      peerPeakRssMb: peakRssMb(peer.child.pid),
      strandRss: rssParts(strand.child.pid),
      peerRss: rssParts(peer.child.pid),
    };
  } finally {
    for (const server of servers.reverse()) await server.stop();
  }
}

/** Strand's CPU per request over the peer's: at most this for reads (issue 32 item 1). */
export const PEER_CPU_TARGET = 1.3;
/** Strand's peak RSS over the peer's under the same load: at most this. */
export const PEER_RSS_TARGET = 2;

export function renderPeerHttp(r: PeerHttpResult): string {
  const pass = (ok: boolean): string => (ok ? "PASS" : "MISS");
  const lines = [
    `HTTP vs Hono + better-sqlite3 (integer keys, WAL, synchronous=FULL), ${r.nodes.toLocaleString("en-US")} nodes, ${r.edges.toLocaleString("en-US")} edges; server CPU per request from /proc, Strand/peer`,
    "  route            conn  strand us/req  peer us/req  CPU ratio (rounds)          strand req/s  peer req/s  p99 ms strand/peer",
  ];
  for (const run of r.runs) {
    for (const c of run.comparisons) {
      const s = c.strand.cpuUsPerRequest;
      const p = c.floor.cpuUsPerRequest;
      const rounds = c.strand.runs
        .map((sr, i) => {
          const pr = c.floor.runs[i]!;
          return sr.serverCpuSeconds === null || pr.serverCpuSeconds === null
            ? "?"
            : (sr.serverCpuSeconds / sr.requests / (pr.serverCpuSeconds / pr.requests)).toFixed(2);
        })
        .join(" / ");
      const ratio = s === null || p === null ? null : s / p;
      const verdict = ratio === null || c.key === "write" ? "" : `target <= ${PEER_CPU_TARGET}: ${pass(ratio <= PEER_CPU_TARGET)}`;
      const title = `${c.title}${c.valid ? "" : " (INVALID)"}`;
      const cpu = (us: number | null): string => (us === null ? "-" : us.toFixed(0));
      const ratioText = `${ratio === null ? "-" : `${ratio.toFixed(2)}x`} (${rounds})`;
      const rate = (perSec: number): string => Math.round(perSec).toLocaleString("en-US");
      lines.push(
        `  ${title.padEnd(16)} ${String(run.connections).padStart(4)}  ${cpu(s).padStart(13)}  ${cpu(p).padStart(11)}  ${ratioText.padEnd(26)} ${rate(c.strand.requestsPerSec).padStart(12)}  ${rate(c.floor.requestsPerSec).padStart(10)}  ${c.strand.p99Ms}/${c.floor.p99Ms}  ${verdict}`,
      );
    }
  }
  if (r.strandPeakRssMb !== null && r.peerPeakRssMb !== null) {
    const ratio = r.strandPeakRssMb / r.peerPeakRssMb;
    lines.push(
      `  peak RSS after every run (2-hop the heaviest): Strand ${r.strandPeakRssMb.toFixed(0)} MB, peer ${r.peerPeakRssMb.toFixed(0)} MB: ${ratio.toFixed(2)}x (target <= ${PEER_RSS_TARGET}: ${pass(ratio <= PEER_RSS_TARGET)})`,
    );
  }
  if (r.strandRss !== null && r.peerRss !== null) {
    const mb = (parts: RssParts): string => `${parts.anonMb.toFixed(0)} MB anonymous + ${parts.fileMb.toFixed(0)} MB file-backed`;
    lines.push(`  RSS at the end: Strand ${mb(r.strandRss)} (its LMDB map; the read cache is anonymous), peer ${mb(r.peerRss)}`);
  }
  return lines.join("\n");
}
