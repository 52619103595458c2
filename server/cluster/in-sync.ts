// Synchronous replication's acknowledgement rule, on the leader. The in-sync
// set (ISR) is the replicas that hold every acknowledged write; a write committed at sequence s
// is acknowledged once the set has at least `required` members and every member has applied s.
// A member that stays behind a waiting write for longer than `lagTimeoutMs` is removed, and a
// replica that has applied everything acknowledged so far is added back — each change is
// published (to etcd, fenced by the leader's epoch) before it takes effect here, so the set in
// etcd never claims a member that lacks an acknowledged write, and any of its members can be
// promoted without losing one.
//
// Tenants' writes are held by a second position: the version of the leader's tenant feed
// (server/tenants/tenant-feed.ts) a replica has applied every change up to. A tenant's write waits
// for its feed version as the project's for its sequence, and a replica joins only once it holds
// both the sequence and the feed version acknowledged so far. -1: no version of this leader's feed.
//
// Pure logic: time comes in as `now`, publication is a callback; server/cluster/failover.ts
// drives it.

const PUBLISH_RETRY_MS = 200;

export type AckOutcome = "acked" | "timeout" | "fenced";

/** What a change not acknowledged was, for the error that says so. */
export interface UnconfirmedChange {
  /** "the write", "the write to the tenant \"acme\"", … */
  subject: string;
  /** Its commit sequence (the tenant's, for a tenant), or null when it has none. */
  seq: number | null;
  /** What the client should do before trying again (default: read it back first). */
  retry?: string;
}

export interface InSyncOptions {
  /** How many in-sync replicas must hold a write before it is acknowledged (≥ 1). */
  readonly required: number;
  /** How long an in-sync replica may stay behind a waiting write before it is dropped. */
  readonly lagTimeoutMs: number;
  /** Publishes a new set; false when this node no longer leads (it is then fenced). */
  readonly publish: (ids: readonly string[]) => Promise<boolean>;
  readonly now: () => number;
}

interface Waiter {
  readonly seq: number;
  /** The tenant feed version it needs (-1: none). */
  readonly feed: number;
  readonly since: number;
  readonly deadline: number;
  readonly done: (outcome: AckOutcome) => void;
}

interface Position {
  applied: number;
  /** The tenant feed version it has applied every change up to (-1: none of this leader's feed). */
  feed: number;
  /** When it last reported (a replica that stops reporting falls behind). */
  seenAt: number;
}

export class InSyncTracker {
  private members: ReadonlySet<string>;
  private readonly positions = new Map<string, Position>();
  private waiters: Waiter[] = [];
  /** The highest sequence acknowledged so far: a replica that has it may join the set. */
  private acked = 0;
  /** The highest tenant feed version acknowledged so far (-1: tenants are not served): a joining replica needs it too. */
  private ackedFeed = -1;
  private fenced = false;
  /** A set being published: until etcd has it, acks need both the old and the new members. */
  private pending: ReadonlySet<string> | null = null;
  /** After a failed publication (etcd unreachable), the next try waits for this time. */
  private retryAt = 0;

  constructor(
    private readonly options: InSyncOptions,
    initial: readonly string[] = [],
    /** The sequence a replica must hold to join the set (a new leader: everything it holds). */
    ackedFloor = 0,
    /** The tenant feed version a replica must hold to join (a new leader: its feed's version as it starts to lead); -1: no tenants. */
    ackedFeedFloor = -1,
  ) {
    if (!Number.isInteger(options.required) || options.required < 1)
      throw new Error(`required in-sync replicas must be ≥ 1, got ${options.required}`);
    this.members = new Set(initial);
    this.acked = ackedFloor;
    this.ackedFeed = ackedFeedFloor;
  }

  get inSync(): readonly string[] {
    return [...this.members].sort();
  }

  get ackedSeq(): number {
    return this.acked;
  }

  /** What each replica that reported has applied, by member id: its sequence and (-1: none) its tenant feed version. */
  get applied(): { member: string; applied: number; tenants: number }[] {
    return [...this.positions]
      .map(([member, p]) => ({ member, applied: p.applied, tenants: p.feed }))
      .sort((a, b) => (a.member < b.member ? -1 : 1));
  }

  /**
   * The feed version a replica must hold to join, raised to this node's once it has stopped
   * following (its tenants' sync may have applied changes after the tracker was made). The
   * sequence is not raised so: a new leader's first entry (its mark) is sent to its replicas,
   * which counts their claims, while one seeded from its backup proves nothing.
   */
  raiseFeedFloor(feed: number): void {
    this.ackedFeed = Math.max(this.ackedFeed, feed);
  }

