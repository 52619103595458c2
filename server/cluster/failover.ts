// Automatic failover on etcd: decides whether this node leads, follows or is
// fenced, from the group state in etcd (group.ts; etcd-group.ts keeps it), and tells the node
// (the server's replication side) through FailoverNode. On the leader with `syncReplicas` ≥ 1
// it owns the in-sync set (in-sync.ts): writes wait in `waitAcked` (tenants' changes in
// `waitTenantsAcked`) until enough replicas hold them. Time comes from a Clock (clock.ts), so scripted scenarios can replay it.
//
// Roles: at start, and whenever the leader key disappears, a node that may lead (any node with
// asynchronous replication; with synchronous, an in-sync replica or the leader that published
// the set, group.ts mayLeadBy) tries to take it; the others follow whoever holds it. A leader
// that loses its lease, or finds a later epoch, is fenced at once — it refuses writes — and
// rejoins as a replica when it can reach etcd again. A watchdog outside the serial queue fences a
// leader etcd has not confirmed within the lease time, so a hung etcd call cannot delay it.
//
// Epochs only grow in etcd, so a node never sees a leader of an epoch below one it has led or
// followed (FailoverNode.knownEpoch, kept in its data directory) unless etcd's keys were lost or
// reset, or --group names another group. Such a leader may be a node with an empty store that won
// the empty group's first election; following it would re-seed this node from it. So this node
// does not follow it: it stays fenced and says why. And a node that leads takes an epoch above
// every one it knew, so the nodes of the old history can follow it.
import { type Clock, systemClock, type Timer } from "./clock.js";
import type { Group, GroupLeader, JoinGroup } from "./group.js";
import { type AckOutcome, InSyncTracker } from "./in-sync.js";
import { ReplicaAcks } from "./replica-acks.js";

export interface FailoverNode {
  /** The last commit sequence this node holds durably (committed or applied). */
  appliedSeq(): number;
  /** The highest epoch this node has led or followed (0: none), kept across restarts; lead and follow raise it. */
  knownEpoch(): number;
  /** Stop following and accept writes as the leader of `epoch`. */
  lead(epoch: number): Promise<void>;
  /** Refuse writes and follow the leader at `url`, which leads `epoch`. */
  follow(url: string, epoch: number): Promise<void>;
  /** Refuse writes until told to lead or follow. */
  fence(reason: string): void;
  /** A replica's lag behind its leader in ms, for the group's member list (default 0). */
  lagMs?(): number;
  /** The version of this node's tenant feed now (tenant-feed.ts); null or absent: it serves no tenants. */
  tenantFeedVersion?(): number | null;
}

export interface FailoverOptions {
  /** In-sync replicas a write needs before it is acknowledged; 0: asynchronous replication. */
  readonly syncReplicas: number;
  /** How long an in-sync replica may hold a write back before it is dropped from the set. */
  readonly lagTimeoutMs: number;
  /** How often the node reports its position and a leader checks it still leads. */
  readonly checkEveryMs: number;
  /** The group lease's TTL: a leader that cannot confirm its lead for this long fences itself. */
  readonly leaseTtlMs: number;
  /** Opens a new membership (a new lease) after the old one was lost. */
  readonly rejoin: JoinGroup;
  readonly log: (message: string) => void;
  /** Where time comes from (default: the system's; scripted scenarios pass a manual one). */
  readonly clock?: Clock;
  /**
   * Told until when (clock ms) this node's answers as leader may leave it: the lease after each
   * confirmation of its lead, 0 once it does not lead (the front door's lease gate).
   */
  readonly leadUntil?: (ms: number) => void;
}

export type FailoverRole = "starting" | "leader" | "replica" | "fenced" | "stopped";

