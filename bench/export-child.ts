// Run as a child process by bench/data.ts: `strand export`'s runtime function on a data
// directory, writing to a file, in a fresh process so its peak memory is the export's own.
// Prints one JSON line {records, ms, cpuMs, maxRssMb, maxAnonMb}, peaks of RSS sampled at every
// chunk (Linux /proc; getrusage's maxRSS is no use here: a child inherits its parent's high-water
// mark). RSS counts the pages of data.mdb the export read through LMDB's memory map (page cache,
// which grows with the data read); anonymous RSS is the process's own memory, which must not.
import fs from "node:fs";
import { once } from "node:events";
import { silentProgress } from "../core/progress.js";
import { exportDataDir } from "../runtime/data/export.js";

/** VmRSS and RssAnon of /proc/self/status in MB (0 where there is none). */
function rssMb(): { rss: number; anon: number } {
  try {
    const status = fs.readFileSync("/proc/self/status", "utf8");
    const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024;
    return { rss: kb("VmRSS"), anon: kb("RssAnon") };
  } catch {
    return { rss: 0, anon: 0 };
  }
}

const [dir, out] = process.argv.slice(2);
if (dir === undefined || out === undefined) throw new Error("usage: export-child.js <data dir> <out file>");
const stream = fs.createWriteStream(out);
let maxRssMb = 0;
let maxAnonMb = 0;
const sample = (): void => {
  const now = rssMb();
  maxRssMb = Math.max(maxRssMb, now.rss);
  maxAnonMb = Math.max(maxAnonMb, now.anon);
};
sample();
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const counts = await exportDataDir(
  dir,
  // Resolves once the chunk is written (the export then reuses its memory).
  (chunk) =>
    new Promise<void>((resolve, reject) => {
      stream.write(chunk, (error) => (error ? reject(error) : resolve()));
      sample();
    }),
  silentProgress,
);
stream.end();
await once(stream, "finish");
const ms = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
if (typeof counts === "string") throw new Error(counts);
const records = counts.nodes + counts.vectors + counts.edges;
process.stdout.write(`${JSON.stringify({ records, ms, cpuMs: (cpu.user + cpu.system) / 1000, maxRssMb, maxAnonMb })}\n`);
