// Deferred incoming adjacency. A write's new `in` entries do not go into their lists at once: a
// FOR-loop ingest with random targets touches ~1,000 `in` lists per 1,000 edges, each on its own
// B-tree page of a large database, and the commit writing and syncing those pages was most of the
// request. They go to `adjacency_in_pending` instead, one key per entry:
//   toId (16 bytes) + edgeLabel (UTF-8) + 0x00 + edgeId (16 bytes)  →  fromId (16 bytes)
// a database kept small (runtime/adjacency/pending-in-writes.ts folds it into the real lists, every
// list touched once, when it holds enough entries), so a request dirties its few pages instead.
// Entries sort by list, then by edge id (UUID v7: creation order), and every pending entry of a
// list is newer than the list's stored entries, so a list's entries are its stored ones followed
// by its pending ones: readList and friends give that merged view, in any snapshot (the pending
// entries live in the same transaction as the write, so durability and snapshots are unchanged,
// and a replica applying its leader's raw changes needs nothing special).
//
// A write that finds enough entries pending (pending-in-count.ts; 8,192 by default) folds a slice
// of them in its own transaction: whole lists in key order from where the last slice stopped,
// each list rewritten once, their pending keys removed, logged as one fold op naming the slice,
// which a follower replays by folding the same entries itself (pending-in-writes.ts). A bulk load
// folds them all first, then appends straight to the lists. After a crash the pending entries are
// read from the database and folded by later writes.
import type { Transaction } from "lmdb";
import { adjacencyCount, adjacencyLabels, ENTRY_BYTES, readAdjacency, type AdjacencyDb } from "./lists.js";
import { ID_BYTES, writeIdBytes } from "../store/id-bytes.js";
import { labelBytes } from "../store/keys.js";

export type Direction = "out" | "in";
type ReadOpts = { transaction: Transaction } | undefined;

/** The adjacency databases a reader of lists needs. */
export interface AdjacencyDbs {
  readonly out: AdjacencyDb;
  readonly in: AdjacencyDb;
  readonly inPending: AdjacencyDb;
}

const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder();
const EMPTY = new Uint8Array(0);

/** The key prefix of every pending entry of the list (toId, edgeLabel): id bytes, label, 0x00. Throws when nodeId is no UUID. */
export function pendingListPrefix(nodeId: string, edgeLabel: string): Uint8Array {
  const label = labelBytes(edgeLabel);
  const prefix = new Uint8Array(ID_BYTES + label.length + 1);
  writeIdBytes(nodeId, prefix, 0);
  prefix.set(label, ID_BYTES);
  return prefix;
}

/** The key of one pending entry: the list's prefix, then the edge id's 16 bytes. */
export function pendingKey(prefix: Uint8Array, edgeId: Uint8Array, edgeIdOffset = 0): Uint8Array {
  const key = new Uint8Array(prefix.length + ID_BYTES);
  key.set(prefix, 0);
  key.set(edgeId.subarray(edgeIdOffset, edgeIdOffset + ID_BYTES), prefix.length);
  return key;
}

/** [start, end) of the keys under `prefix`. */
export function prefixRange(prefix: Uint8Array): { start: Uint8Array; end: Uint8Array } {
  const end = prefix.slice();
  end[end.length - 1] = end[end.length - 1]! + 1;
  return { start: prefix, end };
}

/** A pending key split: the list's node id bytes and label, and the edge id's offset in the key. */
export function parsePendingKey(key: Uint8Array): { label: string; prefixLength: number } {
  const prefixLength = pendingPrefixLength(key);
  return { label: utf8Decoder.decode(key.subarray(ID_BYTES, prefixLength - 1)), prefixLength };
}

/** The length of a pending key's list prefix (id bytes, label, 0x00), without decoding the label (the fold's per-key step). */
export function pendingPrefixLength(key: Uint8Array): number {
  const sep = key.length - ID_BYTES - 1;
  if (sep <= ID_BYTES || key[sep] !== 0) throw new Error(`pending adjacency key of ${key.length} bytes is malformed`);
  return sep + 1;
}

