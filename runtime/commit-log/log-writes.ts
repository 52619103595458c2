// Writes of the commit log (runtime/commit-log/log-entries.ts): appending a write transaction's entry,
// trimming old entries, and a follower applying entries it received from its leader.
import { asBinary, type Database } from "lmdb";
import { commitSeqOf, type CommitEntry, type KeyedOp, LIST_APPEND_OP, type LoggedDbName, type LoggedOp } from "./log-entries.js";
import type { StoreDbs } from "../store/dbs.js";
import { type Key, LOG_HOLLOW_KEY } from "../store/keys.js";
import type { VectorChange } from "../vector/changes.js";
import { foldLoggedSlice, foldOfOp, foldPendingIn } from "../adjacency/pending-in-writes.js";
import { appendToList } from "../adjacency/list-writes.js";
import { decodeBinaryOps } from "./binary-ops.js";
import { ID_BYTES, readIdBytes } from "../store/id-bytes.js";
import { adjacencyKey, isAdjacencyKey } from "../store/read-cache.js";

/**
 * Appends the entry of the transaction now ending; call last in its callback, inside it.
 * Returns the entry's sequence number.
 */
export function appendCommit(
  dbs: StoreDbs,
  ops: KeyedOp[],
  vec: VectorChange[],
  keys: string[],
  t = Date.now(),
  /** The binary databases' changes, packed (binary-ops.ts); null: none. */
  packed: Uint8Array | null = null,
): number {
  const seq = commitSeqOf(dbs) + 1;
  // Adjacency lists' keys are left out: every change of a list is an op on its keys, from which a
  // follower names them again (adjacencyKeyOfOp); they were ~40% of a FOR-loop write's entry.
  const entry: CommitEntry = { t, ops, vec: vec as unknown[], keys: keys.filter((key) => !isAdjacencyKey(key)) };
  if (packed !== null) entry.b = packed;
  dbs.commitLog.putSync(seq, entry);
  return seq;
}

/**
 * Ends a mark's transaction (commit.ts kind `mark`): an entry with no change, at the next sequence
 * or, when the log must continue a history that ended at `after` (a tenant created again after a
 * drop: its bookmarks must never go backward), at `after + 1`. Call last, inside the transaction.
 */
export function appendMark(dbs: StoreDbs, after: number, t = Date.now()): number {
  const seq = Math.max(commitSeqOf(dbs) + 1, after + 1);
  const entry: CommitEntry = { t, ops: [], vec: [], keys: [] };
  dbs.commitLog.putSync(seq, entry);
  return seq;
}

/** Older entries a hollow write removes at most (the background trim takes a longer backlog). */
const HOLLOW_TRIM = 16;

/**
 * Ends the transaction of a write no follower needs (commit-log.ts `recording`): its entry holds
 * its sequence and time and none of its changes, meta `log_hollow` says so (readLogFrames then
 * refuses a follower behind it), and entries before it go (nobody asks for them). Call last,
 * inside the transaction. Returns the entry's sequence number.
 */
export function appendHollow(dbs: StoreDbs, t = Date.now()): number {
  const seq = commitSeqOf(dbs) + 1;
  const entry: CommitEntry = { t, ops: [], vec: [], keys: [] };
  dbs.commitLog.putSync(seq, entry);
  dbs.meta.putSync(LOG_HOLLOW_KEY, seq);
  trimCommitLog(dbs, seq, HOLLOW_TRIM);
  return seq;
}

/**
 * Ends a bulk load's transaction (strand import): its changes are not logged key by key. The
 * entry goes one past the next sequence, with no changes, so the sequence the load skipped is
 * never kept: a replica at or behind the store's sequence before the load asks for it, is told
 * the log is gone (readLogFrames) and re-seeds from a backup, which holds the load. Call last,
 * inside the transaction. Returns the entry's sequence number.
 */
export function appendGap(dbs: StoreDbs, t = Date.now()): number {
  const seq = commitSeqOf(dbs) + 2;
  const entry: CommitEntry = { t, ops: [], vec: [], keys: [] };
  dbs.commitLog.putSync(seq, entry);
  return seq;
}

/** Removes the entries with sequence < `before`, at most `limit` of them; returns how many. Never pass a `before` above the newest: it names the sequence. */
export function trimCommitLog(dbs: StoreDbs, before: number, limit: number): number {
  // Collected first: the cursor is not moved under its own deletions.
  const keys = [...dbs.commitLog.getKeys({ end: before, limit })];
  for (const key of keys) dbs.commitLog.removeSync(key);
  return keys.length;
}

export interface AppliedFrames {
  /** The sequence number the store is at now. */
  seq: number;
  /** The commit time of the last entry applied (the leader's clock). */
  time: number;
  /** Vector index changes of every entry, in order. */
  vec: VectorChange[];
  /** Read-cache keys every entry touched. */
  keys: string[];
  /**
   * What the entries did to `adjacency_in_pending`: whether one of them folded it, and the
   * entries put minus removed (since the last fold, when one did), so a replica that later
   * writes (after a promotion) knows when to fold.
   */
  pending: { folded: boolean; delta: number };
}

