// A tenant's store within its limits (strand serve --tenant-max-records, --tenant-max-bytes): a
// write to a tenant at a limit is refused before it runs, 507 TENANT_FULL naming the tenant, the
// limit and where it stands; reads go on. Every write path (named queries, ad-hoc, /mcp tools)
// passes here. Bytes are data.mdb's size (one stat); records are counted before each write by
// walking the tenant's keys (a tenant under a record limit holds at most that many, so the walk is
// bounded by the limit); a write may pass the limit by what it adds itself.
import { statSync } from "node:fs";
import { join } from "node:path";
import type { QueryContext } from "../../core/query-context.js";
import { StrandError } from "../../core/errors.js";
import type { GraphStore } from "../../runtime/graph-store.js";
import type { QueryStore } from "../../runtime/query/query-store.js";
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
  ) {}

  get queryTimeoutMs(): number {
    return this.store.queryTimeoutMs;
  }

  read<T>(fn: (db: QueryContext) => T): T {
    return this.store.read(fn);
  }

  write<T>(fn: (db: QueryContext) => T): Promise<T> {
    const full = this.fullness();
    if (full !== null) return Promise.reject(full);
    return this.store.write(fn);
  }

  answersFromSnapshot(): boolean {
    return this.store.answersFromSnapshot();
  }

  flushed(): Promise<void> {
    return this.store.flushed();
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

  /** TENANT_FULL when the tenant is at a limit, else null. */
  private fullness(): StrandError | null {
    const { maxBytes, maxRecords } = this.limits;
    if (maxBytes > 0) {
      const bytes = statSync(join(this.dir, "data.mdb")).size;
      if (bytes >= maxBytes) return full(this.tenant, `${bytes} bytes, at its limit of ${maxBytes} (tenant_max_bytes)`);
    }
    if (maxRecords > 0) {
      const records = this.store.stats().records.reduce((sum, r) => sum + r.count, 0);
      if (records >= maxRecords) return full(this.tenant, `${records} records, at its limit of ${maxRecords} (tenant_max_records)`);
    }
    return null;
  }
}

function full(tenant: string, where: string): StrandError {
  return new StrandError("TENANT_FULL", `the tenant "${tenant}" holds ${where}: it takes no more writes; drop records or raise the limit`);
}
