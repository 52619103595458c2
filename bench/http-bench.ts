// HTTP comparisons: each route is loaded on the Strand server and on the floor server in turn,
// round after round, alternating which side goes first so that drift on a shared machine (another
// job starting, thermal throttling, a growing database) lands on both sides alike.
import { runLoad, type LoadResult } from "./load.js";
import { processCpuSeconds } from "./proc-cpu.js";
import { geomean, median } from "./stats.js";

export interface Target {
  url: string;
  bodies: () => string;
  /** The server's process id, to measure its CPU time during each run. */
  pid?: number;
}

export interface RunResult extends LoadResult {
  /** CPU seconds the server process used during the run (null without /proc). */
  serverCpuSeconds: number | null;
}

export interface RouteSpec {
  key: string;
  title: string;
  strand: Target;
  floor: Target;
  /** Distinct bodies to pre-generate per run (load.ts `bodyPool`). */
  bodyPool?: number;
}

export interface HttpSettings {
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
  rounds: number;
  log: (line: string) => void;
}

export interface SideSummary {
  /** All responses of all rounds over the rounds' total duration. */
  requestsPerSec: number;
  /** Median of the rounds' p50. */
  p50Ms: number;
  /** Worst round's p99. */
  p99Ms: number;
  errors: number;
  non2xx: number;
  /** Server CPU microseconds per response over all rounds (null without /proc). */
  cpuUsPerRequest: number | null;
  /** Server CPU seconds per second of load: near 1 means the server (one thread) was the bottleneck. */
  cpuBusy: number | null;
  runs: RunResult[];
}

export interface Comparison {
  key: string;
  title: string;
  strand: SideSummary;
  floor: SideSummary;
  /** Strand/floor requests per second of each round (the two runs of a round are adjacent in time). */
  roundRatios: number[];
  /** Geometric mean of the round ratios. */
  ratio: number;
  /** Floor CPU per request / Strand CPU per request (1 = as cheap as the floor; null without /proc). */
  cpuRatio: number | null;
  /** False when any run had connection errors or non-2xx responses. */
  valid: boolean;
}

type Side = "strand" | "floor";

function describe(result: RunResult): string {
  const bad = result.errors + result.non2xx > 0 ? `  (${result.errors} errors, ${result.non2xx} non-2xx)` : "";
  const cpu =
    result.serverCpuSeconds === null || result.requests === 0
      ? ""
      : `, server ${((result.serverCpuSeconds / result.requests) * 1e6).toFixed(0)} us CPU/req, ${((result.serverCpuSeconds / result.durationSeconds) * 100).toFixed(0)}% busy`;
  return `${Math.round(result.requestsPerSec).toLocaleString("en-US")} req/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms${cpu}${bad}`;
}

function summarize(runs: RunResult[]): SideSummary {
  const requests = runs.reduce((sum, r) => sum + r.requests, 0);
  const seconds = runs.reduce((sum, r) => sum + r.durationSeconds, 0);
  const cpu = runs.every((r) => r.serverCpuSeconds !== null) ? runs.reduce((sum, r) => sum + r.serverCpuSeconds!, 0) : null;
  return {
    cpuUsPerRequest: cpu === null || requests === 0 ? null : (cpu / requests) * 1e6,
    cpuBusy: cpu === null || seconds === 0 ? null : cpu / seconds,
    requestsPerSec: seconds > 0 ? requests / seconds : 0,
    p50Ms: median(runs.map((r) => r.p50Ms)),
    p99Ms: Math.max(...runs.map((r) => r.p99Ms)),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
    runs,
  };
}

export async function compareRoutes(routes: readonly RouteSpec[], settings: HttpSettings): Promise<Comparison[]> {
  const load = async (route: RouteSpec, side: Side, durationSeconds: number): Promise<RunResult> => {
    const target = route[side];
    // The bodies are generated (in this process) before the load starts and the server is idle
    // until then, so the server's CPU over the whole call is its CPU under load.
    const before = processCpuSeconds(target.pid);
    const result = await runLoad({
      url: target.url,
      bodies: target.bodies,
      connections: settings.connections,
      durationSeconds,
      ...(route.bodyPool !== undefined ? { bodyPool: route.bodyPool } : {}),
    });
    const after = processCpuSeconds(target.pid);
    return { ...result, serverCpuSeconds: before === null || after === null ? null : after - before };
  };

  for (const route of routes) {
    for (const side of ["floor", "strand"] as const) {
      const warm = await load(route, side, settings.warmupSeconds);
      settings.log(`warm-up ${route.key} ${side}: ${describe(warm)}`);
    }
  }

  const runs = new Map<string, Record<Side, RunResult[]>>(routes.map((r) => [r.key, { strand: [], floor: [] }]));
  for (let round = 0; round < settings.rounds; round++) {
    const order: Side[] = round % 2 === 0 ? ["floor", "strand"] : ["strand", "floor"];
    for (const route of routes) {
      for (const side of order) {
        const result = await load(route, side, settings.durationSeconds);
        runs.get(route.key)![side].push(result);
        settings.log(`round ${round + 1}/${settings.rounds} ${route.key} ${side}: ${describe(result)}`);
      }
    }
  }

  return routes.map((route) => {
    const { strand, floor } = runs.get(route.key)!;
    const roundRatios = strand.map((s, i) => s.requestsPerSec / floor[i]!.requestsPerSec);
    const summary = { strand: summarize(strand), floor: summarize(floor) };
    return {
      key: route.key,
      title: route.title,
      ...summary,
      roundRatios,
      ratio: geomean(roundRatios),
      cpuRatio:
        summary.strand.cpuUsPerRequest === null || summary.floor.cpuUsPerRequest === null
          ? null
          : summary.floor.cpuUsPerRequest / summary.strand.cpuUsPerRequest,
      valid: [summary.strand, summary.floor].every((s) => s.errors === 0 && s.non2xx === 0),
    };
  });
}
