// Data in and out (issue 12), side by side in one run (bench/README.md, "Data"):
//   - import of `nodes` Items (one INDEX field, one String field) and `degree` × nodes Links from
//     one JSON Lines file (runtime/data/import.ts, as `strand import` runs it) against a raw
//     lmdb loop putting the same number of keys (msgpack records) in one transaction;
//   - export of that store (records/s and the exporting process's peak RSS, in a child process);
//   - FOR-loop edge ingest over HTTP (`POST /AddLinks`, bench/for-ingest.ts), against an older
//     build side by side when one is given;
//   - vector import with the HNSW index built once, against raw hnswlib-node (data-vectors.ts).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { open } from "lmdb";
import { silentProgress } from "../core/progress.js";
import type { SchemaDescriptor } from "../core/schema.js";
import { importFileOf, importFiles } from "../runtime/data/import.js";
import { forEachFileLine } from "../runtime/data/lines.js";
import { GraphStore } from "../runtime/graph-store.js";
import { uuidv7 } from "../runtime/store/ids.js";
import { renderVectorImport, runVectorImport, type VectorImportResult } from "./data-vectors.js";
import { openDurableSqlite } from "./sqlite.js";
import { DATA_PROJECT, runForIngest, type ForIngestOptions, type ForIngestResult, type IngestRun } from "./for-ingest.js";
import { structuresFloor } from "./import-floor.js";
import { benchSchema } from "./project.js";
import { randomIndex, seededRandom } from "./random.js";

const EXPORT_CHILD = fileURLToPath(new URL("./export-child.js", import.meta.url));

export interface DataBenchOptions {
  root: string;
  nodes: number;
  degree: number;
  /** Edges per FOR-loop request, and how many edges the HTTP ingest writes in all. */
  forBatch: number;
  forEdges: number;
  /** Requests in flight, one FOR-loop ingest per value (1: one at a time). */
  forInFlight: readonly number[];
  /** Other builds' strand.js for the FOR-loop ingest side by side (none: this build only). */
  baselines: readonly string[];
  /** Vectors (dimension 128) of the vector import; 0 skips it. */
  vectors: number;
  seed: number;
  log: (line: string) => void;
}

/** One export in a child process (export-child.ts). */
interface ExportRun {
  records: number;
  ms: number;
  /** The export process's CPU time (user + system). */
  cpuMs: number;
  maxRssMb: number;
  maxAnonMb: number;
}

export interface DataBenchResult {
  nodes: number;
  edges: number;
  importMs: number;
  floorMs: number;
  importCpuMs: number;
  floorCpuMs: number;
  /** The file parsed and the import's lookups put plainly (import-floor.ts), best of the rounds. */
  structuresMs: number;
  structuresCpuMs: number;
  /** The same file into SQLite in one transaction (sqliteImport), best of the rounds. */
  sqliteMs: number;
  sqliteCpuMs: number;
  /** Kuzu's COPY FROM CSV of the same records (kuzuCopy), best of the rounds. */
  kuzuMs: number;
  kuzuCpuMs: number;
  /** Reading the file and JSON.parse of every line, nothing stored (best of the rounds). */
  parseMs: number;
  /** The edges' file imported alone into a store the nodes' file was imported into before (a second import). */
  laterEdgesMs: number;
  export: ExportRun;
  /** The same export of a store of about 1% of the records: memory must not grow with the data. */
  smallExport: ExportRun;
  dataFileMb: number;
  /** One per value of forInFlight, in that order, then random sources into the nodes alone and into a store holding the edges. */
  forIngest: ForIngestResult[];
  vectors: VectorImportResult | null;
}

