// Storage (issue 16 item 2): bytes on disk per edge, per node and per 128-d vector, and the RSS
// of a process running 2-hop traversals over the 1M-edge store. Every store is built through the
// bulk path (`strand import`'s runtime function) in a fresh directory:
//   - nodes only: `nodes` Items (one INDEX field, one String field, as bench/data.ts) → bytes/node;
//   - the same nodes plus `degree` × nodes Links without properties → bytes/edge is the
//     difference over the edges (and the whole store over the edges, the figure);
//   - `vectors` 128-d vectors of `V::Vec {n}` → bytes/vector (LMDB plus the HNSW files).
// "Used" is what LMDB's pages hold (branch + leaf + overflow pages of every database, free
// pages excluded); the data file can be larger (it grows in steps and keeps freed pages). The
// commit log (replication) holds an import's every change as one entry until retention trims it,
// about as many bytes again; the figures are given with and without it, the target without.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { open } from "lmdb";
import { silentProgress } from "../core/progress.js";
import { importFileOf, importFiles } from "../runtime/data/import.js";
import { GraphStore } from "../runtime/graph-store.js";
import { uuidv7 } from "../runtime/store/ids.js";
import { DATA_PROJECT } from "./for-ingest.js";
import { benchSchema } from "./project.js";
import { randomIndex, seededRandom } from "./random.js";
import { VECTOR_PROJECT } from "./vector-project.js";

const LOAD_CHILD = fileURLToPath(new URL("./storage-load-child.js", import.meta.url));

export interface StorageBenchOptions {
  root: string;
  nodes: number;
  degree: number;
  vectors: number;
  /** 2-hop traversals the RSS child runs (30k read the whole 1M-edge store). */
  loadTraversals: number;
  seed: number;
  log: (line: string) => void;
}

/** What bench/storage-load-child.ts prints. */
export interface LoadChildResult {
  /** Peak RSS (VmHWM), and the peaks of its anonymous and file-backed parts, sampled. */
  maxRssMb: number;
  maxAnonMb: number;
  maxFileMb: number;
  /** RSS before the store opened: node, the harness and the compiler. */
  baseRssMb: number;
  heapUsedMb: number;
  cacheEntries: number;
  traversals: number;
  seconds: number;
}

export interface StoreSize {
  fileBytes: number;
  usedBytes: number;
  /** Used bytes per database. */
  dbs: Record<string, number>;
}

export interface StorageBenchResult {
  format: unknown;
  nodes: number;
  edges: number;
  vectors: number;
  nodesOnly: StoreSize;
  graph: StoreSize;
  vectorStore: StoreSize & { hnswBytes: number };
  load: LoadChildResult;
}

/** Used bytes of every database of the store at `dir` (opened read-only, after the store closed). */
export function storeSize(dir: string): StoreSize & { format: unknown } {
  const env = open({ path: dir, noSubdir: false, readOnly: true, maxDbs: 32 });
  const dbs: Record<string, number> = {};
  let usedBytes = 0;
  try {
    const names: string[] = [];
    for (const key of env.getKeys()) if (typeof key === "string") names.push(key);
    for (const name of names) {
      // Binary keys: an ordered-binary handle would set its comparison on the database (see format/format4-dbs.ts).
      const stats = env.openDB({ name, keyEncoding: "binary" }).getStats() as {
        pageSize: number;
        treeBranchPageCount: number;
        treeLeafPageCount: number;
        overflowPages: number;
      };
      const bytes = (stats.treeBranchPageCount + stats.treeLeafPageCount + stats.overflowPages) * stats.pageSize;
      dbs[name] = bytes;
      usedBytes += bytes;
    }
    const format = env.openDB({ name: "meta" }).get("format");
    return { fileBytes: fs.statSync(join(dir, "data.mdb")).size, usedBytes, dbs, format };
  } finally {
    void env.close();
  }
}

function dirBytes(dir: string): number {
  if (!fs.existsSync(dir)) return 0;
  let total = 0;
  for (const name of fs.readdirSync(dir)) total += fs.statSync(join(dir, name)).size;
  return total;
}