/**
 * The entries a follower got do not start right after its store's sequence: the store moved
 * after it asked (a deposed leader's own writes, settling after it began to follow). Nothing was
 * applied; asking again from where the store is now is the remedy.
 */
export class LogPositionError extends Error {
  constructor(
    readonly first: number,
    readonly current: number,
  ) {
    super(`log entries start at ${first}, but the store is at ${current}`);
  }
}

/**
 * A follower stores its leader's entries `first, first + 1, ..` (their bytes as the leader held
 * them, so its own log serves the same entries) and applies each one's changes, in one
 * transaction; call inside it. Throws when `first` does not follow the store's sequence or an
 * entry names an unknown database.
 */
export function applyCommitFrames(dbs: StoreDbs, first: number, frames: readonly Uint8Array[]): AppliedFrames {
  const current = commitSeqOf(dbs);
  if (first !== current + 1) throw new LogPositionError(first, current);
  const applied: AppliedFrames = { seq: current, time: 0, vec: [], keys: [], pending: { folded: false, delta: 0 } };
  const lists = new Set<string>();
  for (const [i, frame] of frames.entries()) {
    const seq = first + i;
    dbs.commitLog.putSync(seq, asBinary(frame) as unknown as CommitEntry);
    const entry = dbs.commitLog.get(seq);
    if (entry === undefined || !Array.isArray(entry.ops)) throw new Error(`log entry ${seq} is not a commit entry`);
    for (const op of entryOps(entry)) {
      applyOp(dbs, op, applied.pending);
      const list = adjacencyKeyOfOp(op);
      if (list !== null) lists.add(list);
    }
    for (const change of entry.vec) applied.vec.push(change as VectorChange);
    for (const key of entry.keys) applied.keys.push(key);
    applied.seq = seq;
    applied.time = entry.t;
  }
  for (const list of lists) applied.keys.push(list);
  return applied;
}

/** An entry's changes in the order a follower applies them: the keyed ones, then the packed ones. */
export function entryOps(entry: CommitEntry): LoggedOp[] {
  const ops = entry.ops as LoggedOp[];
  return entry.b === undefined ? ops : [...ops, ...decodeBinaryOps(entry.b)];
}

const labelDecoder = new TextDecoder();

/**
 * The read-cache key (store/read-cache.ts adjacencyKey) of the list an op changes: an `out` or
 * `in` list's tail or chunk (node id bytes, label, then 0x00 and the chunk's number), or a pending
 * incoming entry (node id bytes, label, 0x00, edge id); null for any other op (a fold changes no
 * list as readers see it).
 */
export function adjacencyKeyOfOp(op: LoggedOp): string | null {
  const [db, key] = op;
  if ((db !== "out" && db !== "in" && db !== "inPending") || !(key instanceof Uint8Array) || key.length <= ID_BYTES) return null;
  const end = key.indexOf(0, ID_BYTES);
  const label = labelDecoder.decode(key.subarray(ID_BYTES, end === -1 ? key.length : end));
  return adjacencyKey(db === "out" ? "out" : "in", readIdBytes(key, 0), label);
}

function applyOp(dbs: StoreDbs, op: LoggedOp, pending: AppliedFrames["pending"]): void {
  const fold = foldOfOp(op);
  if (fold === "all") {
    foldPendingIn(dbs);
    pending.folded = true;
    pending.delta = 0;
    return;
  }
  if (fold !== null) {
    pending.delta -= foldLoggedSlice(dbs, fold);
    return;
  }
  if (op.length === 4) {
    const [name, key, kind, entries] = op as unknown[];
    if (kind !== LIST_APPEND_OP || (name !== "out" && name !== "in") || !(key instanceof Uint8Array) || !(entries instanceof Uint8Array))
      throw new Error(`log entry holds a malformed op of 4 elements on "${String(name)}"`);
    appendToList(dbs[name], key, entries, { key: null });
    return;
  }
  // A pending key is put once (its edge is new) and removed only where it was found.
  if (op[0] === "inPending") pending.delta += op.length === 3 ? 1 : -1;
  const db = loggedDb(dbs, op[0]);
  if (op.length === 3) db.putSync(op[1], op[2]);
  else db.removeSync(op[1]);
}

function loggedDb(dbs: StoreDbs, name: LoggedDbName): Database<unknown, Key> {
  if (
    name === ("env" as LoggedDbName) ||
    name === ("meta" as LoggedDbName) ||
    name === ("commitLog" as LoggedDbName) ||
    !Object.hasOwn(dbs, name)
  )
    throw new Error(`log entry names an unknown database "${String(name)}"`);
  return dbs[name] as Database<unknown, Key>;
}