export class FailoverController {
  private roleNow: FailoverRole = "starting";
  private epoch = 0;
  private following: string | null = null;
  private tracker: InSyncTracker | null = null;
  /** Whose acknowledgements count in the epoch this node leads with synchronous replicas (replica-acks.ts). */
  private acks: ReplicaAcks | null = null;
  /** The same for the tenant feed versions replicas say they hold. */
  private feedAcks: ReplicaAcks | null = null;
  private stopWatching: (() => Promise<void>) | null = null;
  private timer: Timer | null = null;
  private readonly clock: Clock;
  private busy: Promise<void> = Promise.resolve();
  /** When etcd last confirmed this node's lead (a leader that cannot reach etcd must stop writing). */
  private confirmedAt = 0;
  /** Fires the watchdog when the lease time has passed since that confirmation (re-armed at each). */
  private deadline: Timer | null = null;
  /** Why this node last declined to take over (logged once per reason, not at every check). */
  private lastRefusal: string | null = null;
  private lastFailure: string | null = null;
  private lastFailureAt = 0;

  constructor(
    private group: Group,
    private readonly node: FailoverNode,
    private readonly options: FailoverOptions,
  ) {
    this.clock = options.clock ?? systemClock;
  }

  get role(): FailoverRole {
    return this.roleNow;
  }

  get leaderEpoch(): number {
    return this.epoch;
  }

  get inSync(): readonly string[] {
    return this.tracker?.inSync ?? [];
  }

  /** Leading with synchronous replicas: what each replica has proven it applied; empty otherwise. */
  get replicaPositions(): readonly { member: string; applied: number; tenants: number }[] {
    return this.tracker?.applied ?? [];
  }

  async start(): Promise<void> {
    // The member's record first: a leader counts this node's acknowledgements only once it knows
    // its key digest (replica-acks.ts), and `strand status` lists it from now on.
    await this.group.report({ role: "starting", applied: this.node.appliedSeq(), lagMs: 0 });
    this.group.onLeaseLost((error) => this.serial(() => this.leaseLost(error)));
    this.stopWatching = await this.group.watchLeader((leader) => this.serial(() => this.leaderChanged(leader)));
    await this.serial(async () => this.leaderChanged(await this.group.leader()));
    this.timer = this.clock.every(this.options.checkEveryMs, () => {
      this.watchdog();
      // A check etcd does not answer in time is abandoned: it must not act on what it reads after.
      const run: CheckRun = { abandoned: false };
      void this.serial(() =>
        withTimeout(this.check(run), 5 * this.options.checkEveryMs, this.clock, () => {
          run.abandoned = true;
        }),
      );
    });
  }

  /**
   * A replica's log request says member `memberId` has applied everything up to `seq`: counted
   * only when the request carries that member's own key, and only up to what this node sent it.
   */
  replicaApplied(memberId: string, seq: number, memberKey: string | undefined): void {
    this.acks?.claim(memberId, memberKey, seq);
  }

  /** This node answered member `memberId`'s log request with its entries up to `seq`. */
  logSent(memberId: string, seq: number, memberKey: string | undefined): void {
    this.acks?.sentTo(memberId, memberKey, seq);
  }

  /** A replica's poll of the tenant feed says member `memberId` has applied every tenant change up to `version` (as replicaApplied). */
  tenantsApplied(memberId: string, version: number, memberKey: string | undefined): void {
    this.feedAcks?.claim(memberId, memberKey, version);
  }

  /** This node answered member `memberId`'s poll of the tenant feed at `version`. */
  tenantsSent(memberId: string, version: number, memberKey: string | undefined): void {
    this.feedAcks?.sentTo(memberId, memberKey, version);
  }

  /** Whether the write committed at `seq` may be acknowledged to its client. */
  waitAcked(seq: number, timeoutMs: number): Promise<AckOutcome> {
    return this.acknowledged((tracker) => tracker.waitAcked(seq, timeoutMs));
  }

  /** Whether the tenants' changes up to feed version `version` may be acknowledged. */
  waitTenantsAcked(version: number, timeoutMs: number): Promise<AckOutcome> {
    return this.acknowledged((tracker) => tracker.waitFeedAcked(version, timeoutMs));
  }

