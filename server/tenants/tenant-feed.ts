// What changed among a leader's tenants, for its replicas (server/tenants/tenant-sync.ts): each
// tenant's newest commit sequence, its creation and its drop, numbered by a version that grows
// with every change. A replica long-polls the changes since the version it last saw, then asks
// only the tenants that changed for their log entries: an idle tenant costs a replica nothing.
// The feed lives in memory and is named by a random id per process: a replica that finds another
// id (the leader restarted) asks for the whole list again, with each tenant's sequence.
import { randomUUID } from "node:crypto";
import type { LogPosition, TenantChange, TenantFeedAnswer } from "../../runtime/replication/protocol.js";

interface Waiter {
  resolve: () => void;
  timer: NodeJS.Timeout;
}

/** How long a replica stays counted as following the tenants after its last poll (ms). */
export const FEED_READER_WINDOW_MS = 10 * 60_000;

export class TenantFeed {
  readonly id = randomUUID();
  private version = 0;
  /** Each tenant changed since start: its version and newest sequence (null: dropped). */
  private readonly changes = new Map<string, { version: number; at: LogPosition | null }>();
  private waiters: Waiter[] = [];
  private lastPoll = Number.NEGATIVE_INFINITY;

  constructor(private readonly now: () => number = Date.now) {}

  /** A replica polled lately: tenant stores record every write for it (commit-log/log-readers.ts `shared`). */
  readonly readers = { live: (now: number): boolean => now - this.lastPoll <= FEED_READER_WINDOW_MS };

  /** The version now: a replica that has applied it holds every tenant as this node holds them. */
  get current(): number {
    return this.version;
  }

  /** The tenant's log stands at `at` (after a write, or its creation at 0); the version that says so. */
  committed(name: string, at: LogPosition): number {
    const known = this.changes.get(name)?.at;
    if (known == null || known.seq !== at.seq || known.time !== at.time) this.bump(name, at);
    return this.version;
  }

  dropped(name: string): void {
    this.bump(name, null);
  }

  /** The changes after `since` of feed `feed`; the whole list (from `list`) when the feed is another or none was given. */
  answer(feed: string | undefined, since: number, list: () => TenantChange[]): TenantFeedAnswer {
    this.lastPoll = this.now();
    if (feed !== this.id || since > this.version) return { feed: this.id, version: this.version, full: true, tenants: list(), dropped: [] };
    const tenants: TenantChange[] = [];
    const dropped: string[] = [];
    for (const [name, change] of this.changes) {
      if (change.version <= since) continue;
      if (change.at === null) dropped.push(name);
      else tenants.push({ name, at: change.at });
    }
    return { feed: this.id, version: this.version, full: false, tenants, dropped };
  }

  /** Resolves once the version passes `since` (true), or after `ms` (false). */
  waitPast(since: number, ms: number): Promise<boolean> {
    if (this.version > since) return Promise.resolve(true);
    if (ms <= 0) return Promise.resolve(false);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        resolve: () => resolve(true),
        timer: setTimeout(() => {
          this.waiters = this.waiters.filter((w) => w !== waiter);
          resolve(false);
        }, ms),
      };
      this.waiters.push(waiter);
    });
  }

  /** Answers every waiting poll (the server is closing). */
  close(): void {
    for (const w of this.waiters.splice(0)) {
      clearTimeout(w.timer);
      w.resolve();
    }
  }

  private bump(name: string, at: LogPosition | null): void {
    this.version++;
    // Re-inserted so the map stays in version order.
    this.changes.delete(name);
    this.changes.set(name, { version: this.version, at });
    for (const w of this.waiters.splice(0)) {
      clearTimeout(w.timer);
      w.resolve();
    }
  }
}
