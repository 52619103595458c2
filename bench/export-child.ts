// Run as a child process by bench/data.ts: `strand export`'s runtime function on a data
// directory, writing to a file, in a fresh process so its peak memory is the export's own.
// Prints one JSON line {records, ms, maxRssMb, maxAnonMb}: peak RSS counts the pages of data.mdb
// the export read through LMDB's memory map (page cache, which grows with the data read), peak
// anonymous RSS (sampled at every chunk, Linux) the process's own memory, which must stay flat.
import fs from "node:fs";
import { once } from "node:events";
import { silentProgress } from "../core/progress.js";
import { exportDataDir } from "../runtime/data/export.js";

/** RssAnon of /proc/self/status in MB, or 0 where there is none. */
function anonRssMb(): number {
  try {
    const match = /RssAnon:\s+(\d+) kB/.exec(fs.readFileSync("/proc/self/status", "utf8"));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

const [dir, out] = process.argv.slice(2);
if (dir === undefined || out === undefined) throw new Error("usage: export-child.js <data dir> <out file>");
const stream = fs.createWriteStream(out);
let maxAnonMb = anonRssMb();
const t0 = performance.now();
const counts = await exportDataDir(
  dir,
  async (chunk) => {
    if (!stream.write(chunk)) await once(stream, "drain");
    maxAnonMb = Math.max(maxAnonMb, anonRssMb());
  },
  silentProgress,
);
stream.end();
await once(stream, "finish");
const ms = performance.now() - t0;
if (typeof counts === "string") throw new Error(counts);
const records = counts.nodes + counts.vectors + counts.edges;
process.stdout.write(`${JSON.stringify({ records, ms, maxRssMb: process.resourceUsage().maxRSS / 1024, maxAnonMb })}\n`);
