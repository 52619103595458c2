// Who may still need the commit log's entries, so a node keeps (and records) only what they need:
// the followers that asked for entries lately, each at the position it last asked from, and the
// seeds handed out (a replica seeded from a backup at sequence S next asks for S+1). A log "on
// demand" records full entries only while someone may need them, and trims below the slowest of
// them; with nobody, a write leaves a hollow entry (its sequence, no changes: log-writes.ts) and
// the log keeps the newest entry alone. For a while after the store opens it records as if a
// follower were there, when its newest entry was recorded (commit-log.ts): a follower of the node
// before its restart comes back within it.

export interface ReaderPolicy {
  /** A follower (or seed) not heard of for this long needs nothing kept: it seeds again on return. */
  windowMs: number;
  /** After the store opens, it records (and keeps within the retention) for this long, unasked. */
  graceMs: number;
  /**
   * Readers of many stores at once (a replica following a server's tenants, server/tenants/):
   * while one is live, every write is recorded and the retention alone trims below the followers
   * that asked, since such a reader asks a store only after it has changed.
   */
  shared?: SharedLogReaders;
}

/** Readers of many stores' logs at once (a replica following a server's tenants): whether one is live now. */
export interface SharedLogReaders {
  live(now: number): boolean;
}

export const DEFAULT_READER_POLICY: Readonly<ReaderPolicy> = { windowMs: 10 * 60_000, graceMs: 30_000 };

interface Position {
  seq: number;
  at: number;
}

export class LogReaders {
  private readonly positions = new Map<string, Position>();
  private readonly openedAt: number;

  constructor(
    readonly policy: ReaderPolicy,
    now: number,
  ) {
    this.openedAt = now;
  }

  /** A follower (`id`: its member id, or an address) asked for the entries after `seq`. */
  asked(id: string, seq: number, now: number): void {
    this.positions.set(`f:${id}`, { seq, at: now });
  }

  /** A seed backup at `seq` was handed out: the replica it makes asks for `seq + 1` next. */
  seeded(seq: number, now: number): void {
    this.positions.set(`s:${now}:${seq}`, { seq, at: now });
  }

  /** Whether a write now must record its changes: someone may ask for them. */
  needed(now: number): boolean {
    return now - this.openedAt < this.policy.graceMs || this.live(now).length > 0 || this.policy.shared?.live(now) === true;
  }

  /**
   * The oldest entry someone may still ask for (entries before it may go), or null while the
   * store is in its grace period (keep what the retention keeps). With nobody: +Infinity.
   */
  floor(now: number): number | null {
    if (now - this.openedAt < this.policy.graceMs) return null;
    const live = this.live(now);
    if (live.length > 0) return Math.min(...live.map((p) => p.seq));
    return this.policy.shared?.live(now) === true ? null : Number.POSITIVE_INFINITY;
  }

  /** How many followers and seeds count now. */
  count(now: number): number {
    return this.live(now).length;
  }

  private live(now: number): Position[] {
    const out: Position[] = [];
    for (const [key, p] of this.positions) {
      if (now - p.at > this.policy.windowMs) this.positions.delete(key);
      else out.push(p);
    }
    return out;
  }
}