  /** A replica says it has durably applied everything up to `seq`. */
  replicaApplied(id: string, seq: number): void {
    const position = this.positionOf(id);
    position.applied = Math.max(position.applied, seq);
    this.settle();
  }

  /** A replica says it has durably applied every tenant change up to `version` of this leader's feed. */
  replicaFeed(id: string, version: number): void {
    const position = this.positionOf(id);
    position.feed = Math.max(position.feed, version);
    this.settle();
  }

  private positionOf(id: string): Position {
    const now = this.options.now();
    const known = this.positions.get(id);
    if (known !== undefined) {
      known.seenAt = now;
      return known;
    }
    const position = { applied: 0, feed: -1, seenAt: now };
    this.positions.set(id, position);
    return position;
  }

  /** Resolves when the write at `seq` is acknowledged, its wait times out, or this node is fenced. */
  waitAcked(seq: number, timeoutMs: number): Promise<AckOutcome> {
    return this.wait(seq, -1, timeoutMs);
  }

  /** Resolves when the tenant changes up to feed version `version` are acknowledged, time out, or this node is fenced. */
  waitFeedAcked(version: number, timeoutMs: number): Promise<AckOutcome> {
    return this.wait(0, version, timeoutMs);
  }

  private wait(seq: number, feed: number, timeoutMs: number): Promise<AckOutcome> {
    if (this.fenced) return Promise.resolve("fenced");
    return new Promise((done) => {
      const now = this.options.now();
      this.waiters.push({ seq, feed, since: now, deadline: now + timeoutMs, done });
      this.settle();
    });
  }

  /** Re-evaluates timeouts and membership; call periodically (e.g. every 100 ms). */
  tick(): void {
    this.settle();
  }

  /** This node lost leadership: every waiting write fails as fenced. */
  fence(): void {
    this.fenced = true;
    for (const waiter of this.waiters) waiter.done("fenced");
    this.waiters = [];
  }

  /** Whether replica `id` holds what `waiter` waits for. */
  private holds(id: string, waiter: Waiter): boolean {
    const position = this.positions.get(id);
    return (position?.applied ?? 0) >= waiter.seq && (position?.feed ?? -1) >= waiter.feed;
  }

  private isAcked(waiter: Waiter): boolean {
    // While a change is being published etcd holds either set: both must be large enough, and
    // every member of either must hold the write.
    if (this.members.size < this.options.required) return false;
    if (this.pending !== null && this.pending.size < this.options.required) return false;
    const holders = this.pending === null ? this.members : new Set([...this.members, ...this.pending]);
    for (const id of holders) if (!this.holds(id, waiter)) return false;
    return true;
  }

  private settle(): void {
    if (this.fenced) return;
    const now = this.options.now();
    const still: Waiter[] = [];
    for (const waiter of this.waiters) {
      if (this.isAcked(waiter)) {
        this.acked = Math.max(this.acked, waiter.seq);
        this.ackedFeed = Math.max(this.ackedFeed, waiter.feed);
        waiter.done("acked");
      } else if (now >= waiter.deadline) waiter.done("timeout");
      else still.push(waiter);
    }
    this.waiters = still;
    if (this.pending === null && now >= this.retryAt) {
      const next = this.nextMembers(now);
      if (next !== null) void this.publishSet(next);
    }
  }

  /**
   * The set after dropping members that have held a write back for `lagTimeoutMs` and adding
   * replicas that reported recently and hold every acknowledged write; null when unchanged.
   */
  private nextMembers(now: number): Set<string> | null {
    const next = new Set<string>();
    const heldBack = (id: string): boolean => this.waiters.some((w) => !this.holds(id, w) && now - w.since >= this.options.lagTimeoutMs);
    for (const id of this.members) if (!heldBack(id)) next.add(id);
    // A replica that holds a waiting write back past the lag timeout does not join (nor, just
    // dropped, join again in the same pass because it still reports and holds what was acked).
    for (const [id, position] of this.positions) {
      const holdsAcked = position.applied >= this.acked && position.feed >= this.ackedFeed;
      if (!next.has(id) && !heldBack(id) && holdsAcked && now - position.seenAt < this.options.lagTimeoutMs) next.add(id);
    }
    if (next.size === this.members.size && [...next].every((id) => this.members.has(id))) return null;
    return next;
  }

  private async publishSet(next: Set<string>): Promise<void> {
    this.pending = next;
    let published: boolean | null;
    try {
      published = await this.options.publish([...next].sort());
    } catch {
      published = null; // etcd unreachable: keep the old set (writes wait) and try again on the next tick
    }
    this.pending = null;
    if (published === null) this.retryAt = this.options.now() + PUBLISH_RETRY_MS;
    if (published === false) this.fence();
    else if (published === true) this.members = next;
    this.settle();
  }
}
