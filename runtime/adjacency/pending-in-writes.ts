// Changes to incoming adjacency with its deferred part (runtime/adjacency/pending-in.ts): new entries
// go to `adjacency_in_pending`, removals cut both the stored list and the pending entries, and the
// fold moves every pending entry into its list. Inside a write transaction only.
import { ENTRY_BYTES } from "./lists.js";
import { copyBytes, ID_BYTES, readIdBytes } from "../store/id-bytes.js";
import { type AdjacencyDbs, pendingKey, pendingListPrefix, pendingPrefixLength, prefixRange } from "./pending-in.js";
import { appendToList, deleteAdjacency, removeAdjacency } from "./list-writes.js";
import type { LastKey } from "../store/append-put.js";

/** Puts `entries` (edge id, from id; whole 32-byte entries) of the `in` list of (node, label) as pending. */
export function deferInEntries(dbs: AdjacencyDbs, nodeId: string, edgeLabel: string, entries: Uint8Array): void {
  const prefix = pendingListPrefix(nodeId, edgeLabel);
  // putSync copies the value into the transaction before it returns: views need no copy.
  for (let off = 0; off < entries.length; off += ENTRY_BYTES)
    dbs.inPending.putSync(pendingKey(prefix, entries, off), entries.subarray(off + ID_BYTES, off + ENTRY_BYTES));
}

/** The pending keys of the list, collected (a cursor is not moved under its own deletions). */
function pendingKeysOf(dbs: AdjacencyDbs, prefix: Uint8Array): Uint8Array[] {
  return [...dbs.inPending.getKeys(prefixRange(prefix))];
}

/** Cuts the entries of `edgeIds` out of the `in` list of (node, label), stored or pending; returns how many. */
export function removeInEntries(dbs: AdjacencyDbs, nodeId: string, edgeLabel: string, edgeIds: ReadonlySet<string>): number {
  let removed = removeAdjacency(dbs.in, nodeId, edgeLabel, edgeIds);
  const prefix = pendingListPrefix(nodeId, edgeLabel);
  for (const key of pendingKeysOf(dbs, prefix)) {
    if (!edgeIds.has(readIdBytes(key, prefix.length))) continue;
    dbs.inPending.removeSync(key);
    removed++;
  }
  return removed;
}

/** Deletes the whole `in` list of (node, label): its stored keys and its pending entries. */
export function deleteInList(dbs: AdjacencyDbs, nodeId: string, edgeLabel: string): void {
  deleteAdjacency(dbs.in, nodeId, edgeLabel);
  for (const key of pendingKeysOf(dbs, pendingListPrefix(nodeId, edgeLabel))) dbs.inPending.removeSync(key);
}

/**
 * A fold in the commit log: the op `["inPending", FOLD_OP_KEY]` (an empty key, which no stored
 * key can be) for a fold of every pending entry, `["inPending", FOLD_OP_KEY, [from, until]]` for a
 * fold of the slice (FoldSlice), instead of the ~2 changes per entry it makes. A follower replays
 * it by folding the same entries itself (applyCommitFrames): it applied the same changes before
 * (the write's own pending puts come before the op in its entry), so it holds the same pending
 * entries and lists, and the fold leaves the same bytes.
 */
export const FOLD_OP_KEY = new Uint8Array(0);

/**
 * The pending keys a fold takes: from `from` (null: the first) up to `until` (exclusive; null:
 * past the last). A slice holds whole lists (its bounds are list prefixes), so a list's pending
 * entries stay newer than its stored ones.
 */
export interface FoldSlice {
  readonly from: Uint8Array | null;
  readonly until: Uint8Array | null;
}

/** The fold a logged op stands for: null for none, "all", or its slice. */
export function foldOfOp(op: readonly unknown[]): "all" | FoldSlice | null {
  if (op[0] !== "inPending" || !(op[1] instanceof Uint8Array) || op[1].length !== 0) return null;
  if (op.length === 2) return "all";
  const bounds = op[2];
  if (op.length !== 3 || !Array.isArray(bounds) || bounds.length !== 2 || !bounds.every(isBound))
    throw new Error("a fold op of the commit log has malformed bounds");
  return { from: bounds[0] as Uint8Array | null, until: bounds[1] as Uint8Array | null };
}

function isBound(bound: unknown): boolean {
  return bound === null || (bound instanceof Uint8Array && bound.length > 0);
}

/** The op's third element for a slice (foldOfOp reads it back). */
export function foldOpBounds(slice: FoldSlice): [Uint8Array | null, Uint8Array | null] {
  return [slice.from, slice.until];
}

