// The in-process scan benchmark (issue 5): a WHERE-filtered scan over every Person and a
// projection-heavy query, each run as the generated query module inside `store.read` and timed
// per call against a hand-written loop over the same LMDB data (scan-floor.ts). Both run in this
// process on one environment; blocks of Strand and floor samples alternate so noise hits both.
import { join } from "node:path";
import { GraphStore } from "../runtime/graph-store.js";
import type { QueryModule } from "../core/query-module.js";
import { seededRandom } from "./random.js";
import { fillPeople } from "./scan-data.js";
import { openScanFloor, type ScanFloor } from "./scan-floor.js";
import { loadScanProject } from "./scan-project.js";
import { mean, quantileSorted } from "./stats.js";

export interface ScanSettings {
  dir: string;
  /** Person nodes. */
  nodes: number;
  /** Knows out-edges per person. */
  knows: number;
  /** Timed calls per query and side (after `warmup` untimed ones). */
  samples: number;
  warmup: number;
  seed: number;
  log: (line: string) => void;
}

export interface CallStats {
  meanUs: number;
  p50Us: number;
  p99Us: number;
}

export interface ScanQueryResult {
  /** Query name in bench/scan-project/queries.hx. */
  query: string;
  params: Record<string, unknown>;
  /** Rows both sides returned (checked identical before timing). */
  rows: number;
  strand: CallStats;
  floor: CallStats;
  /** strand mean / floor mean. */
  ratio: number;
}

export interface ScanResult {
  nodes: number;
  edges: number;
  samples: number;
  /** Seconds to write the data through GraphStore (batched durable writes). */
  buildSeconds: number;
  queries: ScanQueryResult[];
}

/** Both sides of one query: the generated module in a read snapshot, and its floor. */
export interface ScanCase {
  query: QueryModule;
  params: Record<string, unknown>;
  floor: () => { people: unknown[] };
}

/** Samples per block; a call scans up to every node, so blocks are short. */
const BLOCK = 5;
export const FILTER_PARAMS = { min: 50, city: "Lyon" } as const;
export const PROJECTION_PARAMS = { min: 50 } as const;

export function scanCases(project: Awaited<ReturnType<typeof loadScanProject>>, floor: ScanFloor): ScanCase[] {
  return [
    { query: project.filterScan, params: { ...FILTER_PARAMS }, floor: () => floor.filterScan(FILTER_PARAMS.min, FILTER_PARAMS.city) },
    { query: project.projectPeople, params: { ...PROJECTION_PARAMS }, floor: () => floor.projectPeople(PROJECTION_PARAMS.min) },
  ];
}

/** Runs the generated query the way the HTTP route runs a read query (params already valid). */
export function runStrand(store: GraphStore, c: ScanCase): unknown {
  return store.read((db) => c.query.run(db, c.params));
}

/** Throws unless Strand and the floor return the same JSON; returns the number of rows. */
export function checkSame(store: GraphStore, c: ScanCase): number {
  const strand = JSON.stringify(runStrand(store, c));
  const floorResult = c.floor();
  const floor = JSON.stringify(floorResult);
  if (strand !== floor) {
    let at = 0;
    while (at < strand.length && strand[at] === floor[at]) at++;
    const around = (s: string): string => s.slice(Math.max(0, at - 80), at + 80);
    throw new Error(
      `${c.query.name}: Strand and the floor differ at character ${at}:\n  strand ${around(strand)}\n  floor  ${around(floor)}`,
    );
  }
  return floorResult.people.length;
}

export function stats(micros: Float64Array): CallStats {
  const sorted = Float64Array.from(micros).sort();
  return { meanUs: mean(micros), p50Us: quantileSorted(sorted, 0.5), p99Us: quantileSorted(sorted, 0.99) };
}

/** Alternating blocks of timed calls (even blocks Strand first, odd blocks the floor first). */
export function timeBoth(
  strand: () => unknown,
  floor: () => unknown,
  samples: number,
  warmup: number,
): { strand: Float64Array; floor: Float64Array } {
  for (let k = 0; k < warmup; k++) {
    strand();
    floor();
  }
  const times = { strand: new Float64Array(samples), floor: new Float64Array(samples) };
  for (let block = 0; block < samples; block += BLOCK) {
    const end = Math.min(samples, block + BLOCK);
    const order = (block / BLOCK) % 2 === 0 ? (["strand", "floor"] as const) : (["floor", "strand"] as const);
    for (const side of order) {
      const fn = side === "strand" ? strand : floor;
      for (let s = block; s < end; s++) {
        const t = process.hrtime.bigint();
        fn();
        times[side][s] = Number(process.hrtime.bigint() - t) / 1000;
      }
    }
  }
  return times;
}

export async function runScan(settings: ScanSettings): Promise<ScanResult> {
  const project = await loadScanProject();
  const path = join(settings.dir, "scan");
  const store = GraphStore.open({ path, schema: project.schema });
  let floor: ScanFloor | null = null;
  try {
    const t0 = performance.now();
    await fillPeople(store, settings.nodes, settings.knows, seededRandom(settings.seed));
    const buildSeconds = (performance.now() - t0) / 1000;
    const edges = settings.nodes * settings.knows;
    settings.log(
      `scan: ${settings.nodes.toLocaleString("en-US")} people, ${edges.toLocaleString("en-US")} Knows edges written through GraphStore in ${buildSeconds.toFixed(1)} s`,
    );
    floor = openScanFloor(path);
    const queries: ScanQueryResult[] = [];
    for (const c of scanCases(project, floor)) {
      const rows = checkSame(store, c);
      const times = timeBoth(() => runStrand(store, c), c.floor, settings.samples, settings.warmup);
      const strand = stats(times.strand);
      const floorStats = stats(times.floor);
      queries.push({ query: c.query.name, params: c.params, rows, strand, floor: floorStats, ratio: strand.meanUs / floorStats.meanUs });
      settings.log(
        `scan: ${c.query.name} ${rows} rows, strand ${strand.meanUs.toFixed(0)} us, floor ${floorStats.meanUs.toFixed(0)} us per call`,
      );
    }
    return { nodes: settings.nodes, edges, samples: settings.samples, buildSeconds, queries };
  } finally {
    await floor?.close();
    await store.close();
  }
}
