// A Strand group's shared state in etcd (issue 15 item 4): who leads, the fencing epoch, the
// in-sync replica set and each member's reported position. etcd decides leadership; the data
// itself never goes through it.
//
// Keys, under `/strand/<group>/`:
//   epoch           decimal; raised by one by every leader election, never lowered or deleted
//   leader          {"id","url","epoch"}, attached to the leader's lease: it disappears when
//                   the leader stops renewing (dies, or is cut off from etcd)
//   in_sync         {"epoch","ids"}: replicas that have every acknowledged write; written only
//                   by the leader of that epoch (the write compares both keys)
//   members/<id>    {"id","url","role","applied","lagMs"}, attached to the member's lease (strand status)
//
// Invariants: a member leads only while `leader` holds its id and `epoch` equals the epoch it
// won; winning is one transaction that requires `leader` absent and `epoch` unchanged since it
// was read, so two members can never win the same epoch. A member whose lease is lost, or that
// reads an epoch above its own, is fenced: it must refuse writes (the server's job).
import { Etcd3, type Lease, type Namespace } from "etcd3";

export interface GroupMember {
  /** Unique in the group and stable across restarts (e.g. derived from the data directory). */
  readonly id: string;
  /** Where the other members and clients reach this member's HTTP API. */
  readonly url: string;
}

export interface GroupLeader extends GroupMember {
  readonly epoch: number;
}

export interface InSyncSet {
  readonly epoch: number;
  /**
   * The member that led `epoch` and published the set (absent in sets written before it was
   * kept): it holds every write it acknowledged, so it may lead again, as the replicas in `ids`.
   */
  readonly leader?: string;
  /** The replicas that hold every write acknowledged so far. */
  readonly ids: readonly string[];
}

/**
 * Whether `member` holds every write the group acknowledged, by the in-sync set: a replica in it
 * or the leader that published it. Without the leader, a group stopped on purpose could not
 * elect anyone again: after the last leader's replicas were stopped (or it took over from a
 * leader that stopped) its set names no replica, and only that leader holds everything.
 */
export function mayLeadBy(inSync: InSyncSet | null, member: string): boolean {
  return inSync === null || inSync.ids.includes(member) || inSync.leader === member;
}

export interface MemberState extends GroupMember {
  readonly role: "leader" | "replica" | "fenced";
  /** The last commit sequence the member has durably applied. */
  readonly applied: number;
  /** A replica's lag behind its leader in ms (0: caught up; a leader: 0). */
  readonly lagMs?: number;
}

/** The whole group as etcd holds it at one moment (strand status). */
export interface GroupView {
  readonly epoch: number;
  readonly leader: GroupLeader | null;
  readonly inSync: InSyncSet | null;
  readonly members: MemberState[];
}

export interface JoinOptions {
  readonly endpoints: readonly string[];
  readonly group: string;
  readonly member: GroupMember;
  /** How long the group waits after the last renewal before the member's keys expire. */
  readonly leaseTtlSeconds: number;
}

/** A leadership attempt's outcome: won (with the new epoch), or who leads / why not. */
export type LeadAttempt =
  | { readonly won: true; readonly leader: GroupLeader }
  | { readonly won: false; readonly reason: "led" | "not_in_sync" | "raced"; readonly leader: GroupLeader | null };

export class EtcdGroup {
  private lostHandlers: ((error: Error) => void)[] = [];
  private closed = false;

  private constructor(
    private readonly client: Etcd3,
    private readonly keys: Namespace,
    private readonly lease: Lease,
    readonly member: GroupMember,
  ) {
    lease.on("lost", (error: Error) => {
      if (!this.closed) for (const handler of this.lostHandlers) handler(error);
    });
  }

  /** Connects and takes a lease; rejects when etcd cannot be reached within a few seconds. */
  static async join(options: JoinOptions): Promise<EtcdGroup> {
    if (!/^[A-Za-z0-9._-]+$/.test(options.group)) throw new Error(`group name '${options.group}' must be letters, digits, '.', '_' or '-'`);
    const client = new Etcd3({ hosts: [...options.endpoints], dialTimeout: 3_000 });
    const keys = client.namespace(`/strand/${options.group}/`);
    const lease = keys.lease(options.leaseTtlSeconds, { autoKeepAlive: true });
    try {
      await lease.grant();
    } catch (error) {
      client.close();
      throw error;
    }
    return new EtcdGroup(client, keys, lease, options.member);
  }

  /** Reads a group without joining it (no lease): who leads, the epoch, the in-sync set, the members. */
  static async peek(endpoints: readonly string[], group: string): Promise<GroupView> {
    const client = new Etcd3({ hosts: [...endpoints], dialTimeout: 3_000 });
    try {
      const keys = client.namespace(`/strand/${group}/`);
      const [leader, epoch, inSync, members] = await Promise.all([
        keys.get("leader").string(),
        keys.get("epoch").string(),
        keys.get("in_sync").string(),
        keys.getAll().prefix("members/").strings(),
      ]);
      return { epoch: Number(epoch ?? "0"), leader: parseLeader(leader), inSync: parseInSync(inSync), members: parseMembers(members) };
    } finally {
      client.close();
    }
  }

  /** Called once when this member's lease is lost: from then on it is fenced. */
  onLeaseLost(handler: (error: Error) => void): void {
    this.lostHandlers.push(handler);
  }

  async leader(): Promise<GroupLeader | null> {
    return parseLeader(await this.keys.get("leader").string());
  }

