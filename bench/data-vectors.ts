// Vector import (issue 12): `count` seeded unit vectors of dimension `dim` (vector-data.ts) as one
// JSON Lines file of `V::Vec {n}` records, imported by importFiles (what `strand import` runs:
// every record checked and stored, the HNSW index built once, after the commit, from the
// transaction's vector log), against raw hnswlib-node building the same index (same vectors in
// the same order, same M, ef_construction, metric and random seed, from arrays in memory). One
// run per side, the raw build first; wall and CPU time of each, vectors/s and their ratio.
import fs from "node:fs";
import { join } from "node:path";
import { silentProgress } from "../core/progress.js";
import { importFileOf, importFiles } from "../runtime/data/import.js";
import { GraphStore } from "../runtime/graph-store.js";
import { DEFAULT_VECTOR_OPTIONS } from "../runtime/vector/metric.js";
import { seededRandom } from "./random.js";
import { buildRawIndex } from "./vector.js";
import { unitVectors, vectorAt } from "./vector-data.js";
import { SEARCHED, vectorProjectSchema } from "./vector-project.js";

export interface VectorImportOptions {
  root: string;
  count: number;
  dim: number;
  seed: number;
  log: (line: string) => void;
}

export interface VectorImportResult {
  count: number;
  dim: number;
  importMs: number;
  importCpuMs: number;
  rawMs: number;
  rawCpuMs: number;
  /** Closing the store after the import (writes the HNSW files). */
  closeMs: number;
}

async function timed(fn: () => unknown): Promise<{ ms: number; cpuMs: number }> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await fn();
  const cpu = process.cpuUsage(cpu0);
  return { ms: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000 };
}

export async function runVectorImport(options: VectorImportOptions): Promise<VectorImportResult> {
  const set = unitVectors(seededRandom(options.seed + 7), options.count, options.dim);
  const file = join(options.root, "vectors.jsonl");
  const fd = fs.openSync(file, "w");
  try {
    let lines: string[] = [];
    for (let i = 0; i < set.count; i++) {
      lines.push(JSON.stringify({ kind: "V", label: SEARCHED, data: vectorAt(set, i), n: i }));
      if (lines.length === 10_000 || i === set.count - 1) {
        fs.writeSync(fd, `${lines.join("\n")}\n`);
        lines = [];
      }
    }
  } finally {
    fs.closeSync(fd);
  }
  options.log(`data: wrote ${set.count.toLocaleString("en-US")} vectors of dimension ${set.dim} as JSON Lines`);

  const raw = await timed(() => buildRawIndex(set, DEFAULT_VECTOR_OPTIONS));
  options.log(`data: raw hnswlib-node built the index in ${(raw.ms / 1000).toFixed(2)} s`);
  const dir = join(options.root, "vector-import");
  const store = GraphStore.open({ path: dir, schema: vectorProjectSchema() });
  let closeMs = 0;
  try {
    const run = await timed(() => importFiles(store, [importFileOf(file)], { skipBad: false, progress: silentProgress }));
    // The index answers: the last vector's nearest is itself.
    const last = set.count - 1;
    const hit = store.read((db) => db.searchVectors(SEARCHED, vectorAt(set, last), 1, null))[0];
    if (hit?.n !== last) throw new Error(`vector import: vector ${last}'s nearest is ${String(hit?.n)}, not itself`);
    options.log(`data: imported ${set.count} vectors in ${(run.ms / 1000).toFixed(2)} s`);
    const t0 = performance.now();
    await store.close();
    closeMs = performance.now() - t0;
    return { count: set.count, dim: set.dim, importMs: run.ms, importCpuMs: run.cpuMs, rawMs: raw.ms, rawCpuMs: raw.cpuMs, closeMs };
  } finally {
    if (closeMs === 0) await store.close().catch(() => {});
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(file, { force: true });
  }
}

export function renderVectorImport(r: VectorImportResult): string {
  const n = (x: number) => Math.round(x).toLocaleString("en-US");
  const strandRate = r.count / (r.importMs / 1000);
  const rawRate = r.count / (r.rawMs / 1000);
  return [
    `  vector import (${n(r.count)} x ${r.dim}) ${(r.importMs / 1000).toFixed(2)} s  ${n(strandRate)} vectors/s, HNSW built once (close, writing its files: ${(r.closeMs / 1000).toFixed(2)} s)`,
    `  raw hnswlib-node, same index  ${(r.rawMs / 1000).toFixed(2)} s  ${n(rawRate)} vectors/s → import / raw ${(strandRate / rawRate).toFixed(2)}x the rate (CPU ${(r.importCpuMs / r.rawCpuMs).toFixed(2)}x the time)`,
  ].join("\n");
}