/** The JSON Lines files: nodes then edges (grouped by source node, as an export lists them). */
function writeInput(
  options: DataBenchOptions,
  prefix = "data",
): { all: string; nodesOnly: string; edgesOnly: string; ids: string[]; records: object[] } {
  const random = seededRandom(options.seed);
  const ids = Array.from({ length: options.nodes }, () => uuidv7());
  const nodeLines: string[] = [];
  const records: object[] = [];
  for (let i = 0; i < options.nodes; i++) {
    const rec = { kind: "N", label: "Item", id: ids[i], group: `g${i % 1000}`, name: `item ${i} of group ${i % 1000}` };
    nodeLines.push(JSON.stringify(rec));
    records.push(rec);
  }
  const nodesOnly = join(options.root, `${prefix}-nodes.jsonl`);
  fs.writeFileSync(nodesOnly, `${nodeLines.join("\n")}\n`);
  const all = join(options.root, `${prefix}-all.jsonl`);
  fs.copyFileSync(nodesOnly, all);
  const edgesOnly = join(options.root, `${prefix}-edges.jsonl`);
  fs.writeFileSync(edgesOnly, "");
  let edgeLines: string[] = [];
  for (let i = 0; i < options.nodes; i++) {
    for (let k = 0; k < options.degree; k++) {
      const rec = { kind: "E", label: "Link", id: uuidv7(), from: ids[i], to: ids[randomIndex(random, options.nodes)] };
      edgeLines.push(JSON.stringify(rec));
      records.push(rec);
    }
    if (edgeLines.length >= 100_000) {
      fs.appendFileSync(all, `${edgeLines.join("\n")}\n`);
      fs.appendFileSync(edgesOnly, `${edgeLines.join("\n")}\n`);
      edgeLines = [];
    }
  }
  if (edgeLines.length > 0) {
    fs.appendFileSync(all, `${edgeLines.join("\n")}\n`);
    fs.appendFileSync(edgesOnly, `${edgeLines.join("\n")}\n`);
  }
  return { all, nodesOnly, edgesOnly, ids, records };
}

/** Wall and CPU (user + system) milliseconds of fn; on a shared machine CPU time is the steadier figure. */
async function timed(fn: () => unknown): Promise<{ ms: number; cpuMs: number }> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await fn();
  const cpu = process.cpuUsage(cpu0);
  return { ms: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000 };
}

/**
 * Reading the file's lines and JSON.parse of each, nothing stored: work any import of the file
 * does besides the floor's puts (the floor is timed on records already in memory).
 */
function parseEveryLine(file: string): number {
  let kinds = 0;
  forEachFileLine(
    file,
    () => {},
    (text) => {
      if ((JSON.parse(text) as { kind: string }).kind === "E") kinds++;
    },
  );
  return kinds;
}

/** Imports the nodes, closes the store, and times a second import of the edges alone (ms). */
async function importEdgesLater(schema: SchemaDescriptor, dir: string, nodes: string, edges: string): Promise<number> {
  const first = GraphStore.open({ path: dir, schema });
  await importFiles(first, [importFileOf(nodes)], { skipBad: false, progress: silentProgress });
  await first.close();
  const store = GraphStore.open({ path: dir, schema });
  const run = await timed(() => importFiles(store, [importFileOf(edges)], { skipBad: false, progress: silentProgress }));
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
  return run.ms;
}

/**
 * The peer: the same JSON Lines file into SQLite (better-sqlite3, WAL, synchronous=FULL) in one
 * transaction, read and parsed inside the timing as the import does, keyed as a SQLite user would
 * key it (INTEGER PRIMARY KEY, each record's UUID in a unique column, a JS map from UUID to row
 * for the links), with what Strand's import also writes: the INDEX field's index and the links
 * indexed from both ends (its two adjacency directions). Indexes exist before the rows, as
 * Strand's are kept up to date during its import.
 */
async function sqliteImport(file: string, path: string): Promise<{ ms: number; cpuMs: number }> {
  const db = await openDurableSqlite(path);
  db.exec(`CREATE TABLE items (id INTEGER PRIMARY KEY, uuid TEXT NOT NULL UNIQUE, grp TEXT NOT NULL, name TEXT NOT NULL);
           CREATE INDEX items_grp ON items (grp);
           CREATE TABLE links (id INTEGER PRIMARY KEY, uuid TEXT NOT NULL UNIQUE, src INTEGER NOT NULL, dst INTEGER NOT NULL);
           CREATE INDEX links_src ON links (src);
           CREATE INDEX links_dst ON links (dst);`);
  const addItem = db.prepare("INSERT INTO items (uuid, grp, name) VALUES (?, ?, ?)");
  const addLink = db.prepare("INSERT INTO links (uuid, src, dst) VALUES (?, ?, ?)");
  const rows = new Map<string, number>();
  const run = await timed(() =>
    db.transaction(() => {
      let next = 1;
      forEachFileLine(
        file,
        () => {},
        (text) => {
          const r = JSON.parse(text) as { kind: string; id: string; group?: string; name?: string; from?: string; to?: string };
          if (r.kind === "N") {
            addItem.run(r.id, r.group, r.name);
            rows.set(r.id, next++);
          } else addLink.run(r.id, rows.get(r.from!), rows.get(r.to!));
        },
      );
    })(),
  );
  db.close();
  return run;
}

