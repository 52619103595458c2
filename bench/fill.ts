// Bulk loading straight through GraphStore (no HTTP): the bench process opens a data directory,
// writes in large batches (one durable transaction each), and closes it before any server opens it.
import type { GraphStore } from "../runtime/graph-store.js";
import { ITEM, LINK } from "./project.js";
import { randomIndex, type Random } from "./random.js";

const NODE_BATCH = 10_000;
const EDGE_BATCH = 10_000;

/** The props of the i-th pre-filled item (the same in Strand and in the raw-lmdb floors). */
export function itemProps(i: number): { name: string; n: number } {
  return { name: `item ${i}`, n: i };
}

/** Adds `count` Items; returns their ids in creation order. */
export async function fillItems(store: GraphStore, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < count; start += NODE_BATCH) {
    const end = Math.min(count, start + NODE_BATCH);
    const batch = await store.write((db) => {
      const created: string[] = [];
      for (let i = start; i < end; i++) created.push(db.addNode(ITEM, itemProps(i)).id);
      return created;
    });
    for (const id of batch) ids.push(id);
  }
  return ids;
}

export interface Graph {
  ids: string[];
  fanout: number;
  /** targets[i * fanout + k] is the index of the k-th out-neighbour of node i. */
  targets: Int32Array;
}

/** `nodes` Items, each with `fanout` Link out-edges to uniformly random nodes (self-loops allowed). */
export async function buildGraph(store: GraphStore, nodes: number, fanout: number, random: Random): Promise<Graph> {
  const ids = await fillItems(store, nodes);
  const targets = new Int32Array(nodes * fanout);
  for (let e = 0; e < targets.length; e++) targets[e] = randomIndex(random, nodes);
  for (let start = 0; start < targets.length; start += EDGE_BATCH) {
    const end = Math.min(targets.length, start + EDGE_BATCH);
    await store.write((db) => {
      for (let e = start; e < end; e++) db.addEdge(LINK, {}, ids[Math.floor(e / fanout)]!, ids[targets[e]!]!);
    });
  }
  return { ids, fanout, targets };
}
