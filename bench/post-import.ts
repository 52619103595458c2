// Writes right after a bulk load (issue 16 item 6): `nodes` Items and `fanout` Links each are
// loaded through GraphStore.load (what `strand import` runs: one write transaction per file),
// then single durable writes follow (each: one AddN and one AddE from a random loaded Item to
// it), timed one by one in CPU time (user + system of this process) and wall time. Reported per
// block of `block` writes, with LMDB's free-page database (the freelist) before and after: the
// first block against the later ones is the slowdown. Runs on its own:
//   node dist/bench/post-import.js [--nodes 100000] [--fanout 10] [--blocks 3] [--block 1000]
//     [--edge-batch 0 (one load) | n (edges per load)] [--warmup 1000 (writes to another store first)]
//     [--reopen (close and open the store between the load and the writes)]
//     [--edge-writes (edge batches through store.write, as buildGraph does, instead of store.load)]
//     [--profile <dir> (a V8 CPU profile of each block: <dir>/block-<n>.cpuprofile)]
//     [--settle (GraphStore.settleFreeList() after the load, as `strand import` ends)]
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { RootDatabase } from "lmdb";
import { GraphStore } from "../runtime/graph-store.js";
import type { RecordLoader } from "../runtime/load/bulk-loader.js";
import { cleanup, installCleanupHandlers, tempDir } from "./cleanup.js";
import { itemProps } from "./fill.js";
import { benchSchema, ITEM, LINK } from "./project.js";
import { randomIndex, seededRandom } from "./random.js";
import { mean, quantileSorted } from "./stats.js";

export interface PostImportSettings {
  root: string;
  nodes: number;
  fanout: number;
  blocks: number;
  block: number;
  /** Edges per load transaction (one `strand import` file each); 0: nodes and edges in one load. */
  edgeBatch: number;
  /** Writes to a separate empty store first, so JIT warm-up is not counted as slowdown. */
  warmup: number;
  /** Edge batches through store.write (AddE, as the traversal bench builds its graph) instead of store.load. */
  edgeWrites: boolean;
  /** Write a V8 CPU profile of each block of writes here (block-<n>.cpuprofile), or null. */
  profileDir: string | null;
  /** GraphStore.settleFreeList() right after the load (what `strand import` does), before the timed writes. */
  settle: boolean;
  /** Close and reopen the store between the load and the writes (what a restart after import does). */
  reopen: boolean;
  seed: number;
  log: (line: string) => void;
}

/** LMDB's free-page database: how many freelist records and the pages they take. */
export interface FreeListStats {
  entries: number;
  leafPages: number;
  overflowPages: number;
  /** the file's last page number: the file grows only when no free page can be reused */
  lastPage: number;
}

/** CPU milliseconds of this process's threads by thread name (Linux /proc; {} elsewhere). */
function threadCpuMs(): Record<string, number> {
  const out: Record<string, number> = {};
  try {
    for (const tid of readdirSync("/proc/self/task")) {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
      // Threads an addon starts (lmdb's) inherit the name "node": the main thread is told apart by its id.
      const comm = stat
        .slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"))
        .replace(/[0-9]+$/, "")
        .trim();
      const name = Number(tid) === process.pid ? "main" : `${comm} (other)`;
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out[name] = (out[name] ?? 0) + (Number(fields[11]) + Number(fields[12])) * 10; // 100 ticks/s
    }
  } catch {
    return {};
  }
  return out;
}

/** Page faults of this process so far: minor (page in memory, not yet mapped) and major (read from disk). */
function pageFaults(): { minor: number; major: number } {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { minor: Number(fields[7]), major: Number(fields[9]) };
  } catch {
    return { minor: 0, major: 0 };
  }
}

function threadDelta(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, ms] of Object.entries(after)) if (ms - (before[name] ?? 0) > 0) out[name] = ms - (before[name] ?? 0);
  return out;
}

export interface WriteBlock {
  /** user and system CPU per write (cpuUsMean is their sum) */
  userUsMean: number;
  systemUsMean: number;
  /** page faults per write: minor (mapping a cached page) and major (a disk read) */
  minorFaults: number;
  majorFaults: number;
  /** CPU ms per thread over the block: "main", and the others by name (GC "V8 DefaultWorke", lmdb's "node", libuv's pool) */
  threads: Record<string, number>;
  writes: number;
  cpuUsMean: number;
  wallUsMean: number;
  wallUsP50: number;
  wallUsP99: number;
  freeAfter: FreeListStats;
}

