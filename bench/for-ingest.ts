// FOR-loop edge ingest over HTTP: `strand serve bench/data-project` on a directory holding the
// nodes, and `POST /AddLinks {"links": [{from, to}, ..]}` with `batch` edges per request (each
// source node's `degree` edges together, targets random), one request at a time. Every request
// is one durable write transaction. With baselines (`--data-baseline <strand.js>[,<strand.js>..]`,
// or STRAND_BENCH_CLI), the same ingest runs against each of those builds too, side by side: two
// rounds, the order of the builds reversed in the second, each build's best round counts. Each
// build loads the nodes itself (so a build reads only the format it writes): with its own
// `strand import` when it has one, else (a build from before issue 12, the "today")
// through `POST /AddItems` and the ids read back with `POST /ItemIds` per group. Only the
// AddLinks requests are timed.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { join } from "node:path";
import { processCpuSeconds } from "./proc-cpu.js";
import { type Random, randomIndex, seededRandom } from "./random.js";
import { quantileSorted } from "./stats.js";
import { CLI, REPO_ROOT, startStrand, type ChildServer } from "./servers.js";

/** The data benchmark's project (Item, Link, AddLinks). */
export const DATA_PROJECT = join(REPO_ROOT, "bench/data-project");

export interface ForIngestOptions {
  root: string;
  nodesFile: string;
  ids: readonly string[];
  batch: number;
  edges: number;
  degree: number;
  seed: number;
  /** Requests in flight at once (1: one request at a time, each waiting for the previous answer). */
  concurrency: number;
  /** Other builds' strand.js to measure side by side (none: this build only). */
  baselines: readonly string[];
  /**
   * `ordered`: each source node's `degree` edges together (the bench's first row); `random`: every
   * edge's source drawn at random too (issue 32 item 3), so each request touches ~batch lists.
   */
  sources?: "ordered" | "random";
  /** A file imported instead of the nodes' before the ingest (nodes and edges: a store that already holds them). */
  prefillFile?: string | undefined;
  /** The edges in prefillFile. */
  prefilledEdges?: number;
  log: (line: string) => void;
}

export interface IngestRun {
  /** The strand.js that served. */
  cli: string;
  ms: number;
  edgesPerSecond: number;
  /** The server's CPU time (user + system) per edge during the ingest, or null without /proc. */
  serverCpuUsPerEdge: number | null;
  /**
   * The median time of a request adding one edge, sent one at a time after the ingest: what a
   * request costs whatever it carries (HTTP both ways, the write's commit and sync).
   */
  oneEdgeMs: number;
  /** The data directory's growth over the ingest, every file counted, per edge written. */
  diskBytesPerEdge: number;
  /**
   * The ingest's requests, each timed from send to answer: the p99 and the slowest but the first
   * (a fold of pending incoming entries runs inside the request that finds it due, issue 32 item 3).
   */
  requestP99Ms: number;
  slowestRequestMs: number;
}

/** Every file's size under `dir`, in bytes. */
function dirBytes(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? dirBytes(path) : fs.statSync(path).size;
  }
  return total;
}

/** One-edge requests timed per build after its ingest (oneEdgeMs). */
const ONE_EDGE_REQUESTS = 41;

export interface ForIngestResult {
  edges: number;
  sources: "ordered" | "random";
  /** Edges the store held before the ingest. */
  prefilledEdges: number;
  batch: number;
  concurrency: number;
  current: IngestRun;
  /** One per baseline build, in the order given. */
  baselines: IngestRun[];
}

/** What a build's `strand --help` says it has. */
function features(cli: string): { importCommand: boolean; logLevel: boolean } {
  const help = execFileSync(process.execPath, [cli, "--help"], { encoding: "utf8" });
  return { importCommand: /^\s+import\b/m.test(help), logLevel: help.includes("--log-level") };
}

