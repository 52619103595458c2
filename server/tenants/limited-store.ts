// A tenant's store within its limits (strand serve --tenant-max-records, --tenant-max-bytes): a
// write that would take a tenant past a limit is rolled back, 507 TENANT_FULL naming the tenant,
// the limit and where it stands; reads go on. Every write path (named queries, ad-hoc, /mcp tools)
// passes here. Bytes are data.mdb's size (one stat; the file does not shrink, so a tenant at the
// bytes limit can only rewrite and drop); records are counted in the write's transaction by
// walking the tenant's keys (bounded by the limit).
import { statSync } from "node:fs";
import { join } from "node:path";
import type { QueryContext, StoredAnswer } from "../../core/query-context.js";
import { StrandError } from "../../core/errors.js";
import type { GraphStore } from "../../runtime/graph-store.js";
import type { QueryStore } from "../../runtime/query/query-store.js";
import type { LogPosition } from "../../runtime/replication/protocol.js";
import type { StoreStats } from "../../runtime/records/store-stats.js";
import type { BackupSource } from "../http/backup-route.js";

export interface TenantLimits {
  /** Records (nodes, edges, vectors) a tenant may hold; 0: no limit. */
  maxRecords: number;
  /** Bytes a tenant's data file may take; 0: no limit. */
  maxBytes: number;
  /** Requests per second a tenant may make (tenant-dispatch.ts); 0: no limit. */
  maxRequestsPerSecond: number;
}

export const NO_LIMITS: TenantLimits = { maxRecords: 0, maxBytes: 0, maxRequestsPerSecond: 0 };

export class LimitedStore implements QueryStore, BackupSource {
  constructor(
    readonly store: GraphStore,
    private readonly tenant: string,
    private readonly dir: string,
    private readonly limits: TenantLimits,
    /** Why this node takes no write now (a replica's 421), checked before each; null: it does. */
    private readonly refusal: () => Error | null = () => null,
    /** Runs before each write (once it has run, it costs nothing): the tenant's closed marker goes (kept-positions.ts). */
    private readonly beforeWrite: () => void = () => {},
    /**
     * Leading with synchronous replicas: the wait until the in-sync replicas hold the tenant at a
     * position (throws NOT_REPLICATED or FENCED when they do not); null: a write is acknowledged once committed.
     */
    private readonly confirmation: () => ((at: LogPosition) => Promise<void>) | null = () => null,
  ) {}

  /** Where the tenant's commit log stands. */
  position(): LogPosition {
    return { seq: this.store.log.committed, time: this.store.log.committedAt };
  }

  get queryTimeoutMs(): number {
    return this.store.queryTimeoutMs;
  }

  read<T>(fn: (db: QueryContext) => T): T {
    return this.store.read(fn);
  }

  /**
   * Runs the write, and inside its transaction counts the tenant's records before and after: a
   * write that adds records past the record limit, or adds any while the data file is at the bytes
   * limit, is rolled back with TENANT_FULL. Writes that add nothing (updates, drops) always pass,
   * so a full tenant can shrink. Concurrent writes are serialized by the store, so each sees the
   * ones before it: no burst passes the limit.
   */
  write<T>(fn: (db: QueryContext) => T): Promise<T> {
    const { maxBytes, maxRecords } = this.limits;
    const refused = this.refusal();
    if (refused !== null) return Promise.reject(refused);
    this.beforeWrite();
    const confirm = this.confirmation();
    const written = maxBytes === 0 && maxRecords === 0 ? this.store.write(fn) : this.limitedWrite(fn);
    if (confirm === null) return written;
    // A retry replayed from its stored answer commits nothing and waits too: what it answers may
    // be a write a new leader inherited and its replicas do not hold yet.
    return written.then(async (result) => {
      await confirm(this.position());
      return result;
    });
  }

  private limitedWrite<T>(fn: (db: QueryContext) => T): Promise<T> {
    const { maxBytes, maxRecords } = this.limits;
    return this.store.write((db) => {
      const before = this.records();
      const result = fn(db);
      const after = this.records();
      if (after > before) {
        if (maxRecords > 0 && after > maxRecords)
          throw full(
            this.tenant,
            `${before} records and this write would add ${after - before}, past its limit of ${maxRecords} (tenant_max_records)`,
          );
        const bytes = maxBytes > 0 ? statSync(join(this.dir, "data.mdb")).size : 0;
        if (maxBytes > 0 && bytes >= maxBytes)
          throw full(this.tenant, `${bytes} bytes, at its limit of ${maxBytes} (tenant_max_bytes), and this write adds records`);
      }
      return result;
    });
  }

  /** Not where writes wait for replicas: a retry takes the write path (the role check, the acknowledgement). */
  replaysWithoutWriting(): boolean {
    return this.refusal() === null && this.confirmation() === null && this.store.replaysWithoutWriting();
  }

  flushed(): Promise<void> {
    return this.store.flushed();
  }

  storedAnswer(key: string, notBefore: number): StoredAnswer | undefined {
    return this.store.storedAnswer(key, notBefore);
  }

  stats(): StoreStats {
    return this.store.stats();
  }

  backup(out: string): ReturnType<GraphStore["backup"]> {
    return this.store.backup(out);
  }

  close(): Promise<void> {
    return this.store.close();
  }

  /** Records (nodes, edges, vectors) the tenant holds, as the current transaction sees them. */
  private records(): number {
    return this.store.stats().records.reduce((sum, r) => sum + r.count, 0);
  }
}

function full(tenant: string, where: string): StrandError {
  return new StrandError("TENANT_FULL", `the tenant "${tenant}" holds ${where}; nothing was written (updates and drops still pass)`);
}
