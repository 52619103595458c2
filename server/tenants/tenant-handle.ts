// What the registry holds open for one tenant: its graph (within its limits), and its memory (the
// MCP memory server's tools at /t/<tenant>/memory/mcp, with `--memory`) in `<tenant>/memory`,
// opened on its first call, since most tenants of a graph application never use it. Closing the
// tenant closes both.
import { join } from "node:path";
import type { MemoryService } from "../memory/memory-service.js";
import type { LogPosition } from "../../runtime/replication/protocol.js";
import type { StoreStats } from "../../runtime/records/store-stats.js";
import type { LimitedStore } from "./limited-store.js";
import type { ClosedMarker } from "./kept-positions.js";
import type { TenantStore } from "./tenant-registry.js";

export interface TenantMemory {
  service: MemoryService;
  close(): Promise<void>;
}

/** Opens (creating) the memory in a folder; rejects with a StrandError saying why it cannot. */
export type OpenTenantMemory = (dir: string) => Promise<TenantMemory>;

export class TenantHandle implements TenantStore {
  private memory: Promise<TenantMemory> | null = null;

  constructor(
    readonly graph: LimitedStore,
    private readonly dir: string,
    private readonly openMemory: OpenTenantMemory | null,
    /** Its closed marker, removed before the store's first change (kept-positions.ts). */
    private readonly marker: ClosedMarker,
  ) {}

  position(): LogPosition {
    return this.graph.position();
  }

  timeOf(seq: number): number | null {
    return this.graph.store.log.timeOf(seq);
  }

  /** Created again after a drop: its log continues after the dropped one's last sequence. */
  continueLogAfter(seq: number): Promise<number> {
    this.marker.beforeChange();
    return this.graph.store.continueLogAfter(seq);
  }

  /** A replica applies its leader's log entries of this tenant (tenant-sync.ts). */
  applyLogEntries(first: number, frames: readonly Uint8Array[]): Promise<number> {
    this.marker.beforeChange();
    return this.graph.store.applyLogEntries(first, frames);
  }

  stats(): StoreStats {
    return this.graph.stats();
  }

  /** The tenant's memory service, opened on first use; null when the server serves no memory. */
  memorySource(): (() => Promise<MemoryService>) | null {
    const open = this.openMemory;
    if (open === null) return null;
    return async () => {
      this.memory ??= open(join(this.dir, "memory")).catch((error: unknown) => {
        this.memory = null; // a failed open is tried again by the next call
        throw error;
      });
      return (await this.memory).service;
    };
  }

  async close(): Promise<void> {
    const memory = this.memory;
    this.memory = null;
    try {
      if (memory !== null) await (await memory.catch(() => null))?.close();
    } finally {
      await this.graph.close();
    }
  }
}