async function post(server: ChildServer, route: string, body: unknown): Promise<string> {
  let res: Response;
  try {
    res = await fetch(`${server.url}/${route}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause ?? error;
    throw new Error(`POST /${route}: ${String(cause)}; the server said:\n${server.output()}`);
  }
  const text = await res.text();
  if (res.status !== 200) throw new Error(`POST /${route}: ${res.status} ${text.slice(0, 300)}`);
  return text;
}

/** The nodes through AddItems, 1,000 per request; their ids read back group by group. */
async function loadNodesOverHttp(server: ChildServer, nodesFile: string): Promise<string[]> {
  const items = fs
    .readFileSync(nodesFile, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as { group: string; name: string });
  for (let i = 0; i < items.length; i += 1000) {
    await post(server, "AddItems", { items: items.slice(i, i + 1000).map(({ group, name }) => ({ group, name })) });
  }
  const groups = [...new Set(items.map((item) => item.group))];
  const ids: string[] = [];
  for (const group of groups) {
    const answer = JSON.parse(await post(server, "ItemIds", { group })) as { items: { id: string }[] };
    for (const item of answer.items) ids.push(item.id);
  }
  if (ids.length !== items.length) throw new Error(`ItemIds: ${ids.length} ids for ${items.length} nodes`);
  return ids;
}

async function ingestOnce(options: ForIngestOptions, cli: string): Promise<IngestRun> {
  const dir = join(options.root, "for-ingest");
  fs.rmSync(dir, { recursive: true, force: true });
  const has = features(cli);
  if (has.importCommand) {
    execFileSync(process.execPath, [cli, "import", DATA_PROJECT, "--data", dir, options.prefillFile ?? options.nodesFile], {
      stdio: "ignore",
    });
  }
  const server = await startStrand(dir, null, DATA_PROJECT, cli, has.logLevel);
  try {
    const ids = has.importCommand ? options.ids : await loadNodesOverHttp(server, options.nodesFile);
    const random = seededRandom(options.seed + 1);
    const bytes0 = dirBytes(dir);
    const cpu0 = processCpuSeconds(server.child.pid);
    const t0 = performance.now();
    // The batches are drawn in order (the same edges for every concurrency); each client takes the next one.
    let next = 0;
    const requestMs: number[] = [];
    const client = async (): Promise<void> => {
      while (next < options.edges) {
        const start = next;
        next += options.batch;
        const links = [];
        for (let e = start; e < Math.min(options.edges, start + options.batch); e++) {
          const from = options.sources === "random" ? randomIndex(random, ids.length) : Math.floor(e / options.degree) % ids.length;
          links.push({ from: ids[from], to: ids[randomIndex(random, ids.length)] });
        }
        const sent = performance.now();
        await post(server, "AddLinks", { links });
        requestMs.push(performance.now() - sent);
      }
    };
    await Promise.all(Array.from({ length: options.concurrency }, client));
    const ms = performance.now() - t0;
    const cpu1 = processCpuSeconds(server.child.pid);
    const serverCpuUsPerEdge = cpu0 === null || cpu1 === null ? null : ((cpu1 - cpu0) * 1e6) / options.edges;
    const edgesPerSecond = options.edges / (ms / 1000);
    const diskBytesPerEdge = (dirBytes(dir) - bytes0) / options.edges;
    const oneEdgeMs = await medianOneEdgeMs(server, ids, random);
    // The first request runs cold (code not yet optimized): left out of the slowest.
    const sorted = requestMs.slice(1).sort((a, b) => a - b);
    const requestP99Ms = quantileSorted(sorted, 0.99);
    const slowestRequestMs = sorted[sorted.length - 1] ?? 0;
    options.log(
      `data: FOR-loop ingest (${cli === CLI ? "this build" : cli}, ${options.concurrency} in flight) ${options.edges} edges in ${(ms / 1000).toFixed(2)} s (${Math.round(edgesPerSecond)} edges/s); a one-edge request ${oneEdgeMs.toFixed(1)} ms; data directory +${Math.round(diskBytesPerEdge)} B/edge; requests p99 ${requestP99Ms.toFixed(1)} ms, slowest ${slowestRequestMs.toFixed(1)} ms`,
    );
    return { cli, ms, edgesPerSecond, serverCpuUsPerEdge, oneEdgeMs, diskBytesPerEdge, requestP99Ms, slowestRequestMs };
  } finally {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The median time of ONE_EDGE_REQUESTS requests of one edge each, one at a time. */
async function medianOneEdgeMs(server: ChildServer, ids: readonly string[], random: Random): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < ONE_EDGE_REQUESTS; i++) {
    const links = [{ from: ids[randomIndex(random, ids.length)], to: ids[randomIndex(random, ids.length)] }];
    const t0 = performance.now();
    await post(server, "AddLinks", { links });
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

export async function runForIngest(options: ForIngestOptions): Promise<ForIngestResult> {
  const builds = [CLI, ...options.baselines];
  const best = new Map<string, IngestRun>();
  const rounds = options.baselines.length === 0 ? 1 : 2;
  for (let round = 0; round < rounds; round++) {
    for (const cli of round % 2 === 0 ? [...builds].reverse() : builds) {
      const run = await ingestOnce(options, cli);
      const before = best.get(cli);
      if (before === undefined || run.ms < before.ms) best.set(cli, run);
    }
  }
  return {
    edges: options.edges,
    sources: options.sources ?? "ordered",
    prefilledEdges: options.prefillFile === undefined ? 0 : (options.prefilledEdges ?? 0),
    batch: options.batch,
    concurrency: options.concurrency,
    current: best.get(CLI)!,
    baselines: options.baselines.map((cli) => best.get(cli)!),
  };
}
