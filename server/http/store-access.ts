// What the HTTP layer needs from the store: one read snapshot or one durable write transaction
// per request. `GraphStore` satisfies this structurally; keeping the HTTP layer on this narrow
// interface lets it be tested and benchmarked against any store with the same contract.
import type { QueryContext } from "../../core/query-context.js";
import type { StoreStats } from "../../runtime/stats.js";

export interface StoreAccess {
  /** Runs fn synchronously against one consistent snapshot. */
  read<T>(fn: (db: QueryContext) => T): T;
  /** Runs fn in a serialized write transaction; resolves once durable, rejects with fn's error (nothing committed). */
  write<T>(fn: (db: QueryContext) => T): Promise<T>;
  /** What the store holds, for GET /metrics (optional: stores without it report request metrics only). */
  stats?(): StoreStats;
}
