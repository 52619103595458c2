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
 * key can be) instead of the ~2 changes per entry it makes, which a follower replays by folding
 * itself (applyCommitFrames): it applied the same changes before, so it holds the same pending
 * entries and lists, and the fold leaves the same bytes.
 */
export const FOLD_OP_KEY = new Uint8Array(0);

export function isFoldOp(op: readonly unknown[]): boolean {
  return op.length === 2 && op[0] === "inPending" && op[1] instanceof Uint8Array && op[1].length === 0;
}

/**
 * Moves every pending entry into its `in` list, oldest first, each list rewritten once (in key
 * order, so the B-tree is written front to back), and empties `adjacency_in_pending`. Every
 * pending entry goes: one left behind could be older than a later one put straight into its list.
 * Returns the number of entries moved.
 */
export function foldPendingIn(dbs: AdjacencyDbs): number {
  const keys: Uint8Array[] = [];
  const values: Uint8Array[] = [];
  for (const { key, value } of dbs.inPending.getRange({})) {
    keys.push(key);
    values.push(value);
  }
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
  // All of them go: dropping the database's pages costs far less than a delete per key. Never
  // through a recording database (clearSync is not recorded): the fold is logged as one op.
  if (keys.length > 0) dbs.inPending.clearSync();
  return keys.length;
}

function samePrefix(key: Uint8Array, first: Uint8Array, prefixLength: number): boolean {
  if (key.length !== first.length) return false;
  for (let b = prefixLength - 1; b >= 0; b--) if (key[b] !== first[b]) return false;
  return true;
}