export interface PostImportResult {
  nodes: number;
  edges: number;
  loadSeconds: number;
  freeBefore: FreeListStats;
  freeAfterLoad: FreeListStats;
  blocks: WriteBlock[];
  /** first block's CPU per write / the last block's */
  firstToLast: number;
}

function freeList(store: GraphStore): FreeListStats {
  // GraphStore keeps its environment private; its stats are what `strand stats` reads too.
  const env = (store as unknown as { dbs: { env: RootDatabase } }).dbs.env;
  const s = env.getStats() as { lastPageNumber: number; free: { entryCount: number; treeLeafPageCount: number; overflowPages: number } };
  return {
    entries: s.free.entryCount,
    leafPages: s.free.treeLeafPageCount,
    overflowPages: s.free.overflowPages,
    lastPage: s.lastPageNumber,
  };
}

/** The same kind of writes on an empty store of their own: the write path compiled and warm. */
async function warmUp(path: string, writes: number): Promise<void> {
  const store = GraphStore.open({ path, schema: benchSchema() });
  try {
    const first = await store.write((db) => db.addNode(ITEM, itemProps(0)).id);
    for (let i = 1; i < writes; i++) await store.write((db) => db.addEdge(LINK, {}, first, db.addNode(ITEM, itemProps(i)).id));
  } finally {
    await store.close();
  }
}

export async function runPostImport(settings: PostImportSettings): Promise<PostImportResult> {
  const random = seededRandom(settings.seed);
  const path = join(settings.root, "post-import");
  if (settings.warmup > 0) await warmUp(join(settings.root, "post-import-warmup"), settings.warmup);
  let store = GraphStore.open({ path, schema: benchSchema() });
  try {
    const freeBefore = freeList(store);
    const t0 = performance.now();
    const edges = settings.nodes * settings.fanout;
    const batch = settings.edgeBatch > 0 ? settings.edgeBatch : edges;
    const targets = Int32Array.from({ length: edges }, () => randomIndex(random, settings.nodes));
    const loadEdges = (loader: RecordLoader, ids: readonly string[], start: number): void => {
      for (let e = start; e < Math.min(edges, start + batch); e++) {
        loader.load({ kind: "E", label: LINK, from: ids[Math.floor(e / settings.fanout)]!, to: ids[targets[e]!]!, props: {} });
      }
    };
    const ids = await store.load((loader) => {
      const loaded: string[] = [];
      for (let i = 0; i < settings.nodes; i++) loaded.push(loader.load({ kind: "N", label: ITEM, props: itemProps(i) }).id);
      if (settings.edgeBatch === 0) loadEdges(loader, loaded, 0);
      return loaded;
    });
    if (settings.edgeBatch > 0)
      for (let start = 0; start < edges; start += batch) await store.load((loader) => loadEdges(loader, ids, start));
    const loadSeconds = (performance.now() - t0) / 1000;
    const freeAfterLoad = freeList(store);
    settings.log(
      `post-import: loaded ${settings.nodes.toLocaleString("en-US")} nodes and ${(settings.nodes * settings.fanout).toLocaleString("en-US")} edges in ${loadSeconds.toFixed(1)} s; freelist ${JSON.stringify(freeAfterLoad)}`,
    );
    if (settings.settle) {
      // What `strand import` does at its end (runtime/store/freelist-settle.ts).
      const c0 = process.cpuUsage();
      const t = performance.now();
      const commits = store.settleFreeList();
      const c = process.cpuUsage(c0);
      settings.log(
        `post-import: settleFreeList: ${commits} commits, ${((c.user + c.system) / 1000).toFixed(0)} ms CPU, ${(performance.now() - t).toFixed(0)} ms; freelist ${JSON.stringify(freeList(store))}`,
      );
    }
    if (settings.reopen) {
      await store.close();
      store = GraphStore.open({ path, schema: benchSchema() });
    }
    const blocks: WriteBlock[] = [];
    let n = settings.nodes;
    for (let b = 0; b < settings.blocks; b++) {
      const cpu = new Float64Array(settings.block);
      let user = 0;
      let system = 0;
      const wall = new Float64Array(settings.block);
      const session = settings.profileDir === null ? null : new Session();
      if (session !== null) {
        session.connect();
        await session.post("Profiler.enable");
        await session.post("Profiler.start");
      }
      const threads0 = threadCpuMs();
      const faults0 = pageFaults();
      for (let w = 0; w < settings.block; w++) {
        const from = ids[randomIndex(random, ids.length)]!;
        const i = n++;
        const c0 = process.cpuUsage();
        const t = performance.now();
        await store.write((db) => db.addEdge(LINK, {}, from, db.addNode(ITEM, itemProps(i)).id));
        wall[w] = (performance.now() - t) * 1000;
        const c = process.cpuUsage(c0);
        cpu[w] = c.user + c.system;
        user += c.user;
        system += c.system;
      }
      if (session !== null) {
        const { profile } = await session.post("Profiler.stop");
        writeFileSync(join(settings.profileDir!, `block-${b + 1}.cpuprofile`), JSON.stringify(profile));
        session.disconnect();
      }
      const faults = pageFaults();
      const sorted = Float64Array.from(wall).sort();
      const block: WriteBlock = {
        threads: threadDelta(threads0, threadCpuMs()),
        userUsMean: user / settings.block,
        systemUsMean: system / settings.block,
        minorFaults: (faults.minor - faults0.minor) / settings.block,
        majorFaults: (faults.major - faults0.major) / settings.block,
        writes: settings.block,
        cpuUsMean: mean(cpu),
        wallUsMean: mean(wall),
        wallUsP50: quantileSorted(sorted, 0.5),
        wallUsP99: quantileSorted(sorted, 0.99),
        freeAfter: freeList(store),
      };
      blocks.push(block);
      settings.log(
        `post-import: writes ${b * settings.block + 1}-${(b + 1) * settings.block}: CPU ${block.cpuUsMean.toFixed(0)} us (user ${block.userUsMean.toFixed(0)}, system ${block.systemUsMean.toFixed(0)}; page faults ${block.minorFaults.toFixed(1)} minor, ${block.majorFaults.toFixed(2)} major), wall ${block.wallUsMean.toFixed(0)} us (p50 ${block.wallUsP50.toFixed(0)}, p99 ${block.wallUsP99.toFixed(0)}) per write; freelist ${JSON.stringify(block.freeAfter)}; thread CPU ms ${JSON.stringify(block.threads)}`,
      );
    }
    return {
      nodes: settings.nodes,
      edges: settings.nodes * settings.fanout,
      loadSeconds,
      freeBefore,
      freeAfterLoad,
      blocks,
      firstToLast: blocks[0]!.cpuUsMean / blocks[blocks.length - 1]!.cpuUsMean,
    };
  } finally {
    await store.close();
  }
}

