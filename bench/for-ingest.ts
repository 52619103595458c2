// FOR-loop edge ingest over HTTP: `strand serve bench/data-project` on a directory holding the
// nodes, and `POST /AddLinks {"links": [{from, to}, ..]}` with `batch` edges per request (each
// source node's `degree` edges together, targets random), one request at a time. Every request
// is one durable write transaction. STRAND_BENCH_CLI=<path to strand.js> serves with another
// build instead (to measure an earlier version's figure on the same machine).
import { join } from "node:path";
import type { SchemaDescriptor } from "../core/schema.js";
import { silentProgress } from "../core/progress.js";
import { importFileOf, importFiles } from "../runtime/data/import.js";
import { GraphStore } from "../runtime/graph-store.js";
import { randomIndex, seededRandom } from "./random.js";
import { CLI, REPO_ROOT, startStrand } from "./servers.js";

/** The data benchmark's project (Item, Link, AddLinks). */
export const DATA_PROJECT = join(REPO_ROOT, "bench/data-project");

export interface ForIngestOptions {
  root: string;
  schema: SchemaDescriptor;
  nodesFile: string;
  ids: readonly string[];
  batch: number;
  edges: number;
  degree: number;
  seed: number;
  log: (line: string) => void;
}

export interface ForIngestResult {
  edges: number;
  batch: number;
  ms: number;
  edgesPerSecond: number;
  /** The strand.js that served, when not this build's. */
  cli: string | null;
}

export async function runForIngest(options: ForIngestOptions): Promise<ForIngestResult> {
  const dir = join(options.root, "for-ingest");
  const store = GraphStore.open({ path: dir, schema: options.schema });
  await importFiles(store, [importFileOf(options.nodesFile)], { skipBad: false, progress: silentProgress });
  await store.close();
  const cli = process.env.STRAND_BENCH_CLI || null;
  const server = await startStrand(dir, null, DATA_PROJECT, cli ?? CLI);
  try {
    const random = seededRandom(options.seed + 1);
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
    const edgesPerSecond = options.edges / (ms / 1000);
    options.log(`data: FOR-loop ingest ${options.edges} edges in ${(ms / 1000).toFixed(2)} s (${Math.round(edgesPerSecond)} edges/s)`);
    return { edges: options.edges, batch: options.batch, ms, edgesPerSecond, cli };
  } finally {
    await server.stop();
  }
}