async function importInto(dir: string, schemaDir: string, file: string): Promise<void> {
  const store = GraphStore.open({ path: dir, schema: benchSchema(schemaDir) });
  try {
    await importFiles(store, [importFileOf(file)], { skipBad: false, progress: silentProgress });
  } finally {
    await store.close();
  }
}

function writeLines(file: string, lines: Iterable<string>): void {
  const fd = fs.openSync(file, "w");
  let batch: string[] = [];
  for (const line of lines) {
    batch.push(line);
    if (batch.length >= 50_000) {
      fs.writeSync(fd, `${batch.join("\n")}\n`);
      batch = [];
    }
  }
  if (batch.length > 0) fs.writeSync(fd, `${batch.join("\n")}\n`);
  fs.closeSync(fd);
}

function* itemLines(ids: readonly string[]): Generator<string> {
  for (let i = 0; i < ids.length; i++) {
    yield JSON.stringify({ kind: "N", label: "Item", id: ids[i], group: `g${i % 1000}`, name: `item ${i} of group ${i % 1000}` });
  }
}

function* linkLines(ids: readonly string[], degree: number, seed: number): Generator<string> {
  const random = seededRandom(seed);
  for (let i = 0; i < ids.length; i++) {
    for (let k = 0; k < degree; k++) {
      yield JSON.stringify({ kind: "E", label: "Link", id: uuidv7(), from: ids[i], to: ids[randomIndex(random, ids.length)] });
    }
  }
}

function* vectorLines(count: number, seed: number): Generator<string> {
  const random = seededRandom(seed + 1);
  for (let i = 0; i < count; i++) {
    const data = Array.from({ length: 128 }, () => random() * 2 - 1);
    yield JSON.stringify({ kind: "V", label: "Vec", data, n: i });
  }
}

export async function runStorageBench(options: StorageBenchOptions): Promise<StorageBenchResult> {
  const ids = Array.from({ length: options.nodes }, () => uuidv7());
  const edges = options.nodes * options.degree;

  const nodesFile = join(options.root, "storage-nodes.jsonl");
  writeLines(nodesFile, itemLines(ids));
  const nodesDir = join(options.root, "storage-nodes");
  await importInto(nodesDir, DATA_PROJECT, nodesFile);
  const nodesOnly = storeSize(nodesDir);
  fs.rmSync(nodesDir, { recursive: true, force: true });
  options.log(`storage: ${options.nodes} nodes: ${(nodesOnly.usedBytes / options.nodes).toFixed(1)} bytes/node used`);

  const graphFile = join(options.root, "storage-graph.jsonl");
  fs.copyFileSync(nodesFile, graphFile);
  const edgesFile = join(options.root, "storage-edges.jsonl");
  writeLines(edgesFile, linkLines(ids, options.degree, options.seed));
  fs.appendFileSync(graphFile, fs.readFileSync(edgesFile));
  fs.rmSync(edgesFile);
  const graphDir = join(options.root, "storage-graph");
  await importInto(graphDir, DATA_PROJECT, graphFile);
  fs.rmSync(graphFile);
  const graph = storeSize(graphDir);
  options.log(`storage: + ${edges} edges: ${((graph.usedBytes - nodesOnly.usedBytes) / edges).toFixed(1)} bytes/edge used`);

  const load = JSON.parse(
    execFileSync(process.execPath, [LOAD_CHILD, graphDir, String(options.loadTraversals), String(options.seed)], { encoding: "utf8" }),
  ) as LoadChildResult;
  options.log(`storage: ${load.traversals} 2-hop traversals in ${load.seconds.toFixed(1)} s: peak RSS ${load.maxRssMb.toFixed(0)} MB`);
  fs.rmSync(graphDir, { recursive: true, force: true });

  const vectorFile = join(options.root, "storage-vectors.jsonl");
  writeLines(vectorFile, vectorLines(options.vectors, options.seed));
  const vectorDir = join(options.root, "storage-vectors");
  await importInto(vectorDir, VECTOR_PROJECT, vectorFile);
  fs.rmSync(vectorFile);
  const vectorStore = { ...storeSize(vectorDir), hnswBytes: dirBytes(join(vectorDir, "vectors")) };
  fs.rmSync(vectorDir, { recursive: true, force: true });
  fs.rmSync(nodesFile);

  return {
    format: graph.format,
    nodes: options.nodes,
    edges,
    vectors: options.vectors,
    nodesOnly,
    graph,
    vectorStore,
    load,
  };
}

