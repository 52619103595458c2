// HTTP comparisons: each route is loaded on the Strand server and on the floor server in turn,
// round after round, alternating which side goes first so that drift on a shared machine (another
// job starting, thermal throttling, a growing database) lands on both sides alike.
import { runLoad, type LoadResult } from "./load.js";
import { geomean, median } from "./stats.js";

export interface Target {
  url: string;
  bodies: () => string;
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
  runs: LoadResult[];
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
  /** False when any run had connection errors or non-2xx responses. */
  valid: boolean;
}

type Side = "strand" | "floor";

function describe(result: LoadResult): string {
  const bad = result.errors + result.non2xx > 0 ? `  (${result.errors} errors, ${result.non2xx} non-2xx)` : "";
  return `${Math.round(result.requestsPerSec).toLocaleString("en-US")} req/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms${bad}`;
}

function summarize(runs: LoadResult[]): SideSummary {
  const requests = runs.reduce((sum, r) => sum + r.requests, 0);
  const seconds = runs.reduce((sum, r) => sum + r.durationSeconds, 0);
  return {
    requestsPerSec: seconds > 0 ? requests / seconds : 0,
    p50Ms: median(runs.map((r) => r.p50Ms)),
    p99Ms: Math.max(...runs.map((r) => r.p99Ms)),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
    runs,
  };
}

export async function compareRoutes(routes: readonly RouteSpec[], settings: HttpSettings): Promise<Comparison[]> {
  const load = (route: RouteSpec, side: Side, durationSeconds: number): Promise<LoadResult> =>
    runLoad({
      url: route[side].url,
      bodies: route[side].bodies,
      connections: settings.connections,
      durationSeconds,
      ...(route.bodyPool !== undefined ? { bodyPool: route.bodyPool } : {}),
    });

  for (const route of routes) {
    for (const side of ["floor", "strand"] as const) {
      const warm = await load(route, side, settings.warmupSeconds);
      settings.log(`warm-up ${route.key} ${side}: ${describe(warm)}`);
    }
  }

  const runs = new Map<string, Record<Side, LoadResult[]>>(routes.map((r) => [r.key, { strand: [], floor: [] }]));
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
      valid: [summary.strand, summary.floor].every((s) => s.errors === 0 && s.non2xx === 0),
    };
  });
}
