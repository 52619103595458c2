// Failover groups in memory, for scripted scenarios (test/failover-scenarios.test.ts): members
// join one shared MemoryEtcd and act on it with EtcdGroup's exact reads, compares and writes
// (the values and the election rule come from group-keys.ts). Between each member and etcd sits
// a link the scenario controls: it can be cut (calls reject, or wait unanswered until healed),
// one operation's calls can be held back, and what etcd tells a member (watch events, the end
// of its lease) waits while the link is down. Leases never expire by themselves: the scenario
// expires them, so nothing depends on time.
//
// A call takes effect when etcd receives it (at once, or when its link lets it through) and its
// answer arrives as a promise job; notices arrive likewise, in the order etcd made them.
import {
  inSyncValue,
  leadCandidate,
  leaderValue,
  MEMBERS_PREFIX,
  memberValue,
  parseEpoch,
  parseInSync,
  parseLeader,
  parseMembers,
} from "./group-keys.js";
import type { Group, GroupLeader, GroupMember, InSyncSet, LeadAttempt, MemberState } from "./group.js";
import { type KeyEvent, MemoryEtcd, type StoredKey } from "./memory-etcd.js";

/** The calls a member makes, by the Group operation that makes them; "watch": its watch events. */
export type GroupOp = "join" | Exclude<keyof Group, "member" | "onLeaseLost"> | "watch";

export type Cut = "reject" | "hang";

/** Something a link holds back until it lets it through. */
interface Held {
  readonly passes: () => boolean;
  readonly from: MemoryGroup | null;
  /** A call (a closed membership's fails); otherwise a notice (dropped when its watch or membership is gone). */
  readonly call: boolean;
  readonly release: () => void;
  readonly fail: (error: Error) => void;
}

/** One member's path to etcd; it outlives the member's memberships (a node's network, not its process). */
class Link {
  cut: Cut | null = null;
  readonly blocked = new Set<GroupOp>();
  held: Held[] = [];

  passes(op: GroupOp): boolean {
    return this.cut === null && !this.blocked.has(op);
  }
}

const leaseExpired = (): Error => new Error("etcd expired the lease");

export class MemoryGroups {
  readonly etcd = new MemoryEtcd();
  private readonly links = new Map<string, Link>();
  private readonly joined: MemoryGroup[] = [];

  /** Takes a lease for `member`; rejects (or waits) while its link is cut. */
  join(member: GroupMember): Promise<MemoryGroup> {
    return this.send(null, member.id, "join", () => {
      const group = new MemoryGroup(this, member, this.etcd.grantLease());
      this.joined.push(group);
      return group;
    });
  }

  /**
   * etcd lets `id`'s leases lapse: their keys go, and each membership hears it lost its lease
   * once its link is up (a member cut off hears nothing until healed, or until `leaseLost`).
   */
  expire(id: string): void {
    for (const group of this.joined.filter((g) => g.member.id === id && this.etcd.leaseHeld(g.lease))) {
      this.etcd.endLease(group.lease);
      this.notify(group, "lease", () => group.leaseLost(leaseExpired()));
    }
  }

  /** `id`'s leases run out at etcd, whose revoke (deleting their keys) is still pending: expire ends them. */
  lapse(id: string): void {
    for (const group of this.joined.filter((g) => g.member.id === id)) this.etcd.lapseLease(group.lease);
  }

  /** `id`'s etcd client gives up on its lease (etcd3 does after 2 TTLs without a renewal), cut off or not. */
  leaseLost(id: string): void {
    for (const group of this.joined) if (group.member.id === id) group.leaseLost(leaseExpired());
  }

  /** Cuts `id` off from etcd: its calls reject, or (hang) wait unanswered until healed. */
  partition(id: string, cut: Cut): void {
    this.link(id).cut = cut;
  }

  heal(id: string): void {
    this.link(id).cut = null;
    this.release(id);
  }

  /** Holds back `id`'s calls of one operation (or its watch events) until unblocked. */
  block(id: string, op: GroupOp): void {
    this.link(id).blocked.add(op);
  }

  unblock(id: string): void {
    this.link(id).blocked.clear();
    this.release(id);
  }

  /** `id`'s process dies: its membership sends and hears nothing more, and its lease lives on until expired. */
  crash(id: string): void {
    for (const group of this.joined) if (group.member.id === id) group.dead = true;
  }

  /** The member id of every live lease, in the order they were taken. */
  leaseHolders(): string[] {
    return this.joined.filter((g) => this.etcd.leaseAlive(g.lease)).map((g) => g.member.id);
  }

  /** Carries one call from a member to etcd and its answer back, as its link allows. */
  send<T>(from: MemoryGroup | null, id: string, op: GroupOp, run: () => T): Promise<T> {
    if (from?.dead) return new Promise<T>(() => {});
    if (from?.closed && op !== "close") return Promise.reject(new Error("etcd client closed"));
    const link = this.link(id);
    if (link.cut === "reject") return Promise.reject(new Error(`${id} cannot reach etcd`));
    return new Promise<T>((resolve, reject) => {
      const release = (): void => {
        try {
          resolve(run());
        } catch (error) {
          reject(error);
        }
      };
      if (link.passes(op)) release();
      else link.held.push({ passes: () => link.passes(op), from, call: true, release, fail: reject });
    });
  }

  /** Tells a member something (a watch event, the end of its lease) as its link allows: held while it is down. */
  notify(to: MemoryGroup, kind: "watch" | "lease", tell: () => void): void {
    const link = this.link(to.member.id);
    const passes = (): boolean => link.cut === null && (kind === "lease" || !link.blocked.has("watch"));
    const release = (): void => queueMicrotask(tell);
    if (passes()) release();
    else link.held.push({ passes, from: to, call: false, release, fail: () => {} });
  }

