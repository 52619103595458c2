// FOR-loop edge ingest over HTTP: `strand serve bench/data-project` on a directory holding the
// nodes, and `POST /AddLinks {"links": [{from, to}, ..]}` with `batch` edges per request (each
// source node's `degree` edges together, targets random), one request at a time. Every request
// is one durable write transaction. With a baseline (`--data-baseline <old build's strand.js>`,
// or STRAND_BENCH_CLI), the same ingest runs against that build too, side by side: two rounds,
// alternating which build goes first, each build's best round counts. Each build loads the nodes
// with its own `strand import` (so a build reads only the format it writes).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { join } from "node:path";
import { processCpuSeconds } from "./proc-cpu.js";
import { randomIndex, seededRandom } from "./random.js";
import { CLI, REPO_ROOT, startStrand } from "./servers.js";

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
  /** Another build's strand.js to measure side by side, or null. */
  baseline: string | null;
  log: (line: string) => void;
}

export interface IngestRun {
  /** The strand.js that served. */
  cli: string;
  ms: number;
  edgesPerSecond: number;
  /** The server's CPU time (user + system) per edge during the ingest, or null without /proc. */
  serverCpuUsPerEdge: number | null;
}

export interface ForIngestResult {
  edges: number;
  batch: number;
  current: IngestRun;
  baseline: IngestRun | null;
}

async function ingestOnce(options: ForIngestOptions, cli: string): Promise<IngestRun> {
  const dir = join(options.root, "for-ingest");
  fs.rmSync(dir, { recursive: true, force: true });
  execFileSync(process.execPath, [cli, "import", DATA_PROJECT, "--data", dir, options.nodesFile], { stdio: "ignore" });
  const server = await startStrand(dir, null, DATA_PROJECT, cli);
  try {
    const random = seededRandom(options.seed + 1);
    const cpu0 = processCpuSeconds(server.child.pid);
    const t0 = performance.now();
    for (let start = 0; start < options.edges; start += options.batch) {
      const links = [];
      for (let e = start; e < Math.min(options.edges, start + options.batch); e++) {
        links.push({
          from: options.ids[Math.floor(e / options.degree) % options.ids.length],
          to: options.ids[randomIndex(random, options.ids.length)],
        });
      }
      const res = await fetch(`${server.url}/AddLinks`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ links }),
      });
      const body = await res.text();
      if (res.status !== 200) throw new Error(`POST /AddLinks: ${res.status} ${body.slice(0, 300)}`);
    }
    const ms = performance.now() - t0;
    const cpu1 = processCpuSeconds(server.child.pid);
    const serverCpuUsPerEdge = cpu0 === null || cpu1 === null ? null : ((cpu1 - cpu0) * 1e6) / options.edges;
    const edgesPerSecond = options.edges / (ms / 1000);
    options.log(
      `data: FOR-loop ingest (${cli === CLI ? "this build" : cli}) ${options.edges} edges in ${(ms / 1000).toFixed(2)} s (${Math.round(edgesPerSecond)} edges/s)`,
    );
    return { cli, ms, edgesPerSecond, serverCpuUsPerEdge };
  } finally {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function runForIngest(options: ForIngestOptions): Promise<ForIngestResult> {
  const best = (a: IngestRun | null, b: IngestRun) => (a === null || b.ms < a.ms ? b : a);
  let current: IngestRun | null = null;
  let baseline: IngestRun | null = null;
  const rounds = options.baseline === null ? 1 : 2;
  for (let round = 0; round < rounds; round++) {
    if (options.baseline !== null && round % 2 === 0) baseline = best(baseline, await ingestOnce(options, options.baseline));
    current = best(current, await ingestOnce(options, CLI));
    if (options.baseline !== null && round % 2 === 1) baseline = best(baseline, await ingestOnce(options, options.baseline));
  }
  return { edges: options.edges, batch: options.batch, current: current!, baseline };
}
