// Adjacency lists: for each (node, edge label) the incident edges in creation order, packed into
// strings so that a node's neighbourhood is one `get` instead of a cursor walk (an lmdb range
// costs several times a get, and graph steps do one per input node).
//
// A list is a sequence of 72-character entries `edgeId + otherNodeId`. It is stored as
//   [nodeId, edgeLabel]            → "<sealed>|" + up to CHUNK entries   (the open tail)
//   [nodeId, edgeLabel, i]         → exactly CHUNK entries, i < sealed  (full chunks)
// so appending (runtime/write/adjacency-writes.ts) touches at most the tail plus one new full chunk, and reading a node of degree
// d costs 1 + floor(d / CHUNK) gets. Removing entries (DROP) rewrites the list from the chunk
// of the first removed entry on, so it stays in this form. An empty list has no keys. Both
// databases use lmdb's `string` value encoding.
import type { Database, Transaction } from "lmdb";
import { MAX_KEY, type Key } from "./keys.js";

export const ID_LENGTH = 36;
export const ENTRY_LENGTH = 2 * ID_LENGTH;
export const CHUNK = 32;

export type AdjacencyDb = Database<string, Key>;
type ReadOpts = { transaction: Transaction } | undefined;

/** All entries of the list, concatenated, in creation order ("" when there are none). */
export function readAdjacency(db: AdjacencyDb, nodeId: string, edgeLabel: string, opts: ReadOpts): string {
  const tail = db.get([nodeId, edgeLabel], opts);
  if (tail === undefined) return "";
  const bar = tail.indexOf("|");
  const sealed = bar === 1 ? tail.charCodeAt(0) - 48 : Number(tail.slice(0, bar));
  if (sealed === 0) return tail.slice(bar + 1);
  let all = "";
  for (let i = 0; i < sealed; i++) {
    const chunk = db.get([nodeId, edgeLabel, i], opts);
    if (chunk === undefined) throw new Error(`adjacency chunk ${nodeId}/${edgeLabel}/${i} missing`);
    all += chunk;
  }
  return all + tail.slice(bar + 1);
}

/** A list split into parallel arrays: edge i goes to (or comes from) node otherIds[i]. */
export interface Adjacency {
  readonly edgeIds: readonly string[];
  readonly otherIds: readonly string[];
}

export function splitAdjacency(list: string): Adjacency {
  const n = list.length / ENTRY_LENGTH;
  const edgeIds = new Array<string>(n);
  const otherIds = new Array<string>(n);
  for (let i = 0, off = 0; i < n; i++, off += ENTRY_LENGTH) {
    edgeIds[i] = list.slice(off, off + ID_LENGTH);
    otherIds[i] = list.slice(off + ID_LENGTH, off + ENTRY_LENGTH);
  }
  return { edgeIds, otherIds };
}

/** A tail value split: the number of full chunks before it, and its own entries. */
export function parseTail(tail: string): { sealed: number; entries: string } {
  const bar = tail.indexOf("|");
  return { sealed: Number(tail.slice(0, bar)), entries: tail.slice(bar + 1) };
}

/** The edge labels for which the node has a list in `db` (its tail keys), in key order. */
export function adjacencyLabels(db: AdjacencyDb, nodeId: string, opts: ReadOpts): string[] {
  const labels: string[] = [];
  const range = { start: [nodeId], end: [nodeId, MAX_KEY], ...(opts ?? {}) };
  for (const key of db.getKeys(range)) if (key.length === 2) labels.push(key[1] as string);
  return labels;
}