/** Used bytes without the commit log's (replication: it holds each write's changes until trimmed). */
export function withoutCommitLog(size: StoreSize): number {
  return size.usedBytes - (size.dbs.commit_log ?? 0);
}

export function renderStorage(r: StorageBenchResult): string {
  const mb = (b: number) => `${(b / 2 ** 20).toFixed(1)} MB`;
  const per = (b: number, n: number) => (b / n).toFixed(1);
  const edgeBytes = r.graph.usedBytes - r.nodesOnly.usedBytes;
  const edgeData = withoutCommitLog(r.graph) - withoutCommitLog(r.nodesOnly);
  const vectorData = withoutCommitLog(r.vectorStore);
  const dbs = Object.entries(r.graph.dbs)
    .filter(([, b]) => b > 0)
    .map(([name, b]) => `${name} ${mb(b)}`)
    .join(", ");
  return [
    `Storage (store format ${String(r.format)}; bulk path; ${r.nodes.toLocaleString("en-US")} nodes, ${r.edges.toLocaleString("en-US")} edges without properties):`,
    `  bytes per node            ${per(r.nodesOnly.usedBytes, r.nodes)} used, ${per(withoutCommitLog(r.nodesOnly), r.nodes)} without the commit log (nodes-only store: ${mb(r.nodesOnly.usedBytes)} used, data file ${mb(r.nodesOnly.fileBytes)})`,
    `  bytes per edge            ${per(edgeData, r.edges)} in the graph's databases (target ≤ 120); ${per(edgeBytes, r.edges)} with the import's commit-log entry; whole store / edges ${per(r.graph.usedBytes, r.edges)}`,
    `  graph store               ${mb(r.graph.usedBytes)} used, data file ${mb(r.graph.fileBytes)}: ${dbs}`,
    `  bytes per 128-d vector    ${per(vectorData, r.vectors)} in LMDB without the commit log (${per(r.vectorStore.usedBytes, r.vectors)} with it) + ${per(r.vectorStore.hnswBytes, r.vectors)} in the HNSW files (${r.vectors.toLocaleString("en-US")} vectors)`,
    `  RSS under 2-hop load      ${r.load.maxRssMb.toFixed(0)} MB peak (target ≤ 400 MB): anonymous ${r.load.maxAnonMb.toFixed(0)} MB, file-backed ${r.load.maxFileMb.toFixed(0)} MB (mostly data.mdb pages); ${r.load.baseRssMb.toFixed(0)} MB before the store opened; V8 heap ${r.load.heapUsedMb.toFixed(0)} MB used, ${r.load.cacheEntries.toLocaleString("en-US")} read-cache entries; ${r.load.traversals.toLocaleString("en-US")} traversals in ${r.load.seconds.toFixed(1)} s`,
  ].join("\n");
}

// `node dist/bench/storage.js [nodes] [vectors]` runs only this bench.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const nodes = Number(process.argv[2] ?? 100_000);
  const vectors = Number(process.argv[3] ?? 20_000);
  const root = fs.mkdtempSync(join(process.env.TMPDIR ?? "/tmp", "strand-storage-"));
  try {
    const log = (line: string) => process.stderr.write(`${line}\n`);
    const r = await runStorageBench({ root, nodes, degree: 10, vectors, loadTraversals: 30_000, seed: 42, log });
    process.stdout.write(`${renderStorage(r)}\nBENCH_STORAGE_JSON ${JSON.stringify(r)}\n`);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}