  private release(id: string): void {
    const link = this.link(id);
    const still: Held[] = [];
    for (const held of link.held) {
      if (held.from?.dead) continue;
      if (!held.passes()) still.push(held);
      else if (held.call && held.from?.closed) held.fail(new Error("etcd client closed"));
      else held.release();
    }
    link.held = still;
  }

  private link(id: string): Link {
    let link = this.links.get(id);
    if (link === undefined) {
      link = new Link();
      this.links.set(id, link);
    }
    return link;
  }
}

interface LeaderWatch {
  active: boolean;
  readonly handler: (leader: GroupLeader | null) => void;
}

export class MemoryGroup implements Group {
  closed = false;
  /** The process is gone (crashed): nothing more goes out or comes in. */
  dead = false;
  private lostHeard = false;
  private readonly lostHandlers: ((error: Error) => void)[] = [];

  constructor(
    private readonly host: MemoryGroups,
    readonly member: GroupMember,
    readonly lease: number,
  ) {}

  /** The client hears its lease is gone: once, as etcd3's `lost` event. */
  leaseLost(error: Error): void {
    if (this.closed || this.dead || this.lostHeard) return;
    this.lostHeard = true;
    for (const handler of this.lostHandlers) handler(error);
  }

  onLeaseLost(handler: (error: Error) => void): void {
    this.lostHandlers.push(handler);
  }

  async leader(): Promise<GroupLeader | null> {
    return parseLeader(await this.value("leader", "leader"));
  }

  async epoch(): Promise<number> {
    return parseEpoch(await this.value("epoch", "epoch"));
  }

  async tryLead(requireInSync: boolean, epochFloor = 0): Promise<LeadAttempt> {
    const [leader, epoch, inSync] = await Promise.all([
      this.stored("tryLead", "leader"),
      this.stored("tryLead", "epoch"),
      this.stored("tryLead", "in_sync"),
    ]);
    const read = { leader: leader?.value ?? null, epoch: epoch?.value ?? null, inSync: inSync?.value ?? null };
    const decided = leadCandidate(read, this.member, requireInSync, epochFloor);
    if ("refused" in decided) return decided.refused;
    const candidate = decided.candidate;
    const won = await this.call("tryLead", () =>
      this.host.etcd.txn(
        [
          { key: "leader", create: 0 },
          { key: "epoch", mod: epoch?.modRevision ?? 0 },
          { key: "in_sync", mod: inSync?.modRevision ?? 0 },
        ],
        [
          { put: "epoch", value: String(candidate.epoch) },
          { put: "leader", value: leaderValue(candidate), lease: this.lease },
        ],
      ),
    );
    return won
      ? { won: true, leader: candidate }
      : { won: false, reason: "raced", leader: parseLeader(await this.value("tryLead", "leader")) };
  }

  async resign(leader: GroupLeader): Promise<boolean> {
    if (leader.id !== this.member.id) return false;
    return this.call("resign", () => this.host.etcd.txn([{ key: "leader", value: leaderValue(leader) }], [{ delete: "leader" }]));
  }

  async stillLeads(epoch: number): Promise<boolean> {
    const leader = parseLeader(await this.value("stillLeads", "leader"));
    return (
      leader !== null &&
      leader.id === this.member.id &&
      leader.epoch === epoch &&
      parseEpoch(await this.value("stillLeads", "epoch")) === epoch
    );
  }

  renewLease(): Promise<boolean> {
    return this.call("renewLease", () => this.host.etcd.leaseAlive(this.lease));
  }

  publishInSync(epoch: number, ids: readonly string[]): Promise<boolean> {
    return this.call("publishInSync", () =>
      this.host.etcd.txn(
        [
          { key: "leader", value: leaderValue({ ...this.member, epoch }) },
          { key: "epoch", value: String(epoch) },
        ],
        [{ put: "in_sync", value: inSyncValue(epoch, this.member.id, ids) }],
      ),
    );
  }

  async inSync(): Promise<InSyncSet | null> {
    return parseInSync(await this.value("inSync", "in_sync"));
  }

  async report(state: Pick<MemberState, "role" | "applied" | "lagMs">): Promise<void> {
    await this.call("report", () => this.host.etcd.put(`${MEMBERS_PREFIX}${this.member.id}`, memberValue(this.member, state), this.lease));
  }

  async members(): Promise<MemberState[]> {
    return parseMembers(await this.call("members", () => this.host.etcd.values(MEMBERS_PREFIX)));
  }

  async watchLeader(handler: (leader: GroupLeader | null) => void): Promise<() => Promise<void>> {
    const watch: LeaderWatch = { active: true, handler };
    const stop = await this.call("watchLeader", () => this.host.etcd.watch((event) => this.heard(watch, event)));
    return async () => {
      watch.active = false;
      stop();
    };
  }

  async close(): Promise<void> {
    if (this.closed || this.dead) return;
    this.closed = true;
    try {
      await this.call("close", () => this.host.etcd.endLease(this.lease));
    } catch {
      // etcd unreachable: the lease expires on its own after its TTL
    }
  }

  private heard(watch: LeaderWatch, event: KeyEvent): void {
    if (event.key !== "leader" || this.dead) return;
    this.host.notify(this, "watch", () => {
      if (watch.active && !this.dead) watch.handler(parseLeader(event.value));
    });
  }

  private call<T>(op: GroupOp, run: () => T): Promise<T> {
    return this.host.send(this, this.member.id, op, run);
  }

  private stored(op: GroupOp, key: string): Promise<StoredKey | null> {
    return this.call(op, () => this.host.etcd.get(key));
  }

  private async value(op: GroupOp, key: string): Promise<string | null> {
    return (await this.stored(op, key))?.value ?? null;
  }
}
