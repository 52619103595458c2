// When to give back the memory closed tenants freed (release-memory.ts): once some tenant has
// closed since the last release and a whole sweep interval went by with no request for a tenant
// started and none in flight. The release collects the engine's heap synchronously (as long as the
// live heap is large: release-memory.ts), so it waits until the tenants are quiet; requests to the
// project's own graph and /metrics scrapes do not count (they would put it off for ever on a
// monitored server), so those arriving then wait for it, once per sweep interval at most. Tenants
// never quiet for a sweep interval are left to V8's memory reducer and the allocator's own
// trimming; `--tenant-memory-release false` leaves them to those always.
import type { MemoryReleased } from "./release-memory.js";

export interface IdleReleaseOptions {
  /** Requests for a tenant started since the server did (any count that grows with each). */
  requests: () => number;
  /** Whether a request is in flight or a tenant is closing now. */
  busy: () => boolean;
  /** null: nothing to release with (release-memory.ts's native module missing, warned of). */
  release: (() => MemoryReleased) | null;
}

export class IdleRelease {
  private owed = false;
  private requestsAtTick = -1;
  /** Releases done since start (strand_tenant_memory_releases_total). */
  releases = 0;
  /** The last release's, null before the first (strand_tenant_memory_release_last_seconds). */
  last: MemoryReleased | null = null;

  constructor(private readonly options: IdleReleaseOptions) {}

  /** A tenant's store closed: its memory is owed back. */
  closed(): void {
    this.owed = true;
  }

  /** At each sweep: releases when owed and no request started since the previous tick; what it did, or null. */
  tick(): MemoryReleased | null {
    const requests = this.options.requests();
    const quiet = requests === this.requestsAtTick && !this.options.busy();
    this.requestsAtTick = requests;
    const { release } = this.options;
    if (!this.owed || !quiet || release === null) return null;
    this.owed = false;
    this.releases++;
    this.last = release();
    return this.last;
  }
}