  private async acknowledged(wait: (tracker: InSyncTracker) => Promise<AckOutcome>): Promise<AckOutcome> {
    // Checked when the write is answered, not only by the timers: a process paused past its lease
    // (SIGSTOP, a VM stall) finishes its pending writes on resume before any timer runs — and a
    // replica's acknowledgement that arrives on resume settles the writes that waited across the
    // pause, so the lease is checked again once they are confirmed.
    if (!this.leadsWithinLease()) return "fenced";
    if (this.tracker === null) return "acked";
    const outcome = await wait(this.tracker);
    return outcome === "acked" && !this.leadsWithinLease() ? "fenced" : outcome;
  }

  /** Fences this node first when the lease time has passed since etcd last confirmed its lead. */
  private leadsWithinLease(): boolean {
    this.watchdog();
    return this.roleNow === "leader";
  }

  async stop(): Promise<void> {
    this.roleNow = "stopped";
    this.options.leadUntil?.(0);
    this.timer?.cancel();
    this.deadline?.cancel();
    this.tracker?.fence();
    await this.stopWatching?.();
    await this.group.close();
  }

  /** Runs role changes one at a time, in the order they were asked for. */
  private serial(step: () => Promise<void>): Promise<void> {
    this.busy = this.busy.then(step).catch((error: unknown) => this.failed(error));
    return this.busy;
  }

  /** Logs a failed step; the same failure again within a minute (etcd down: every check) once. */
  private failed(error: unknown): void {
    const line = `failover: ${(error as Error).message}`;
    const now = this.clock.now();
    if (line === this.lastFailure && now - this.lastFailureAt < 60_000) return;
    this.lastFailure = line;
    this.lastFailureAt = now;
    this.options.log(line);
  }

  private async leaderChanged(leader: GroupLeader | null): Promise<void> {
    if (this.roleNow === "stopped") return;
    if (leader === null) {
      await this.tryToLead();
      return;
    }
    if (leader.id === this.group.member.id) {
      if (this.roleNow === "leader" && leader.epoch === this.epoch) return;
      // Our key, but we do not lead by it: left by this member before a restart, or standing
      // after this node fenced itself (etcd was slow, and the lease lived on). Nobody may write
      // here; resigning (deleting exactly that key) lets an election happen now rather than
      // never (a live lease would keep the key) or after the old lease's TTL.
      if (this.roleNow !== "fenced") this.toFenced(`etcd still names this node leader at epoch ${leader.epoch}, from before; resigning`);
      await this.group.resign(leader);
      return;
    }
    if (this.roleNow === "leader") this.toFenced(`${leader.url} leads at epoch ${leader.epoch}`);
    const known = this.node.knownEpoch();
    if (leader.epoch < known) {
      const reason =
        `etcd names ${leader.url} leader at epoch ${leader.epoch}, below epoch ${known} this node has been in: etcd's keys ` +
        "were lost or reset, or --group names another group; not following it, which could re-seed this node from it. " +
        "Restore etcd's keys, stop that leader (the old history's node that holds the most then leads), " +
        "or start this node on an empty --data to join the group as it is";
      if (this.roleNow !== "fenced" || this.lastRefusal !== reason) this.toFenced(reason);
      this.lastRefusal = reason;
      return;
    }
    if (this.following !== leader.url || this.roleNow !== "replica" || this.epoch !== leader.epoch) {
      this.roleNow = "replica";
      this.options.leadUntil?.(0);
      this.following = leader.url;
      this.options.log(`failover: following ${leader.url} (epoch ${leader.epoch})`);
      this.epoch = leader.epoch;
      await this.node.follow(leader.url, leader.epoch);
    }
  }

