// Run as a child process by bench/data.ts: `strand export`'s runtime function on a data
// directory, writing to a file, in a fresh process so its peak RSS is the export's own. Prints
// one JSON line {records, ms, maxRssMb}.
import fs from "node:fs";
import { once } from "node:events";
import { silentProgress } from "../core/progress.js";
import { exportDataDir } from "../runtime/data/export.js";

const [dir, out] = process.argv.slice(2);
if (dir === undefined || out === undefined) throw new Error("usage: export-child.js <data dir> <out file>");
const stream = fs.createWriteStream(out);
const t0 = performance.now();
const counts = await exportDataDir(
  dir,
  async (chunk) => {
    if (!stream.write(chunk)) await once(stream, "drain");
  },
  silentProgress,
);
stream.end();
await once(stream, "finish");
const ms = performance.now() - t0;
if (typeof counts === "string") throw new Error(counts);
const records = counts.nodes + counts.vectors + counts.edges;
process.stdout.write(`${JSON.stringify({ records, ms, maxRssMb: process.resourceUsage().maxRSS / 1024 })}\n`);