/**
 * Kuzu's bulk load (COPY FROM CSV), the other peer issue 32 item 4 names: the same records written
 * as two CSV files first (untimed: COPY reads CSV, not our JSON Lines), then both COPY statements
 * timed, in this process (Kuzu works on every core; CPU time counts them all).
 */
async function kuzuCopy(records: readonly object[], root: string): Promise<{ ms: number; cpuMs: number }> {
  let kuzu: typeof import("kuzu").default;
  try {
    kuzu = (await import("kuzu")).default;
  } catch (error) {
    throw new Error(
      `the Kuzu comparison needs kuzu, which npm ci leaves out: run \`node scripts/bench-peers.mjs\` (npm run bench does) (${(error as Error).message})`,
    );
  }
  const nodesCsv = join(root, "kuzu-nodes.csv");
  const edgesCsv = join(root, "kuzu-edges.csv");
  const nodeLines: string[] = [];
  const edgeLines: string[] = [];
  for (const rec of records) {
    const r = rec as { kind: string; id: string; group?: string; name?: string; from?: string; to?: string };
    if (r.kind === "N") nodeLines.push(`${r.id},${r.group},${r.name}`);
    else edgeLines.push(`${r.from},${r.to},${r.id}`);
  }
  fs.writeFileSync(nodesCsv, `${nodeLines.join("\n")}\n`);
  fs.writeFileSync(edgesCsv, `${edgeLines.join("\n")}\n`);
  const dir = join(root, "kuzu-db");
  const db = new kuzu.Database(dir);
  const conn = new kuzu.Connection(db);
  try {
    await conn.query("CREATE NODE TABLE Item(id STRING, grp STRING, name STRING, PRIMARY KEY(id))");
    await conn.query("CREATE REL TABLE Link(FROM Item TO Item, id STRING)");
    return await timed(async () => {
      await conn.query(`COPY Item FROM '${nodesCsv}'`);
      await conn.query(`COPY Link FROM '${edgesCsv}'`);
    });
  } finally {
    await conn.close();
    await db.close();
    for (const path of [nodesCsv, edgesCsv, dir]) fs.rmSync(path, { recursive: true, force: true });
  }
}

/** The floor: the same number of keys, msgpack records keyed [label, id], in one transaction. */
function rawLmdbLoad(dir: string, records: readonly object[]): { ms: number; cpuMs: number } {
  const env = open({ path: dir, noSubdir: false });
  // Plain msgpack maps, as Strand's record databases (runtime/store/dbs.ts).
  const plainMaps: object = { encoder: { useRecords: false } };
  const db = env.openDB<object, string[]>({ name: "records", ...plainMaps });
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  env.transactionSync(() => {
    for (const rec of records) {
      const r = rec as { label: string; id: string };
      db.putSync([r.label, r.id], rec);
    }
  });
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  void env.close();
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000 };
}

