// The commit log (replication): every write transaction appends one entry to `commit_log`, keyed
// by a sequence number one above the last, in the same LMDB transaction as its changes. The
// newest entry is never trimmed, so the current sequence is the log's last key: one cursor
// positioned at the end, never a scan (and no other page dirtied per write). An entry holds
// the *final* value of every key the transaction changed, per database, as the writer left it:
// replaying `ops` reproduces the store byte for byte whatever the key and record encodings are,
// and `vec` and `keys` carry what a follower must also do in memory (its HNSW indexes and read
// cache). Reads only here; the writes are in runtime/commit-log/log-writes.ts.
import type { GetOptions, Transaction } from "lmdb";
import type { CommitEntry } from "../store/commit-entry.js";
import type { StoreDbs } from "../store/dbs.js";
import { type Key, LOG_HOLLOW_KEY } from "../store/keys.js";

/** A database of `StoreDbs` a logged change may name (every one but `env`, `meta` and the log itself). */
export type LoggedDbName = Exclude<keyof StoreDbs, "env" | "meta" | "commitLog">;

/**
 * The op forms a log entry may hold, as a number a replica's Strand must know
 * (replication/identity.ts): 1, a key's change and the fold of every pending incoming entry;
 * 2 adds the fold of a slice of them (adjacency/pending-in-writes.ts), a list's append, and the
 * binary databases' changes packed in the entry's `b` (binary-ops.ts), which a follower of
 * version 1 would not even see: it would apply the entry without them.
 */
export const LOG_OPS_VERSION = 2;

/** The third element of a list's append op: `[db, list key, LIST_APPEND_OP, entries]`. */
export const LIST_APPEND_OP = "append";

/**
 * `[db, key, value]`: the key now holds value; `[db, key]`: the key was removed (and the fold ops,
 * FOLD_OP_KEY); `["out" | "in", list key, LIST_APPEND_OP, entries]`: the entries were appended to
 * the list (adjacency/list-writes.ts appendToList), which a follower does again to the same list.
 */
export type LoggedOp = KeyedOp | [db: "out" | "in", key: Uint8Array, kind: typeof LIST_APPEND_OP, entries: Uint8Array];

/** A key's final value or its removal: what an entry's `ops` hold (the rest is packed, commit-log/binary-ops.ts). */
export type KeyedOp = [db: LoggedDbName, key: Key, value: unknown] | [db: LoggedDbName, key: Key];

export type { CommitEntry };

/** The newest sequence number in the store (0: nothing logged yet). */
export function commitSeqOf(dbs: StoreDbs, transaction?: Transaction): number {
  for (const key of dbs.commitLog.getKeys({ reverse: true, limit: 1, ...(transaction ? { transaction } : {}) })) return key;
  return 0;
}

/** The oldest entry still kept (retention trims from the front); null when none is kept. */
export function oldestLoggedSeq(dbs: StoreDbs, transaction?: Transaction): number | null {
  for (const key of dbs.commitLog.getKeys({ limit: 1, ...(transaction ? { transaction } : {}) })) return key;
  return null;
}

/** The commit time of entry `seq`, or null when it is not kept. */
export function loggedTime(dbs: StoreDbs, seq: number, transaction?: Transaction): number | null {
  const entry = dbs.commitLog.get(seq, transaction ? { transaction } : undefined);
  return entry === undefined ? null : entry.t;
}

export interface LogFrames {
  /** The sequence number of frames[0]; the others follow one by one. */
  first: number;
  /** Each entry's stored bytes, exactly as LMDB holds them (a follower stores them as they are). */
  frames: Uint8Array[];
}

/**
 * The entries after `after` up to `upTo`, oldest first, at most `maxCount` and (past the first)
 * `maxBytes` in all, from one snapshot. `gone` when entry after+1 is no longer kept (or never
 * was) while the store is past it: the reader must start again from a backup. `upTo` keeps a
 * reader to what is flushed: LMDB shows a commit to new snapshots before its flush, and an entry
 * served then could be lost by a crash that the reader's copy survives.
 */
export function readLogFrames(
  dbs: StoreDbs,
  after: number,
  maxCount: number,
  maxBytes: number,
  upTo = Number.MAX_SAFE_INTEGER,
): LogFrames | "gone" {
  const transaction = dbs.env.useReadTransaction();
  try {
    const seq = Math.min(commitSeqOf(dbs, transaction), upTo);
    // A hollow entry after `after` holds none of its write's changes: the follower must seed again.
    if (after < hollowSeq(dbs, transaction)) return "gone";
    const frames: Uint8Array[] = [];
    let bytes = 0;
    for (let next = after + 1; next <= seq && frames.length < maxCount; next++) {
      const raw = storedBytes(dbs, next, { transaction });
      if (raw === undefined) {
        if (frames.length === 0) return "gone";
        break;
      }
      if (frames.length > 0 && bytes + raw.length > maxBytes) break;
      frames.push(raw);
      bytes += raw.length;
    }
    return { first: after + 1, frames };
  } finally {
    transaction.done();
  }
}

/** The newest sequence whose entry is hollow (log-writes.ts appendHollow); 0: none. */
export function hollowSeq(dbs: StoreDbs, transaction?: Transaction): number {
  const value = dbs.meta.get(LOG_HOLLOW_KEY, transaction ? { transaction } : undefined);
  return typeof value === "number" ? value : 0;
}

/** lmdb's getBinary takes read options like get does; its typings leave them out. */
function storedBytes(dbs: StoreDbs, seq: number, options: GetOptions): Uint8Array | undefined {
  const getBinary = dbs.commitLog.getBinary as (id: number, options?: GetOptions) => Uint8Array | undefined;
  return getBinary.call(dbs.commitLog, seq, options);
}