  private async tryToLead(): Promise<void> {
    const known = this.node.knownEpoch();
    // etcd below the epoch this node knew: it lost the history this node was in, in-sync set
    // included, so the member that holds the most of that history should lead, as without sync.
    const historyLost = known > 0 && (await this.group.epoch()) < known;
    // The member that holds the most should lead. Asynchronous: so that the fewest writes are
    // lost. Synchronous: among the in-sync members, who all hold every acknowledged write, so that
    // the others are a prefix of the leader's log and catch up, where under a leader holding less
    // the one ahead holds entries of another history and must re-seed before it confirms a write
    // (failovers of 6.9 and 7.5 s in the campaign, against ~3 s). One further ahead takes over itself.
    // (A synchronous member not in sync itself is refused by tryLead, saying so.)
    const mine = this.node.appliedSeq();
    const self = this.group.member.id;
    const eligible = this.options.syncReplicas === 0 || historyLost ? null : new Set((await this.group.inSync())?.ids ?? []);
    const ahead =
      eligible !== null && !eligible.has(self)
        ? undefined
        : (await this.group.members()).find((m) => m.id !== self && m.applied > mine && (eligible === null || eligible.has(m.id)));
    if (ahead !== undefined) {
      this.refused(`${ahead.id} holds more (sequence ${ahead.applied}, this node ${mine})`);
      return;
    }
    const attempt = await this.group.tryLead(this.options.syncReplicas > 0, known);
    if (!attempt.won) {
      if (attempt.leader !== null) await this.leaderChanged(attempt.leader);
      else this.refused(attempt.reason === "not_in_sync" ? "this node is not in sync" : attempt.reason);
      return;
    }
    this.lastRefusal = null;
    this.epoch = attempt.leader.epoch;
    if (this.options.syncReplicas > 0) {
      // The previous epoch's in-sync replicas hold every acknowledged write, and nothing is
      // acknowledged in this epoch yet, so they stay in sync until they hold a write back. After
      // etcd lost this node's history, that set is another history's: nobody starts in sync.
      const stored = historyLost ? null : await this.group.inSync();
      const previous = stored?.ids.filter((id) => id !== this.group.member.id) ?? [];
      const epoch = this.epoch;
      const acks = new ReplicaAcks({
        members: () => this.group.members(),
        count: (id, seq) => this.tracker?.replicaApplied(id, seq),
        clock: this.clock,
        refreshEveryMs: this.options.checkEveryMs,
      });
      this.acks = acks;
      const feedAcks = new ReplicaAcks({
        members: () => this.group.members(),
        count: (id, version) => this.tracker?.replicaFeed(id, version),
        clock: this.clock,
        refreshEveryMs: this.options.checkEveryMs,
        nothingSent: -1,
      });
      this.feedAcks = feedAcks;
      await Promise.all([acks.refresh(), feedAcks.refresh()]);
      this.tracker = new InSyncTracker(
        {
          required: this.options.syncReplicas,
          lagTimeoutMs: this.options.lagTimeoutMs,
          publish: (ids) => this.group.publishInSync(epoch, ids),
          now: () => this.clock.now(),
        },
        previous,
        // A replica joins the set only once it holds what this node holds: every write the last
        // epoch acknowledged is among it; and, serving tenants, every tenant as this node holds them.
        this.node.appliedSeq(),
        this.node.tenantFeedVersion?.() ?? -1,
      );
      if (!(await this.group.publishInSync(epoch, previous))) {
        this.toFenced(`lost the lead of epoch ${epoch} while starting it`);
        return;
      }
    }
    this.roleNow = "leader";
    this.following = null;
    this.confirm(this.clock.now());
    this.options.log(`failover: leading at epoch ${this.epoch}`);
    await this.node.lead(this.epoch);
    this.tracker?.raiseFeedFloor(this.node.tenantFeedVersion?.() ?? -1);
  }

  private async check(run: CheckRun): Promise<void> {
    if (this.roleNow === "stopped" || this.roleNow === "starting") return;
    this.tracker?.tick();
    if (this.roleNow === "leader") {
      const checkedAt = this.clock.now();
      const epoch = this.epoch;
      // The lease renewed from now on is what lets this node answer as leader until checkedAt +
      // the lease time; its key alone does not (a process paused past its lease found its key
      // still there while etcd's revoke was pending, and acknowledged writes on resume).
      if (!(await this.group.renewLease())) {
        if (!run.abandoned) this.toFenced(`etcd no longer holds this node's lease (epoch ${epoch})`);
        return;
      }
      if (run.abandoned) return;
      const leads = await this.group.stillLeads(epoch);
      if (run.abandoned) return;
      if (!leads) {
        this.toFenced(`a later epoch than ${epoch} exists`);
        const leader = await this.group.leader();
        if (!run.abandoned) await this.leaderChanged(leader);
        return;
      }
      this.confirm(checkedAt);
      // New members' key digests, for their acknowledgements.
      await Promise.all([this.acks?.refresh(), this.feedAcks?.refresh()]);
    } else {
      // Not leading: an election nobody won (every candidate declined, or a watch event was
      // missed) is tried again here, and a leader not yet followed is followed.
      const leader = await this.group.leader();
      if (run.abandoned) return;
      if (leader === null) await this.tryToLead();
      else if (leader.id === this.group.member.id || this.roleNow !== "replica" || this.following !== leader.url)
        await this.leaderChanged(leader);
    }
    if (run.abandoned) return;
    await this.group.report({
      role: this.roleNow === "leader" ? "leader" : this.roleNow === "replica" ? "replica" : "fenced",
      applied: this.node.appliedSeq(),
      lagMs: this.roleNow === "replica" ? (this.node.lagMs?.() ?? 0) : 0,
    });
  }

