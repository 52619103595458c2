// The value of one `commit_log` entry (see commit-log/log-entries.ts). A leaf: dbs.ts types the database with it.
import type { Key } from "./keys.js";

/** `[db, key, value]`: the key now holds value; `[db, key]`: the key was removed. `db` names a StoreDbs member. */
export type StoredOp = [db: string, key: Key, value: unknown] | [db: string, key: Key];

export interface CommitEntry {
  /** When the transaction committed (Date.now() of the writing process, ms). */
  t: number;
  ops: StoredOp[];
  /** The binary databases' changes in the order made, packed (commit-log/binary-ops.ts); absent: none. */
  b?: Uint8Array;
  /** The transaction's vector index changes, in order (runtime/vector/changes.ts VectorChange). */
  vec: unknown[];
  /** The read-cache keys it marked (runtime/store/read-cache.ts). */
  keys: string[];
}