export async function runDataBench(options: DataBenchOptions): Promise<DataBenchResult> {
  const schema = benchSchema(DATA_PROJECT);
  const edges = options.nodes * options.degree;
  const input = writeInput(options);
  options.log(`data: wrote ${options.nodes.toLocaleString("en-US")} nodes + ${edges.toLocaleString("en-US")} edges as JSON Lines`);

  // Floor and import alternate twice; each side's best run counts (the machine is shared).
  const importDirs = [join(options.root, "import-a"), join(options.root, "import-b")];
  let importMs = Number.POSITIVE_INFINITY;
  let floorMs = Number.POSITIVE_INFINITY;
  let importCpuMs = Number.POSITIVE_INFINITY;
  let floorCpuMs = Number.POSITIVE_INFINITY;
  let parseMs = Number.POSITIVE_INFINITY;
  let sqliteMs = Number.POSITIVE_INFINITY;
  let sqliteCpuMs = Number.POSITIVE_INFINITY;
  let kuzuMs = Number.POSITIVE_INFINITY;
  let kuzuCpuMs = Number.POSITIVE_INFINITY;
  let structuresMs = Number.POSITIVE_INFINITY;
  let structuresCpuMs = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 2; round++) {
    parseMs = Math.min(parseMs, (await timed(() => parseEveryLine(input.all))).ms);
    const sqlitePath = join(options.root, `sqlite-${round}.db`);
    const sqlite = await sqliteImport(input.all, sqlitePath);
    sqliteMs = Math.min(sqliteMs, sqlite.ms);
    sqliteCpuMs = Math.min(sqliteCpuMs, sqlite.cpuMs);
    for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(`${sqlitePath}${suffix}`, { force: true });
    const copied = await kuzuCopy(input.records, options.root);
    kuzuMs = Math.min(kuzuMs, copied.ms);
    kuzuCpuMs = Math.min(kuzuCpuMs, copied.cpuMs);
    const floorDir = join(options.root, `floor-${round}`);
    const floor = rawLmdbLoad(floorDir, input.records);
    floorMs = Math.min(floorMs, floor.ms);
    floorCpuMs = Math.min(floorCpuMs, floor.cpuMs);
    fs.rmSync(floorDir, { recursive: true, force: true });
    const structures = structuresFloor(floorDir, input.all);
    structuresMs = Math.min(structuresMs, structures.ms);
    structuresCpuMs = Math.min(structuresCpuMs, structures.cpuMs);
    fs.rmSync(floorDir, { recursive: true, force: true });
    const dir = importDirs[round]!;
    const store = GraphStore.open({ path: dir, schema });
    const run = await timed(() => importFiles(store, [importFileOf(input.all)], { skipBad: false, progress: silentProgress }));
    importMs = Math.min(importMs, run.ms);
    importCpuMs = Math.min(importCpuMs, run.cpuMs);
    await store.close();
    options.log(
      `data: round ${round + 1}: import ${(importMs / 1000).toFixed(2)} s best, raw lmdb floor ${(floorMs / 1000).toFixed(2)} s best`,
    );
  }
  fs.rmSync(importDirs[1]!, { recursive: true, force: true });
  const laterEdgesMs = await importEdgesLater(schema, join(options.root, "import-later"), input.nodesOnly, input.edgesOnly);
  options.log(`data: the edges alone into a store holding the nodes: ${(laterEdgesMs / 1000).toFixed(2)} s`);

  const dataFileMb = fs.statSync(join(importDirs[0]!, "data.mdb")).size / 2 ** 20;
  const exported = exportInChild(importDirs[0]!, join(options.root, "export.jsonl"));
  options.log(
    `data: export ${exported.records} records in ${(exported.ms / 1000).toFixed(2)} s, peak RSS ${exported.maxRssMb.toFixed(0)} MB`,
  );
  fs.rmSync(importDirs[0]!, { recursive: true, force: true });

  // The same export of a store 1% the size, for the memory comparison.
  const small = writeInput({ ...options, nodes: Math.max(100, Math.round(options.nodes / 100)) }, "small");
  const smallDir = join(options.root, "import-small");
  const smallStore = GraphStore.open({ path: smallDir, schema });
  await importFiles(smallStore, [importFileOf(small.all)], { skipBad: false, progress: silentProgress });
  await smallStore.close();
  const smallExport = exportInChild(smallDir, join(options.root, "export-small.jsonl"));
  fs.rmSync(smallDir, { recursive: true, force: true });

  // Each source's edges together at every --for-in-flight; then issue 32 item 3's two harder
  // cases, one request at a time: every source random, into the nodes alone and into a store
  // already holding the import's edges (1M at --data-nodes 100000).
  const ingestCases: Pick<ForIngestOptions, "concurrency" | "sources" | "prefillFile" | "prefilledEdges">[] = [
    ...options.forInFlight.map((concurrency) => ({ concurrency })),
    { concurrency: 1, sources: "random" },
    { concurrency: 1, sources: "random", prefillFile: input.all, prefilledEdges: edges },
  ];
  const forIngest: ForIngestResult[] = [];
  for (const ingestCase of ingestCases) {
    forIngest.push(
      await runForIngest({
        root: options.root,
        nodesFile: input.nodesOnly,
        ids: input.ids,
        batch: options.forBatch,
        edges: Math.min(options.forEdges, edges),
        degree: options.degree,
        seed: options.seed,
        baselines: options.baselines,
        log: options.log,
        ...ingestCase,
      }),
    );
  }
  const vectors =
    options.vectors > 0
      ? await runVectorImport({ root: options.root, count: options.vectors, dim: 128, seed: options.seed, log: options.log })
      : null;
  return {
    nodes: options.nodes,
    edges,
    importMs,
    floorMs,
    importCpuMs,
    floorCpuMs,
    structuresMs,
    structuresCpuMs,
    sqliteMs,
    sqliteCpuMs,
    kuzuMs,
    kuzuCpuMs,
    parseMs,
    laterEdgesMs,
    export: exported,
    smallExport,
    dataFileMb,
    forIngest,
    vectors,
  };
}

