// /health latency while one worst-case request runs (issue 14: p99 ≤ 50 ms while any single
// request runs), part of `npm run bench` and runnable alone: `node dist/bench/health-stall.js
// [--rounds N]`. A `strand serve` child serves bench/stall-project over a store filled in process
// (a dense follow graph of 300 users who each follow 60, 20,000 items, 20,000 vectors). For each
// case one request (or the MCP call sequence) is sent from a separate process, so building and
// sending it cannot delay this process, while this process sends GET /health every 10 ms; p50, p99
// and max of those polls are reported next to a baseline with no big request, all in one run.
// Then engine fairness on the same server (fairness.ts).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { GraphStore } from "../runtime/graph-store.js";
import { MAX_BODY_VALUES } from "../server/http/json-shape.js";
import { benchSchema } from "./project.js";
import { seededRandom } from "./random.js";
import { captureOutput, CLI, REPO_ROOT } from "./servers.js";
import { type FairnessFigure, renderFairness, runFairness } from "./fairness.js";

const PROJECT = join(REPO_ROOT, "bench/stall-project");
const USERS = 300;
const FOLLOWS = 60;
const ITEMS = 20_000;
const VECTORS = 20_000;
const DIMENSION = 64;
const POLL_MS = 10;

/** One HTTP call of a case; `$conn` in a body is replaced by the id the case's `mcp/init` returned. */
interface Step {
  path: string;
  body: string;
}

export interface StallCase {
  name: string;
  steps: Step[];
}

export interface StallFigure {
  name: string;
  samples: number;
  p50: number;
  p99: number;
  max: number;
  /** Statuses of the big request's steps, and how long the whole case took (ms, median of rounds). */
  statuses: string;
  caseMs: number;
}

