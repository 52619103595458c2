// Run as a child process by bench/storage.ts: opens the 1M-edge store and runs the given number
// of random 2-hop traversals (`Out<Link>::Out<Link>` from a random Item, full records; at most
// MAX_SECONDS), in a fresh process so its memory is the store's own (plus node and the compiler that gave the
// schema, which `baseRssMb` shows: RSS before the store opened).
// A count, not a duration: what is resident depends on how much was read (30k traversals read
// every record and list of the 1M-edge store), and on a loaded machine 10 s covered 1k–60k.
// Prints one JSON line {maxRssMb, maxAnonMb, maxFileMb, baseRssMb, heapUsedMb, cacheEntries,
// traversals, seconds}. The peaks are sampled from /proc/self/status (VmHWM for the total, RssAnon and
// RssFile every 100 traversals): file-backed RSS is mostly the pages of data.mdb read through
// LMDB's memory map (page cache the kernel can drop), anonymous RSS is the process's own memory
// (V8 heap: decoded records, the read cache).
import fs from "node:fs";
import v8 from "node:v8";
import { GraphStore } from "../runtime/graph-store.js";
import { DATA_PROJECT } from "./for-ingest.js";
import { benchSchema } from "./project.js";
import { randomIndex, seededRandom } from "./random.js";

/** The named kB fields of /proc/self/status in MB (0 where there is none). */
function statusMb(): { rss: number; hwm: number; anon: number; file: number } {
  let status = "";
  try {
    status = fs.readFileSync("/proc/self/status", "utf8");
  } catch {
    // not Linux: only maxRSS below
  }
  const mb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024;
  return { rss: mb("VmRSS"), hwm: mb("VmHWM"), anon: mb("RssAnon"), file: mb("RssFile") };
}

const MAX_SECONDS = 300;

const [dir, count, seed, cache] = process.argv.slice(2);
if (dir === undefined || count === undefined)
  throw new Error("usage: storage-load-child.js <data dir> <traversals> [seed] [cache entries]");
const schema = benchSchema(DATA_PROJECT);
const baseRssMb = statusMb().rss;
const store = GraphStore.open({ path: dir, schema, ...(cache === undefined ? {} : { cacheEntries: Number(cache) }) });
const starts = store.read((db) => db.nodesByLabel("Item").map((n) => n.id));
const random = seededRandom(Number(seed ?? 42));
let maxAnonMb = 0;
let maxFileMb = 0;
const t0 = performance.now();
const end = t0 + MAX_SECONDS * 1000;
let traversals = 0;
while (traversals < Number(count) && performance.now() < end) {
  for (let i = 0; i < 100; i++) {
    const start = starts[randomIndex(random, starts.length)]!;
    store.read((db) => db.out(db.out([db.nodeById("Item", start)], "Link"), "Link"));
    traversals++;
  }
  const now = statusMb();
  maxAnonMb = Math.max(maxAnonMb, now.anon);
  maxFileMb = Math.max(maxFileMb, now.file);
}
const seconds = (performance.now() - t0) / 1000;
const heapUsedMb = v8.getHeapStatistics().used_heap_size / 2 ** 20;
const cacheEntries = store.cachedEntries;
await store.close();
const maxRssMb = Math.max(statusMb().hwm, process.resourceUsage().maxRSS / 1024);
process.stdout.write(`${JSON.stringify({ maxRssMb, maxAnonMb, maxFileMb, baseRssMb, heapUsedMb, cacheEntries, traversals, seconds })}\n`);