/** `withTarget`: the row issue 32's 160 B per edge is for (edges written online into nodes alone). */
function cpuPerEdge(run: IngestRun, withTarget = true): string {
  const disk = `, data directory +${Math.round(run.diskBytesPerEdge)} B/edge${withTarget ? " (target ≤ 160)" : ""}, requests p99 ${run.requestP99Ms.toFixed(1)} ms, slowest ${run.slowestRequestMs.toFixed(1)} ms`;
  return run.serverCpuUsPerEdge === null ? disk : `, server CPU ${run.serverCpuUsPerEdge.toFixed(1)} µs/edge${disk}`;
}

function exportInChild(dir: string, out: string): ExportRun {
  const run = JSON.parse(execFileSync(process.execPath, [EXPORT_CHILD, dir, out], { encoding: "utf8" })) as ExportRun;
  fs.rmSync(out, { force: true });
  return run;
}

/**
 * What issue 32 item 3 measured before it for this kind of ingest (server CPU µs per edge) and
 * its target, 3x the edges per CPU second; the ordered row keeps issue 12's.
 */
function issueTarget(ingest: ForIngestResult): string {
  const cpu = ingest.current.serverCpuUsPerEdge;
  const row = (before: string, limitUs: number): string =>
    `; issue 32 measured ${before} µs/edge of server CPU (target ≤ ${limitUs}${cpu === null ? "" : `: ${cpu <= limitUs ? "PASS" : "MISS"}`})`;
  if (ingest.sources === "ordered") return "; the issue measured ≈21 µs/edge before it (target ≤ 7)";
  return ingest.prefilledEdges > 0 ? row("91-117 into 1M edges", 30) : row("60-73", 20);
}

/** The FOR-loop ingest's lines: this build, then each baseline with its ratio (the target is for one request at a time). */
function renderForIngest(ingest: ForIngestResult): string[] {
  const n = (x: number) => Math.round(x).toLocaleString("en-US");
  const sequential = ingest.concurrency === 1;
  const target = (ratio: number) => (sequential ? ` (target ≥ 3x: ${ratio >= 3 ? "PASS" : "MISS"})` : "");
  const flight = `${sequential ? "one request at a time" : `${ingest.concurrency} requests in flight`}${
    ingest.sources === "random" ? ", random sources" : ""
  }${ingest.prefilledEdges > 0 ? `, into a store of ${n(ingest.prefilledEdges)} edges` : ""}`;
  const requestMs = (run: IngestRun) => (ingest.batch / run.edgesPerSecond) * 1000;
  // What 3x leaves per edge: a third of the baseline's request time, less the fixed cost of any request.
  const budget = (base: IngestRun) => {
    const allowed = requestMs(base) / 3;
    const perEdgeUs = ((allowed - ingest.current.oneEdgeMs) * 1000) / ingest.batch;
    return `  request time              this build ${requestMs(ingest.current).toFixed(1)} ms per ${ingest.batch} edges, ${ingest.current.oneEdgeMs.toFixed(1)} ms for one edge (median; HTTP both ways, commit, sync); baseline ${requestMs(base).toFixed(1)} / ${base.oneEdgeMs.toFixed(1)} ms; 3x means ${allowed.toFixed(1)} ms per ${ingest.batch} edges: ${perEdgeUs > 0 ? `${perEdgeUs.toFixed(1)} µs per edge beyond the one-edge request` : "less than a one-edge request takes"}`;
  };
  return [
    `  FOR-loop edge ingest HTTP ${n(ingest.current.edgesPerSecond)} edges/s = ${(1e6 / ingest.current.edgesPerSecond).toFixed(1)} µs/edge (${n(ingest.edges)} edges, ${ingest.batch} per request, ${flight})${cpuPerEdge(ingest.current, ingest.prefilledEdges === 0)}${sequential ? `; a one-edge request ${ingest.current.oneEdgeMs.toFixed(1)} ms (median)${issueTarget(ingest)}` : ""}`,
    ...(ingest.baselines.length === 0
      ? ["  (no baseline build: --data-baseline <old build's dist/cli/strand.js>[,..] measures the ratio)"]
      : ingest.baselines.map((run) => {
          const ratio = ingest.current.edgesPerSecond / run.edgesPerSecond;
          return `  baseline build, same run  ${n(run.edgesPerSecond)} edges/s (${run.cli})${cpuPerEdge(run)} → ${ratio.toFixed(2)}x${target(ratio)}`;
        })),
    ...(sequential && ingest.baselines.length > 0 ? [budget(ingest.baselines[0]!)] : []),
  ];
}

