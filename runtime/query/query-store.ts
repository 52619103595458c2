// What running a query needs of a store, and all the HTTP layer asks of one: one read snapshot or
// one durable write transaction per request. GraphStore satisfies it structurally, and so does a
// node's role-aware store (server/node/role-store.ts); tests and benches can put any store with the
// same contract behind the server.
import type { QueryContext, StoredAnswer } from "../../core/query-context.js";
import type { StoreStats } from "../records/store-stats.js";

export interface QueryStore {
  /** Runs fn synchronously against one consistent snapshot. */
  read<T>(fn: (db: QueryContext) => T): T;
  /** Runs fn in a serialized write transaction; resolves once durable, rejects with fn's error (nothing committed). */
  write<T>(fn: (db: QueryContext) => T): Promise<T>;
  /**
   * How long one query may run, in ms (0 or absent: no limit). The store's contexts enforce it on
   * their own; the query runner reads it to count a request's embedding calls against it too.
   */
  readonly queryTimeoutMs?: number;
  /**
   * Whether a retry's stored answer (an Idempotency-Key's) may be given from what is
   * committed (storedAnswer), without the write path: true where a write is acknowledged once committed and flushed (a
   * leader without synchronous replicas). Absent or false: the retry takes the write path, which
   * checks the node's role and waits for the replicas as a write does.
   */
  replaysWithoutWriting?(): boolean;
  /**
   * The answer stored under an Idempotency-Key at or after `notBefore` as last committed (one
   * lookup, no snapshot), for a retry answered without the write path (`replaysWithoutWriting`).
   */
  storedAnswer?(key: string, notBefore: number): StoredAnswer | undefined;
  /** Resolves once everything committed so far is on disk (a replay without writing waits for it). */
  flushed?(): Promise<void>;
  /** What the store holds, for GET /metrics (optional: stores without it report request metrics only). */
  stats?(): StoreStats;
}