  async epoch(): Promise<number> {
    return Number((await this.keys.get("epoch").string()) ?? "0");
  }

  /**
   * Becomes the leader with epoch + 1 when nobody leads. With `requireInSync`, only a member of
   * the current in-sync set may win (so a replica that may miss acknowledged writes never leads).
   * The new epoch is above `epochFloor` too (the highest epoch this member knew: failover.ts).
   * When etcd's epoch is below that floor, etcd lost the history this member was in, and its
   * in-sync set (if any) belongs to the new one: it does not bar this member.
   */
  async tryLead(requireInSync: boolean, epochFloor = 0): Promise<LeadAttempt> {
    const [leaderRange, epochRange, inSyncRange] = await Promise.all([
      this.keys.get("leader").exec(),
      this.keys.get("epoch").exec(),
      this.keys.get("in_sync").exec(),
    ]);
    const current = parseLeader(storedValue(leaderRange));
    if (current !== null) return { won: false, reason: "led", leader: current };
    const inSync = parseInSync(storedValue(inSyncRange));
    const storedEpoch = Number(storedValue(epochRange) ?? "0");
    if (requireInSync && storedEpoch >= epochFloor && !mayLeadBy(inSync, this.member.id))
      return { won: false, reason: "not_in_sync", leader: null };
    const epoch = Math.max(storedEpoch, epochFloor) + 1;
    const leader: GroupLeader = { id: this.member.id, url: this.member.url, epoch };
    const result = await this.keys
      .if("leader", "Create", "==", 0)
      .and("epoch", "Mod", "==", modRevision(epochRange))
      .and("in_sync", "Mod", "==", modRevision(inSyncRange))
      .then(
        this.keys.put("epoch").value(String(epoch)),
        this.keys
          .put("leader")
          .value(JSON.stringify(leader))
          .lease(await this.lease.grant()),
      )
      .commit();
    return result.succeeded ? { won: true, leader } : { won: false, reason: "raced", leader: await this.leader() };
  }

  /** Deletes the leader key if it still holds exactly `leader` (this member's, which it no longer leads by). */
  async resign(leader: GroupLeader): Promise<boolean> {
    if (leader.id !== this.member.id) return false;
    const stored: GroupLeader = { id: leader.id, url: leader.url, epoch: leader.epoch };
    const result = await this.keys.if("leader", "Value", "==", JSON.stringify(stored)).then(this.keys.delete().key("leader")).commit();
    return result.succeeded;
  }

  /** Whether a member that won `epoch` still leads: its leader key stands and no later epoch exists. */
  async stillLeads(epoch: number): Promise<boolean> {
    const leader = await this.leader();
    return leader !== null && leader.id === this.member.id && leader.epoch === epoch && (await this.epoch()) === epoch;
  }

  /** Publishes the in-sync set; false (nothing written) when this member no longer leads `epoch`. */
  async publishInSync(epoch: number, ids: readonly string[]): Promise<boolean> {
    const leader: GroupLeader = { id: this.member.id, url: this.member.url, epoch };
    const result = await this.keys
      .if("leader", "Value", "==", JSON.stringify(leader))
      .and("epoch", "Value", "==", String(epoch))
      .then(this.keys.put("in_sync").value(JSON.stringify({ epoch, leader: this.member.id, ids: [...ids].sort() } satisfies InSyncSet)))
      .commit();
    return result.succeeded;
  }

  async inSync(): Promise<InSyncSet | null> {
    return parseInSync(await this.keys.get("in_sync").string());
  }

  /** Records this member's role and position (expires with its lease). */
  async report(state: Pick<MemberState, "role" | "applied" | "lagMs">): Promise<void> {
    const value: MemberState = { id: this.member.id, url: this.member.url, ...state };
    await this.keys
      .put(`members/${this.member.id}`)
      .value(JSON.stringify(value))
      .lease(await this.lease.grant());
  }

  async members(): Promise<MemberState[]> {
    return parseMembers(await this.keys.getAll().prefix("members/").strings());
  }

  /** Calls `handler` with the leader after every change of the leader key (null: nobody leads). */
  async watchLeader(handler: (leader: GroupLeader | null) => void): Promise<() => Promise<void>> {
    const watcher = await this.keys.watch().key("leader").create();
    watcher.on("put", (kv) => handler(parseLeader(kv.value.toString())));
    watcher.on("delete", () => handler(null));
    return () => watcher.cancel();
  }

  /** Gives up the lease (a leader's key goes at once, so a replica can take over without waiting). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.lease.revoke();
    } catch {
      // etcd unreachable: the lease expires on its own after its TTL
    }
    this.client.close();
  }
}

function storedValue(range: { kvs?: { value?: Buffer | Uint8Array | null }[] | null }): string | null {
  const value = range.kvs?.[0]?.value;
  return value === undefined || value === null ? null : Buffer.from(value).toString("utf8");
}

function modRevision(range: { kvs?: { mod_revision?: string | number | null }[] | null }): number {
  return Number(range.kvs?.[0]?.mod_revision ?? 0);
}

function parseLeader(text: string | null): GroupLeader | null {
  if (text === null) return null;
  const value = JSON.parse(text) as GroupLeader;
  return { id: value.id, url: value.url, epoch: value.epoch };
}

function parseInSync(text: string | null): InSyncSet | null {
  return text === null ? null : (JSON.parse(text) as InSyncSet);
}

function parseMembers(all: Record<string, string>): MemberState[] {
  return Object.values(all)
    .map((text) => JSON.parse(text) as MemberState)
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