function prefixOf(nodeId: string, edgeLabel: string): Uint8Array | null {
  try {
    return pendingListPrefix(nodeId, edgeLabel);
  } catch {
    return null; // no UUID: nothing is stored under it
  }
}

/** The pending entries of the list (edge id, from id; 32 bytes each), oldest first. */
export function pendingEntries(pending: AdjacencyDb, nodeId: string, edgeLabel: string, opts: ReadOpts): Uint8Array {
  const prefix = prefixOf(nodeId, edgeLabel);
  if (prefix === null) return EMPTY;
  const found: { key: Uint8Array; value: Uint8Array }[] = [];
  for (const entry of pending.getRange({ ...prefixRange(prefix), ...(opts ?? {}) })) found.push(entry);
  if (found.length === 0) return EMPTY;
  const all = new Uint8Array(found.length * ENTRY_BYTES);
  for (let i = 0; i < found.length; i++) {
    const { key, value } = found[i]!;
    all.set(key.subarray(prefix.length, prefix.length + ID_BYTES), i * ENTRY_BYTES);
    all.set(value.subarray(0, ID_BYTES), i * ENTRY_BYTES + ID_BYTES);
  }
  return all;
}

/** The number of pending entries of the list. */
export function pendingCount(pending: AdjacencyDb, nodeId: string, edgeLabel: string, opts: ReadOpts): number {
  const prefix = prefixOf(nodeId, edgeLabel);
  if (prefix === null) return 0;
  return pending.getKeysCount({ ...prefixRange(prefix), ...(opts ?? {}) });
}

/** All entries of the list of (node, edge label) in `direction`, stored then pending, in creation order. */
export function readList(dbs: AdjacencyDbs, direction: Direction, nodeId: string, edgeLabel: string, opts: ReadOpts): Uint8Array {
  if (direction === "out") return readAdjacency(dbs.out, nodeId, edgeLabel, opts);
  const stored = readAdjacency(dbs.in, nodeId, edgeLabel, opts);
  const pending = pendingEntries(dbs.inPending, nodeId, edgeLabel, opts);
  if (pending.length === 0) return stored;
  if (stored.length === 0) return pending;
  const all = new Uint8Array(stored.length + pending.length);
  all.set(stored, 0);
  all.set(pending, stored.length);
  return all;
}

/** The number of entries of the list (its tail, and its pending keys for `in`). */
export function listCount(dbs: AdjacencyDbs, direction: Direction, nodeId: string, edgeLabel: string, opts: ReadOpts): number {
  if (direction === "out") return adjacencyCount(dbs.out, nodeId, edgeLabel, opts);
  return adjacencyCount(dbs.in, nodeId, edgeLabel, opts) + pendingCount(dbs.inPending, nodeId, edgeLabel, opts);
}

/** The edge labels for which the node has a list in `direction` (stored or pending), sorted as their keys. */
export function listLabels(dbs: AdjacencyDbs, direction: Direction, nodeId: string, opts: ReadOpts): string[] {
  if (direction === "out") return adjacencyLabels(dbs.out, nodeId, opts);
  const labels = adjacencyLabels(dbs.in, nodeId, opts);
  const start = new Uint8Array(ID_BYTES);
  try {
    writeIdBytes(nodeId, start, 0);
  } catch {
    return labels;
  }
  const end = new Uint8Array(ID_BYTES + 1);
  end.set(start, 0);
  end[ID_BYTES] = 0xff; // above every label's first UTF-8 byte
  const more: string[] = [];
  // One key per label: after each, the search goes on past every key of that label's list.
  for (let from: Uint8Array = start; ; ) {
    let key: Uint8Array | undefined;
    for (const k of dbs.inPending.getKeys({ start: from, end, limit: 1, ...(opts ?? {}) })) key = k;
    if (key === undefined) break;
    const { label, prefixLength } = parsePendingKey(key);
    if (!labels.includes(label)) more.push(label);
    from = prefixRange(key.subarray(0, prefixLength)).end;
  }
  if (more.length === 0) return labels;
  // Key order: a label's UTF-8 bytes, as the stored lists' keys sort.
  return [...labels, ...more].sort((a, b) => Buffer.compare(utf8.encode(a), utf8.encode(b)));
}
