// Whose acknowledgement a leader counts. A replica's log request says which member it is and what
// it holds (`?member=…&after=…`), but the group's replication key is shared by every node and
// any client that has it: trusting the request made whoever held the key an in-sync replica, and
// synchronous writes were acknowledged with no replica holding them. So an acknowledgement counts
// only (1) from a request carrying that member's own key, whose SHA-256 the member published in
// its record in the group (server/node/member-identity.ts), and (2) up to the entries this leader has
// actually sent to requests with that key: a position claimed beyond what was sent is not believed.
import { createHash, timingSafeEqual } from "node:crypto";
import type { Clock } from "./clock.js";
import type { MemberState } from "./group.js";

/** Positions sent are kept for this many (member, key) pairs at most: made-up keys cannot grow the map. */
const MAX_SENT = 1024;
/** Claims of members not known yet, kept while the group is read again. */
const MAX_UNKNOWN_CLAIMS = 64;

export interface ReplicaAcksOptions {
  /** The group's members now (their records carry their key digests). */
  readonly members: () => Promise<readonly MemberState[]>;
  /** A member proved it holds `seq`: count it (the in-sync tracker). */
  readonly count: (id: string, seq: number) => void;
  readonly clock: Clock;
  /** The group is read again for an unknown member at most this often. */
  readonly refreshEveryMs: number;
  /** What a claim counts for when nothing was sent to that member yet (default 0; the tenant feed's: -1, no version). */
  readonly nothingSent?: number;
}

export class ReplicaAcks {
  /** Each member's published key digest, as last read from the group. */
  private digests = new Map<string, Buffer>();
  /** The newest entry sent to requests of each (member id, key digest), oldest pairs first. */
  private readonly sent = new Map<string, number>();
  /** Claims of members the group did not name at the last read, the newest of each, counted after the next. */
  private readonly unknown = new Map<string, { seq: number; key: string }>();
  private reading = false;
  private readAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: ReplicaAcksOptions) {}

  /** Reads the group's members again (the leader's checks do, so members that joined are known). */
  async refresh(): Promise<void> {
    this.know(await this.options.members());
  }

  private know(members: readonly MemberState[]): void {
    const next = new Map<string, Buffer>();
    for (const m of members)
      if (m.keyDigest !== undefined && /^[0-9a-f]{64}$/.test(m.keyDigest)) next.set(m.id, Buffer.from(m.keyDigest, "hex"));
    this.digests = next;
  }

  /** This leader answered a request as member `id`, with `key`, with entries up to `seq`. */
  sentTo(id: string, key: string | undefined, seq: number): void {
    if (key === undefined) return;
    const pair = `${id}\u0000${digestOf(key).toString("hex")}`;
    const before = this.sent.get(pair) ?? seq;
    this.sent.delete(pair);
    this.sent.set(pair, Math.max(before, seq));
    if (this.sent.size > MAX_SENT) this.sent.delete(this.sent.keys().next().value as string);
  }

  /** A request as member `id`, with `key`, says it holds `seq`: counted when the key is that member's, up to what was sent. */
  claim(id: string, key: string | undefined, seq: number): void {
    if (key === undefined) return;
    const counted = this.counted(id, key, seq);
    if (counted !== null) this.options.count(id, counted);
    else if (!this.digests.has(id)) this.learn(id, key, seq);
  }

  private counted(id: string, key: string, seq: number): number | null {
    const digest = this.digests.get(id);
    const presented = digestOf(key);
    if (digest === undefined || !timingSafeEqual(presented, digest)) return null;
    return Math.min(seq, this.sent.get(`${id}\u0000${presented.toString("hex")}`) ?? this.options.nothingSent ?? 0);
  }

  /** A member that joined since the last read: read the group again (one read at a time, at most one a refresh interval), then count its claim. */
  private learn(id: string, key: string, seq: number): void {
    if (this.unknown.size < MAX_UNKNOWN_CLAIMS || this.unknown.has(id)) this.unknown.set(id, { seq, key });
    const now = this.options.clock.now();
    if (this.reading || now - this.readAt < this.options.refreshEveryMs) return;
    this.reading = true;
    void this.refresh()
      .then(() => {
        for (const [member, claim] of this.unknown) {
          const counted = this.counted(member, claim.key, claim.seq);
          if (counted !== null) this.options.count(member, counted);
        }
      })
      .catch(() => {})
      .finally(() => {
        this.unknown.clear();
        this.reading = false;
        this.readAt = this.options.clock.now();
      });
  }
}

function digestOf(key: string): Buffer {
  return createHash("sha256").update(key, "utf8").digest();
}
