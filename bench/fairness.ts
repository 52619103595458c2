// Engine fairness (server/front-door/engine.ts: clients take turns, one request each), part of the
// /health stall run (health-stall.ts, same server and store): one client address floods the
// engine with expensive requests on many connections, from a child process, while this process,
// from another loopback address, sends cheap engine requests one at a time. Their latency is
// reported next to the same requests with no flood, in the same run. Started in arrival order, a
// client's point read waited behind every queued request of the flooding client (1.6 s behind 16
// connections of 100 ms scans).
import { spawn } from "node:child_process";
import { Agent, request } from "node:http";

/** Engine requests the other client sends, each timed. */
const SAMPLES = 40;
const FLOOD_CONNECTIONS = 16;

export interface FairnessFigure {
  /** The cheap request and the flooding one. */
  cheap: string;
  flood: string;
  floodConnections: number;
  aloneP50: number;
  aloneP90: number;
  floodedP50: number;
  floodedP90: number;
  /** Flood requests answered while the cheap ones were timed. */
  floodAnswered: number;
}

interface Call {
  path: string;
  body: string;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** POSTs `call` from `agent` (kept-alive connections from its local address); resolves with the status. */
function post(url: URL, agent: Agent, localAddress: string, call: Call): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: call.path,
        method: "POST",
        agent,
        localAddress,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(call.body) },
      },
      (res) => {
        res.resume();
        res.once("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.once("error", reject);
    req.end(call.body);
  });
}

async function timed(url: URL, call: Call): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  try {
    for (let i = 0; i < SAMPLES; i++) {
      const t0 = performance.now();
      const status = await post(url, agent, "127.0.0.2", call);
      if (status !== 200) throw new Error(`fairness: ${call.path} answered ${status}`);
      times.push(performance.now() - t0);
    }
  } finally {
    agent.destroy();
  }
  return times.sort((a, b) => a - b);
}

/** The flood, from a child process at 127.0.0.1; it prints how many requests were answered when stopped. */
function startFlood(url: URL, call: Call): { stop: () => Promise<number> } {
  const script = `const http = require("node:http");
const agent = new http.Agent({ keepAlive: true, maxSockets: ${FLOOD_CONNECTIONS} });
let answered = 0, stopping = false;
const body = ${JSON.stringify(call.body)};
const one = () => new Promise((resolve) => {
  const req = http.request({ host: ${JSON.stringify(url.hostname)}, port: ${url.port}, path: ${JSON.stringify(call.path)}, method: "POST", agent, localAddress: "127.0.0.1",
    headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) } }, (res) => { res.resume(); res.once("end", () => { answered++; resolve(); }); });
  req.once("error", () => resolve());
  req.end(body);
});
for (let c = 0; c < ${FLOOD_CONNECTIONS}; c++) (async () => { while (!stopping) await one(); })();
process.stdin.once("data", () => { stopping = true; process.stdout.write(String(answered)); process.exit(0); });`;
  const child = spawn(process.execPath, ["-e", script], { stdio: ["pipe", "pipe", "inherit"] });
  let out = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
  return {
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", () => resolve(Number(out)));
        child.stdin.write("stop\n");
      }),
  };
}

/** `url`: a server of bench/stall-project; `cheap` and `flood` are calls of its queries. */
export async function runFairness(url: string, cheap: Call & { name: string }, flood: Call & { name: string }): Promise<FairnessFigure> {
  const base = new URL(url);
  const alone = await timed(base, cheap);
  const flooding = startFlood(base, flood);
  // Let the flood fill the engine's queue first.
  await new Promise((r) => setTimeout(r, 1000));
  let flooded: number[] = [];
  let floodAnswered = 0;
  try {
    flooded = await timed(base, cheap);
  } finally {
    floodAnswered = await flooding.stop();
  }
  return {
    cheap: cheap.name,
    flood: flood.name,
    floodConnections: FLOOD_CONNECTIONS,
    aloneP50: percentile(alone, 50),
    aloneP90: percentile(alone, 90),
    floodedP50: percentile(flooded, 50),
    floodedP90: percentile(flooded, 90),
    floodAnswered,
  };
}

export function renderFairness(f: FairnessFigure): string {
  const ms = (x: number): string => `${x.toFixed(1)} ms`;
  return (
    `engine fairness: another address's ${f.cheap}, one at a time: p50 ${ms(f.aloneP50)}, p90 ${ms(f.aloneP90)} alone; ` +
    `p50 ${ms(f.floodedP50)}, p90 ${ms(f.floodedP90)} while one address floods ${f.floodConnections} connections of ${f.flood} ` +
    `(${f.floodAnswered} answered meanwhile)`
  );
}
