// The length of an adjacency list without reading it: the tail key [nodeId, edgeLabel] holds
// "<sealed>|" + the tail's entries, and every sealed chunk holds exactly CHUNK entries, so the
// length is one get and no chunk read (see adjacency.ts for the layout). COUNT, EXISTS and degree
// filters (ops/adjacency-paths.ts) stand on this one function; a new adjacency format re-points it.
import type { Transaction } from "lmdb";
import { CHUNK, ENTRY_LENGTH, type AdjacencyDb } from "./adjacency.js";

/** How many edges the (node, edge label) list holds; 0 when it has none (an empty list has no keys). */
export function adjacencyLength(
  db: AdjacencyDb,
  nodeId: string,
  edgeLabel: string,
  opts: { transaction: Transaction } | undefined,
): number {
  const tail = db.get([nodeId, edgeLabel], opts);
  if (tail === undefined) return 0;
  const bar = tail.indexOf("|");
  const sealed = bar === 1 ? tail.charCodeAt(0) - 48 : Number(tail.slice(0, bar));
  return sealed * CHUNK + (tail.length - bar - 1) / ENTRY_LENGTH;
}