export function renderPostImport(r: PostImportResult): string {
  const lines = [
    `Single writes after a bulk load of ${r.nodes.toLocaleString("en-US")} nodes and ${r.edges.toLocaleString("en-US")} edges (GraphStore.load, ${r.loadSeconds.toFixed(1)} s); each write = AddN + AddE, durable`,
    "  writes         CPU us/write   wall us/write (p50, p99)    freelist after (records, leaf+overflow pages)",
  ];
  r.blocks.forEach((b, i) => {
    const range = `${i * b.writes + 1}-${(i + 1) * b.writes}`;
    lines.push(
      `  ${range.padEnd(13)}${b.cpuUsMean.toFixed(0).padStart(13)}   ${`${b.wallUsMean.toFixed(0)} (${b.wallUsP50.toFixed(0)}, ${b.wallUsP99.toFixed(0)})`.padEnd(26)}  ${b.freeAfter.entries}, ${b.freeAfter.leafPages}+${b.freeAfter.overflowPages}`,
    );
  });
  lines.push(`  first block / last block CPU per write: ${r.firstToLast.toFixed(2)}x`);
  return lines.join("\n");
}

// Run on its own (node dist/bench/post-import.js).
if (process.argv[1]?.endsWith("post-import.js")) {
  const { values } = parseArgs({
    options: {
      nodes: { type: "string" },
      fanout: { type: "string" },
      blocks: { type: "string" },
      block: { type: "string" },
      "edge-batch": { type: "string" },
      warmup: { type: "string" },
      reopen: { type: "boolean" },
      "edge-writes": { type: "boolean" },
      profile: { type: "string" },
      settle: { type: "boolean" },
    },
  });
  installCleanupHandlers();
  const log = (line: string): void => void process.stderr.write(`${line}\n`);
  runPostImport({
    root: tempDir("strand-post-import-"),
    nodes: Number(values.nodes ?? 100_000),
    fanout: Number(values.fanout ?? 10),
    blocks: Number(values.blocks ?? 3),
    block: Number(values.block ?? 1000),
    edgeBatch: Number(values["edge-batch"] ?? 0),
    warmup: Number(values.warmup ?? 1000),
    reopen: values.reopen === true,
    edgeWrites: values["edge-writes"] === true,
    profileDir: values.profile ?? null,
    settle: values.settle === true,
    seed: 42,
    log,
  })
    .then((r) => process.stdout.write(`${renderPostImport(r)}\nPOST_IMPORT_JSON ${JSON.stringify(r)}\n`))
    .finally(() => cleanup());
}
