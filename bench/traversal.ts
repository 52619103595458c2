// The in-process 2-hop traversal: `db.out(db.out([start], "Link"), "Link")` in one read snapshot,
// timed per call from random start nodes, against a raw-lmdb floor doing the same point gets
// (start's adjacency, 10 node records, 10 adjacencies, 100 node records) on a minimal layout:
// string keys, one packed adjacency string per node, records as plain msgpack maps like Strand's.
// Both run in this process; blocks of Strand and floor samples alternate so noise hits both.
import { join } from "node:path";
import { open } from "lmdb";
import type { NodeItem } from "../core/items.js";
import { GraphStore } from "../runtime/graph-store.js";
import type { SchemaDescriptor } from "../core/schema.js";
import { buildGraph, itemProps, type Graph } from "./fill.js";
import { ITEM, LINK } from "./project.js";
import { randomIndex, seededRandom } from "./random.js";
import { mean, quantileSorted } from "./stats.js";
import { runCounts, type CountsResult } from "./counts.js";

const FLOOR_BATCH = 10_000;
const BLOCK = 500;
const ID_LENGTH = 36;

export interface TraversalSettings {
  dir: string;
  schema: SchemaDescriptor;
  nodes: number;
  fanout: number;
  samples: number;
  warmup: number;
  seed: number;
  log: (line: string) => void;
}

export interface LatencySummary {
  meanUs: number;
  p50Us: number;
  p99Us: number;
  /** Nodes returned by both hops per second of traversal time. */
  expansionsPerSec: number;
  /** Mean nodes returned per 2-hop call (both hops). */
  expansionsPerCall: number;
}

export interface TraversalResult {
  nodes: number;
  edges: number;
  samples: number;
  /** Seconds to write the graph through GraphStore (batched durable writes). */
  buildSeconds: number;
  strand: LatencySummary;
  floor: LatencySummary;
  /** strand mean / floor mean. */
  slowdown: number;
  /** COUNT and 2-hop traversals from one node against SQLite on the same graph (counts.ts). */
  counts: CountsResult;
}

/** One 2-hop call from start index i; returns the number of nodes both hops returned. */
type TwoHop = (start: number) => number;

interface RawFloor {
  twoHop: TwoHop;
  close(): Promise<void>;
}

async function buildRawFloor(path: string, graph: Graph): Promise<RawFloor> {
  const env = open({ path, maxDbs: 4 });
  const adjacency = env.openDB<string, string>({ name: "adjacency", encoding: "string" });
  // Plain msgpack maps, as Strand stores records (lmdb's typings list `encoder` for open() only).
  const plainMaps: object = { encoder: { useRecords: false } };
  const nodes = env.openDB<NodeItem, string>({ name: "nodes", ...plainMaps });
  const { ids, fanout, targets } = graph;
  for (let start = 0; start < ids.length; start += FLOOR_BATCH) {
    await env.transaction(() => {
      for (let i = start; i < Math.min(ids.length, start + FLOOR_BATCH); i++) {
        let list = "";
        for (let k = 0; k < fanout; k++) list += ids[targets[i * fanout + k]!]!;
        adjacency.put(ids[i]!, list);
        nodes.put(ids[i]!, { id: ids[i]!, label: ITEM, ...itemProps(i) });
      }
    });
  }
  await env.flushed;
  const twoHop: TwoHop = (start) => {
    const transaction = env.useReadTransaction();
    const opts = { transaction };
    try {
      const first = adjacency.get(ids[start]!, opts) ?? "";
      let found = 0;
      for (let a = 0; a < first.length; a += ID_LENGTH) {
        const mid = first.slice(a, a + ID_LENGTH);
        if (nodes.get(mid, opts) !== undefined) found++;
        const second = adjacency.get(mid, opts) ?? "";
        for (let b = 0; b < second.length; b += ID_LENGTH) {
          if (nodes.get(second.slice(b, b + ID_LENGTH), opts) !== undefined) found++;
        }
      }
      return found;
    } finally {
      transaction.done();
    }
  };
  return { twoHop, close: () => env.close() };
}

function summarize(micros: Float64Array, expansions: number): LatencySummary {
  const sorted = Float64Array.from(micros).sort();
  const totalUs = micros.reduce((sum, v) => sum + v, 0);
  return {
    meanUs: mean(micros),
    p50Us: quantileSorted(sorted, 0.5),
    p99Us: quantileSorted(sorted, 0.99),
    expansionsPerSec: totalUs > 0 ? expansions / (totalUs / 1e6) : 0,
    expansionsPerCall: expansions / micros.length,
  };
}

export async function runTraversal(settings: TraversalSettings): Promise<TraversalResult> {
  const random = seededRandom(settings.seed);
  const store = GraphStore.open({ path: join(settings.dir, "strand"), schema: settings.schema });
  let floor: RawFloor | null = null;
  try {
    const t0 = performance.now();
    const graph = await buildGraph(store, settings.nodes, settings.fanout, random);
    const buildSeconds = (performance.now() - t0) / 1000;
    const edges = graph.targets.length;
    settings.log(
      `graph: ${settings.nodes.toLocaleString("en-US")} nodes, ${edges.toLocaleString("en-US")} edges written through GraphStore in ${buildSeconds.toFixed(1)} s`,
    );
    floor = await buildRawFloor(join(settings.dir, "floor"), graph);

    // The start nodes, fetched outside the timing (a query would get them by id the same way).
    const total = settings.warmup + settings.samples;
    const starts = Int32Array.from({ length: total }, () => randomIndex(random, settings.nodes));
    const startItems = store.read((db) => Array.from(starts, (i) => db.nodeById(ITEM, graph.ids[i]!)));
    const strandHop: TwoHop = (k) =>
      store.read((db) => {
        const one = db.out([startItems[k]!], LINK);
        const two = db.out(one, LINK);
        return one.length + two.length;
      });
    const floorHop = floor.twoHop;

    const strandUs = new Float64Array(settings.samples);
    const floorUs = new Float64Array(settings.samples);
    let strandExpansions = 0;
    let floorExpansions = 0;
    for (let k = 0; k < settings.warmup; k++) {
      strandHop(k);
      floorHop(starts[k]!);
    }
    for (let block = 0; block < settings.samples; block += BLOCK) {
      const end = Math.min(settings.samples, block + BLOCK);
      const sides = (block / BLOCK) % 2 === 0 ? ["strand", "floor"] : ["floor", "strand"];
      for (const side of sides) {
        for (let s = block; s < end; s++) {
          const k = settings.warmup + s;
          if (side === "strand") {
            const t = process.hrtime.bigint();
            strandExpansions += strandHop(k);
            strandUs[s] = Number(process.hrtime.bigint() - t) / 1000;
          } else {
            const t = process.hrtime.bigint();
            floorExpansions += floorHop(starts[k]!);
            floorUs[s] = Number(process.hrtime.bigint() - t) / 1000;
          }
        }
      }
    }
    const strand = summarize(strandUs, strandExpansions);
    const floorSummary = summarize(floorUs, floorExpansions);
    const countSamples = Math.min(settings.samples, 10_000);
    const counts = await runCounts({
      store,
      graph,
      dir: settings.dir,
      samples: countSamples,
      warmup: settings.warmup,
      random,
      log: settings.log,
    });
    return {
      nodes: settings.nodes,
      edges,
      samples: settings.samples,
      buildSeconds,
      strand,
      floor: floorSummary,
      slowdown: strand.meanUs / floorSummary.meanUs,
      counts,
    };
  } finally {
    await floor?.close();
    await store.close();
  }
}
