// The front door's cost (issue 14): HTTP point reads and durable writes of this build against
// another build's `strand serve` (`--baseline <its dist/cli/strand.js>`, e.g. the commit before
// the front-door thread), side by side in one run, alternating which goes first each round
// (http-bench.ts). Both serve bench/project over copies of one filled data directory.
//   node dist/bench/front-door.js --baseline /tmp/before/dist/cli/strand.js [--duration 5] [--rounds 3]
// The ratio is this build / the baseline (requests per second); the CPU ratio is the baseline's
// server CPU per request / this build's (under 1: this build spends more per request).
import { cpSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { GraphStore } from "../runtime/graph-store.js";
import { cleanup, installCleanupHandlers, tempDir } from "./cleanup.js";
import { fillItems } from "./fill.js";
import { compareRoutes } from "./http-bench.js";
import { benchSchema } from "./project.js";
import { randomIndex, seededRandom } from "./random.js";
import { BENCH_PROJECT, startStrand } from "./servers.js";

const { values } = parseArgs({
  options: {
    baseline: { type: "string" },
    duration: { type: "string", default: "5" },
    warmup: { type: "string", default: "2" },
    rounds: { type: "string", default: "3" },
    connections: { type: "string", default: "32" },
    records: { type: "string", default: "100000" },
  },
});
if (values.baseline === undefined) {
  process.stderr.write(
    "usage: node dist/bench/front-door.js --baseline <another build's dist/cli/strand.js> [--duration s] [--rounds n]\n",
  );
  process.exit(2);
}
const log = (line: string): void => void process.stderr.write(`[front-door] ${line}\n`);
installCleanupHandlers();
try {
  const root = tempDir("strand-bench-front-door-");
  const thisDir = join(root, "this");
  const baseDir = join(root, "baseline");
  mkdirSync(thisDir);
  const records = Number(values.records);
  const store = GraphStore.open({ path: thisDir, schema: benchSchema(BENCH_PROJECT) });
  let ids: string[];
  try {
    ids = await fillItems(store, records);
  } finally {
    await store.close();
  }
  cpSync(thisDir, baseDir, { recursive: true });
  const current = await startStrand(thisDir, null);
  const baseline = await startStrand(baseDir, null, BENCH_PROJECT, values.baseline);
  log(`this build ${current.url} (pid ${current.child.pid}), baseline ${baseline.url} (pid ${baseline.child.pid})`);
  const random = seededRandom(7);
  const read = (url: string, pid: number | undefined) => ({
    url: `${url}/GetItem`,
    pid,
    bodies: () => JSON.stringify({ id: ids[randomIndex(random, ids.length)] }),
  });
  let written = 0;
  const write = (url: string, pid: number | undefined) => ({
    url: `${url}/AddItem`,
    pid,
    bodies: () => JSON.stringify({ name: `written ${written}`, n: written++ }),
  });
  const comparisons = await compareRoutes(
    [
      {
        key: "read",
        title: "HTTP point read",
        strand: read(current.url, current.child.pid),
        floor: read(baseline.url, baseline.child.pid),
      },
      {
        key: "write",
        title: "HTTP durable write",
        strand: write(current.url, current.child.pid),
        floor: write(baseline.url, baseline.child.pid),
      },
    ],
    {
      connections: Number(values.connections),
      durationSeconds: Number(values.duration),
      warmupSeconds: Number(values.warmup),
      rounds: Number(values.rounds),
      log,
    },
  );
  for (const c of comparisons) {
    const side = (s: typeof c.strand): string =>
      `${Math.round(s.requestsPerSec)} req/s, p50 ${s.p50Ms} ms, p99 ${s.p99Ms} ms, ${s.cpuUsPerRequest?.toFixed(0) ?? "?"} us CPU/req`;
    console.log(`${c.title}: this build ${side(c.strand)} | baseline ${side(c.floor)}`);
    console.log(
      `  ratio this/baseline ${c.ratio.toFixed(3)} (rounds ${c.roundRatios.map((r) => r.toFixed(3)).join(" ")}), CPU ratio ${c.cpuRatio?.toFixed(3) ?? "?"}${c.valid ? "" : " (INVALID: errors or non-2xx)"}`,
    );
  }
  console.log(
    `BENCH_FRONT_DOOR_JSON ${JSON.stringify(comparisons.map(({ key, ratio, roundRatios, cpuRatio, valid, strand, floor }) => ({ key, ratio, roundRatios, cpuRatio, valid, rps: [strand.requestsPerSec, floor.requestsPerSec], cpuUs: [strand.cpuUsPerRequest, floor.cpuUsPerRequest] })))}`,
  );
} finally {
  await cleanup();
}