export interface StallResult {
  rounds: number;
  load: number[];
  figures: StallFigure[];
  /** Another client's cheap requests alone and while one address floods the engine (fairness.ts). */
  fairness: FairnessFigure | null;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function fill(dir: string): Promise<{ user: string }> {
  const random = seededRandom(14);
  const store = GraphStore.open({ path: dir, schema: benchSchema(PROJECT) });
  try {
    const users = await store.write((db) => Array.from({ length: USERS }, (_, i) => db.addNode("User", { name: `u${i}` }).id));
    await store.write((db) => {
      for (const from of users) for (let k = 0; k < FOLLOWS; k++) db.addEdge("Follows", {}, from, users[Math.floor(random() * USERS)]!);
    });
    for (let start = 0; start < ITEMS; start += 10_000)
      await store.write((db) => {
        for (let i = start; i < start + 10_000; i++) db.addNode("Item", { name: `item ${i}`, n: i });
      });
    for (let start = 0; start < VECTORS; start += 5_000)
      await store.write((db) => {
        for (let i = start; i < start + 5_000; i++)
          db.addVector(
            "Vec",
            Array.from({ length: DIMENSION }, () => random() - 0.5),
            { tag: `v${i}` },
          );
      });
    return { user: users[0]! };
  } finally {
    await store.close();
  }
}

function cases(user: string): StallCase[] {
  const mcp = (tool: string, data: unknown): Step => ({ path: `/mcp/${tool}`, body: JSON.stringify({ connection_id: "$conn", data }) });
  const step = mcp("out_step", { edge_type: "node", edge_label: "Follows" });
  const vector = JSON.stringify(Array.from({ length: DIMENSION }, (_, i) => (i % 7) / 7 - 0.5));
  return [
    { name: "no big request", steps: [] },
    {
      name: `body of ${MAX_BODY_VALUES - 10} values (parsed)`,
      steps: [
        {
          path: "/Nearest",
          body: `{"v":[${Array(MAX_BODY_VALUES - 10)
            .fill("{}")
            .join(",")}],"k":1}`,
        },
      ],
    },
    {
      name: "8 MiB body of values (refused)",
      steps: [{ path: "/Nearest", body: `{"v":[${"{},".repeat((8 * 1024 * 1024 - 20) / 3)}{}],"k":1}` }],
    },
    {
      name: "MCP 3-step explosion (300 users x 60 follows)",
      steps: [{ path: "/mcp/init", body: "{}" }, mcp("n_from_type", { node_type: "User" }), step, step, step],
    },
    { name: "COUNT of 3 hops (216,000 paths)", steps: [{ path: "/CountThreeHops", body: JSON.stringify({ id: user }) }] },
    { name: "3 hops returned (216,000 users)", steps: [{ path: "/ThreeHops", body: JSON.stringify({ id: user }) }] },
    {
      name: "FOR-loop ingest of 20,000 items",
      steps: [{ path: "/Ingest", body: JSON.stringify({ items: Array.from({ length: 20_000 }, (_, n) => ({ name: `new ${n}`, n })) }) }],
    },
    { name: `full scan (${ITEMS.toLocaleString("en-US")}+ items)`, steps: [{ path: "/AllItems", body: "{}" }] },
    { name: "SearchV k = 5,000 of 20,000", steps: [{ path: "/Nearest", body: `{"v":${vector},"k":5000}` }] },
  ];
}

/** Runs the steps from a child process; resolves with their statuses, joined by commas. */
function runFromChild(url: string, file: string): Promise<string> {
  const script = `const steps = JSON.parse(require("node:fs").readFileSync(${JSON.stringify(file)}, "utf8"));
(async () => {
  let conn = "";
  const statuses = [];
  for (const s of steps) {
    try {
      const r = await fetch(${JSON.stringify(url)} + s.path, { method: "POST", headers: { "content-type": "application/json" }, body: s.body.replace("$conn", conn) });
      const text = await r.text();
      if (s.path === "/mcp/init") conn = JSON.parse(text);
      statuses.push(r.status);
    } catch { statuses.push(0); }
  }
  process.stdout.write(statuses.join(","));
})();`;
  const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
  return new Promise((resolve) => child.once("exit", () => resolve(out)));
}

/** `cli`: the `strand` to serve with (default this build's; another build's to compare, `--baseline`). */
export async function runHealthStall(options: { rounds: number; log?: (line: string) => void; cli?: string }): Promise<StallResult> {
  const dataDir = mkdtempSync(join(tmpdir(), "strand-health-stall-"));
  const { user } = await fill(dataDir);
  options.log?.(`health stall: filled ${USERS} users x ${FOLLOWS} follows, ${ITEMS} items, ${VECTORS} vectors`);
  const child = spawn(process.execPath, [options.cli ?? CLI, "serve", PROJECT, "--port", "0", "--data", dataDir, "--log-level", "warn"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output = captureOutput(child);
  const result: StallResult = { rounds: options.rounds, load: loadavg().map((l) => Math.round(l * 10) / 10), figures: [], fairness: null };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setInterval(() => {
        const match = /strand listening on (http:\/\/[^\s]+) /.exec(output());
        if (match !== null) {
          clearInterval(timer);
          resolve(match[1]!);
        } else if (child.exitCode !== null) {
          clearInterval(timer);
          reject(new Error(output()));
        }
      }, 50);
    });
    for (const stall of cases(user)) {
      const file = join(dataDir, "steps.json");
      writeFileSync(file, JSON.stringify(stall.steps));
      const samples: number[] = [];
      let failedPolls = 0;
      const statuses = new Set<string>();
      const durations: number[] = [];
      for (let round = 0; round < options.rounds; round++) {
        let done = false;
        const t0 = performance.now();
        const big =
          stall.steps.length === 0
            ? new Promise<void>((r) => setTimeout(r, 300)).then(() => {
                done = true;
              })
            : runFromChild(url, file).then((status) => {
                statuses.add(status);
                done = true;
              });
        // Open loop: a /health every POLL_MS whether or not the last one was answered, so a stall
        // of the event loop shows in every poll it delays (polling back to back would take one
        // sample during a long stall and thousands around it).
        const polls: Promise<void>[] = [];
        while (!done) {
          const start = performance.now();
          polls.push(
            fetch(`${url}/health`)
              .then((r) => r.arrayBuffer())
              .then(
                () => void samples.push(performance.now() - start),
                // A reset poll (a server that drops kept-alive connections while it stalls) is a failure, not a crash of the bench.
                () => {
                  failedPolls += 1;
                },
              ),
          );
          await new Promise((r) => setTimeout(r, POLL_MS));
        }
        await Promise.all(polls);
        await big;
        durations.push(performance.now() - t0);
      }
      samples.sort((a, b) => a - b);
      durations.sort((a, b) => a - b);
      const figure: StallFigure = {
        name: stall.name,
        samples: samples.length,
        p50: percentile(samples, 50),
        p99: percentile(samples, 99),
        max: samples.at(-1) ?? 0,
        statuses: [...statuses, ...(failedPolls > 0 ? [`${failedPolls} polls failed`] : [])].join(" "),
        caseMs: percentile(durations, 50),
      };
      result.figures.push(figure);
      options.log?.(`health stall: ${renderFigure(figure)}`);
    }
    const k1 = JSON.stringify({ v: Array.from({ length: DIMENSION }, (_, i) => (i % 5) / 5 - 0.5), k: 1 });
    result.fairness = await runFairness(
      url,
      { name: "SearchV k = 1", path: "/Nearest", body: k1 },
      { name: `the full scan (${ITEMS.toLocaleString("en-US")} items)`, path: "/AllItems", body: "{}" },
    );
    options.log?.(`health stall: ${renderFairness(result.fairness)}`);
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
    rmSync(dataDir, { recursive: true, force: true });
  }
  return result;
}

function renderFigure(f: StallFigure): string {
  const ms = (x: number): string => x.toFixed(1).padStart(7);
  return `${f.name.padEnd(48)} n=${String(f.samples).padStart(5)} p50=${ms(f.p50)} p99=${ms(f.p99)} max=${ms(f.max)}  request ${f.caseMs.toFixed(0)} ms${f.statuses === "" ? "" : ` (${f.statuses})`}`;
}

export function renderHealthStall(result: StallResult): string {
  return [
    `/health latency (ms) while one request runs; ${result.rounds} rounds each; load average ${result.load.join(" ")} (target p99 ≤ 50)`,
    ...result.figures.map(renderFigure),
    ...(result.fairness === null ? [] : [renderFairness(result.fairness)]),
  ].join("\n");
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // --baseline <another build's dist/cli/strand.js>: the same cases on that build too, in this run.
  const { values } = parseArgs({ options: { rounds: { type: "string", default: "5" }, baseline: { type: "string" } } });
  const log = (l: string): void => void process.stderr.write(`${l}\n`);
  const result = await runHealthStall({ rounds: Number(values.rounds), log });
  console.log(renderHealthStall(result));
  console.log(`BENCH_HEALTH_STALL_JSON ${JSON.stringify(result)}`);
  if (values.baseline !== undefined) {
    const baseline = await runHealthStall({ rounds: Number(values.rounds), log, cli: values.baseline });
    console.log(`baseline ${values.baseline}:\n${renderHealthStall(baseline)}`);
    console.log(`BENCH_HEALTH_STALL_BASELINE_JSON ${JSON.stringify(baseline)}`);
  }
}