export function renderData(r: DataBenchResult): string {
  const n = (x: number) => Math.round(x).toLocaleString("en-US");
  const verdict = (ok: boolean) => (ok ? "PASS" : "MISS");
  const records = r.nodes + r.edges;
  const importRatio = r.importMs / r.floorMs;
  const exportRate = r.export.records / (r.export.ms / 1000);
  const full = r.nodes >= 100_000;
  return [
    `Data in and out (${n(r.nodes)} nodes + ${n(r.edges)} edges, one INDEX and one String field):`,
    `  import (one JSONL file)   ${(r.importMs / 1000).toFixed(2)} s  ${n(records / (r.importMs / 1000))} records/s  (target ≤ 3 s at 100k + 1M${full ? `: ${verdict(r.importMs <= 3000)}` : ""})`,
    `  raw lmdb, same keys       ${(r.floorMs / 1000).toFixed(2)} s  → import / floor ${importRatio.toFixed(2)}x (target ≤ 3x: ${verdict(importRatio <= 3)}; records only, parsed before the timing)`,
    `  raw lmdb, same lookups    ${(r.structuresMs / 1000).toFixed(2)} s wall, ${(r.structuresCpuMs / 1000).toFixed(2)} s CPU (the file parsed inside; records, the INDEX, edges under both ends, put in the file's order: not sorted, so not a lower bound) → import CPU / that ${(r.importCpuMs / r.structuresCpuMs).toFixed(2)}x`,
    `  read + JSON.parse alone   ${(r.parseMs / 1000).toFixed(2)} s (the file's lines, nothing stored); floor + that ${((r.floorMs + r.parseMs) / 1000).toFixed(2)} s`,
    `  edges into a store with the nodes  ${(r.laterEdgesMs / 1000).toFixed(2)} s, ${((r.laterEdgesMs * 1000) / r.edges).toFixed(1)} µs per edge (a second import: the stored ids read into its table first)`,
    `  CPU time (user + system)  import ${(r.importCpuMs / 1000).toFixed(2)} s, floor ${(r.floorCpuMs / 1000).toFixed(2)} s → ${(r.importCpuMs / r.floorCpuMs).toFixed(2)}x`,
    `  SQLite, one transaction    ${(r.sqliteMs / 1000).toFixed(2)} s wall, ${(r.sqliteCpuMs / 1000).toFixed(2)} s CPU (same file parsed, integer keys, links indexed both ways) → import CPU / SQLite ${(r.importCpuMs / r.sqliteCpuMs).toFixed(2)}x (target ≤ 2.5x: ${verdict(r.importCpuMs / r.sqliteCpuMs <= 2.5)})`,
    `  Kuzu COPY FROM CSV         ${(r.kuzuMs / 1000).toFixed(2)} s wall, ${(r.kuzuCpuMs / 1000).toFixed(2)} s CPU (the same records as two CSV files, written before the timing) → import CPU / Kuzu ${(r.importCpuMs / r.kuzuCpuMs).toFixed(2)}x`,
    `  export                    ${(r.export.ms / 1000).toFixed(2)} s  ${n(exportRate)} records/s (target ≥ 200k/s: ${verdict(exportRate >= 200_000)}), one read transaction; ${n(r.export.records / (r.export.cpuMs / 1000))} records per CPU second`,
    `  export memory             ${n(r.smallExport.records)} records: peak anonymous ${n(r.smallExport.maxAnonMb)} MB (RSS ${n(r.smallExport.maxRssMb)} MB); ${n(r.export.records)} records: peak anonymous ${n(r.export.maxAnonMb)} MB (RSS ${n(r.export.maxRssMb)} MB, counting ${n(r.dataFileMb)} MB of data.mdb mapped)`,
    ...r.forIngest.flatMap(renderForIngest),
    ...(r.vectors === null ? [] : [renderVectorImport(r.vectors)]),
  ].join("\n");
}