/**
 * Moves every pending entry into its `in` list, oldest first, each list rewritten once (in key
 * order, so the B-tree is written front to back), and empties `adjacency_in_pending`. Every
 * pending entry goes: one left behind could be older than a later one put straight into its list.
 * Returns the number of entries moved.
 */
export function foldPendingIn(dbs: AdjacencyDbs): number {
  const found = pendingRange(dbs, {}, Number.POSITIVE_INFINITY);
  foldLists(dbs, found);
  // All of them go: dropping the database's pages costs far less than a delete per key. Never
  // through a recording database (clearSync is not recorded): the fold is logged as one op.
  if (found.keys.length > 0) dbs.inPending.clearSync();
  return found.keys.length;
}

/**
 * A write's fold of one slice (pending-in-count.ts): the pending entries of whole lists from
 * `from` (null: the first), at least `atLeast` of them unless the database ends first, moved
 * into their lists and removed. Returns the slice folded (its `until` is where the next one
 * starts; null: at the first again) and the number of entries moved.
 */
export function foldPendingSlice(dbs: AdjacencyDbs, from: Uint8Array | null, atLeast: number): { slice: FoldSlice; folded: number } {
  const found = foldRange(dbs, from === null ? {} : { start: from }, atLeast);
  return { slice: { from, until: found.next }, folded: found.keys.length };
}

/** Folds the slice a logged op names (a follower replaying its leader's fold); returns the entries moved. */
export function foldLoggedSlice(dbs: AdjacencyDbs, slice: FoldSlice): number {
  const range = { ...(slice.from === null ? {} : { start: slice.from }), ...(slice.until === null ? {} : { end: slice.until }) };
  return foldRange(dbs, range, Number.POSITIVE_INFINITY).keys.length;
}

/** Folds the whole lists pendingRange finds and removes their pending keys (a slice: the rest stay). */
function foldRange(dbs: AdjacencyDbs, range: { start?: Uint8Array; end?: Uint8Array }, atLeast: number): PendingFound {
  const found = pendingRange(dbs, range, atLeast);
  foldLists(dbs, found);
  for (const key of found.keys) dbs.inPending.removeSync(key);
  return found;
}

interface PendingFound {
  keys: Uint8Array[];
  values: Uint8Array[];
  /** The first key of the list after the ones found, when they stopped before the range's end. */
  next: Uint8Array | null;
}

/** The pending entries of `range`, in key order: whole lists, stopping at the first list boundary past `atLeast` entries. */
function pendingRange(dbs: AdjacencyDbs, range: { start?: Uint8Array; end?: Uint8Array }, atLeast: number): PendingFound {
  const keys: Uint8Array[] = [];
  const values: Uint8Array[] = [];
  for (const { key, value } of dbs.inPending.getRange(range)) {
    if (keys.length >= atLeast) {
      const last = keys[keys.length - 1]!;
      if (!samePrefix(key, last, pendingPrefixLength(last))) return { keys, values, next: key.slice(0, pendingPrefixLength(key)) };
    }
    keys.push(key);
    values.push(value);
  }
  return { keys, values, next: null };
}

/** Appends the entries found (sorted by list, then edge id) to their lists, each list once. */
function foldLists(dbs: AdjacencyDbs, { keys, values }: PendingFound): void {
  let scratch = new Uint8Array(ENTRY_BYTES * 64);
  const last: LastKey = { key: null };
  for (let i = 0; i < keys.length; ) {
    const first = keys[i]!;
    const prefixLength = pendingPrefixLength(first);
    let j = i;
    while (j < keys.length && samePrefix(keys[j]!, first, prefixLength)) j++;
    const bytes = (j - i) * ENTRY_BYTES;
    if (scratch.length < bytes) scratch = new Uint8Array(Math.max(bytes, scratch.length * 2));
    for (let k = i; k < j; k++) {
      const at = (k - i) * ENTRY_BYTES;
      copyBytes(keys[k]!, prefixLength, scratch, at, ID_BYTES);
      copyBytes(values[k]!, 0, scratch, at + ID_BYTES, ID_BYTES);
    }
    // The list's tail key is the pending keys' prefix without its 0x00.
    appendToList(dbs.in, first.subarray(0, prefixLength - 1), scratch.subarray(0, bytes), last);
    i = j;
  }
}

function samePrefix(key: Uint8Array, first: Uint8Array, prefixLength: number): boolean {
  if (key.length !== first.length) return false;
  for (let b = prefixLength - 1; b >= 0; b--) if (key[b] !== first[b]) return false;
  return true;
}