  /**
   * Outside the serial queue, so a hung etcd call cannot delay it: by the time the lease could
   * have expired unseen (and a replica taken over), this node has stopped taking writes.
   */
  private watchdog(): void {
    if (this.roleNow === "leader" && !this.withinLease()) {
      const silentMs = this.clock.now() - this.confirmedAt;
      this.toFenced(`etcd has not confirmed the lead for ${silentMs} ms (lease ${this.options.leaseTtlMs} ms)`);
    }
  }

  /** etcd confirmed this node's lead at `at`: the watchdog fires the moment the lease time has passed since. */
  private confirm(at: number): void {
    this.confirmedAt = at;
    if (this.roleNow === "leader") this.options.leadUntil?.(at + this.options.leaseTtlMs);
    this.deadline?.cancel();
    this.deadline = this.clock.after(Math.max(0, at + this.options.leaseTtlMs - this.clock.now()), () => this.watchdog());
  }

  /**
   * Whether the lease time has not yet passed since etcd last confirmed the lead: past it, the
   * lease may have expired and another node taken over, so nothing may be acknowledged as leader.
   */
  private withinLease(): boolean {
    return this.clock.now() - this.confirmedAt < this.options.leaseTtlMs;
  }

  private refused(reason: string): void {
    if (reason !== this.lastRefusal) this.options.log(`failover: not taking over (${reason})`);
    this.lastRefusal = reason;
  }

  private toFenced(reason: string): void {
    this.roleNow = "fenced";
    this.options.leadUntil?.(0);
    this.following = null;
    this.tracker?.fence();
    this.tracker = null;
    this.acks = null;
    this.feedAcks = null;
    this.options.log(`failover: fenced: ${reason}`);
    this.node.fence(reason);
  }

  private async leaseLost(error: Error): Promise<void> {
    if (this.roleNow === "stopped") return;
    this.toFenced(`lost the etcd lease (${error.message})`);
    await this.stopWatching?.();
    // The lost membership's client still holds its connections and timers: closed (not awaited:
    // with etcd unreachable its lease revoke waits), or a rejoined node never exits on SIGTERM.
    void this.group.close().catch(() => {});
    for (;;) {
      try {
        this.group = await this.options.rejoin();
        break;
      } catch {
        await this.clock.sleep(1_000);
        if ((this.roleNow as FailoverRole) === "stopped") return;
      }
    }
    this.group.onLeaseLost((e) => this.serial(() => this.leaseLost(e)));
    this.stopWatching = await this.group.watchLeader((leader) => this.serial(() => this.leaderChanged(leader)));
    await this.leaderChanged(await this.group.leader());
  }
}

/** One periodic check; `abandoned` once its time ran out (what it reads after that is stale). */
interface CheckRun {
  abandoned: boolean;
}

function withTimeout(work: Promise<void>, ms: number, clock: Clock, onTimeout: () => void): Promise<void> {
  let timer: Timer | undefined;
  const timeout = new Promise<void>((_, reject) => {
    timer = clock.after(ms, () => {
      onTimeout();
      reject(new Error(`etcd did not answer within ${ms} ms`));
    });
  });
  return Promise.race([work, timeout]).finally(() => timer?.cancel());
}
