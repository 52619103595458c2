// The store as a read replica serves it: reads go to the current store (a re-seed swaps it; while
// it does, reads answer 503 REPLICA_BEHIND), and every write — a query that writes, over HTTP or
// /mcp — is refused with 421 NOT_LEADER naming the leader, before anything runs.
import { NotLeaderError, StrandError } from "../../core/errors.js";
import type { QueryContext } from "../../core/query-context.js";
import type { BackupOutcome } from "../../runtime/backup/backup.js";
import type { GraphStore } from "../../runtime/graph-store.js";
import type { StoreStats } from "../../runtime/stats.js";
import type { StoreAccess } from "../http/store-access.js";

export class ReplicaStore implements StoreAccess {
  /** null while a re-seed replaces the store. */
  current: GraphStore | null;

  constructor(
    store: GraphStore,
    readonly leader: string,
  ) {
    this.current = store;
  }

  read<T>(fn: (db: QueryContext) => T): T {
    return this.store().read(fn);
  }

  write<T>(_fn: (db: QueryContext) => T): Promise<T> {
    return Promise.reject(new NotLeaderError(this.leader));
  }

  stats(): StoreStats {
    return this.store().stats();
  }

  backup(out: string): Promise<BackupOutcome> {
    return this.store().backup(out);
  }

  private store(): GraphStore {
    if (this.current === null)
      throw new StrandError(
        "REPLICA_BEHIND",
        "this replica is re-seeding from its leader's backup; retry shortly, or read from the leader",
      );
    return this.current;
  }
}
