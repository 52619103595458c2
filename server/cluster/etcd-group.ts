// A Strand group's shared state in etcd: who leads, the fencing epoch, the
// in-sync replica set and each member's reported position. etcd decides leadership; the data
// itself never goes through it. The keys and their values: group-keys.ts; the invariants: group.ts.
//
// A member whose lease is lost, or that reads an epoch above its own, is fenced: it must refuse
// writes (the server's job). EtcdGroup.peek reads a group without joining it, for `strand status`
// and for a node's seed before its store opens (server/node/seed-before-open.ts).
import { Etcd3, EtcdLeaseInvalidError, type Lease, type Namespace } from "etcd3";
import type { Group, GroupLeader, GroupMember, InSyncSet, LeadAttempt, MemberState } from "./group.js";
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

export class EtcdGroup implements Group {
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
        keys.getAll().prefix(MEMBERS_PREFIX).strings(),
      ]);
      return {
        epoch: parseEpoch(epoch),
        leader: parseLeader(leader),
        inSync: parseInSync(inSync),
        members: parseMembers(Object.values(members)),
      };
    } finally {
      client.close();
    }
  }

  onLeaseLost(handler: (error: Error) => void): void {
    this.lostHandlers.push(handler);
  }

  async leader(): Promise<GroupLeader | null> {
    return parseLeader(await this.keys.get("leader").string());
  }

  async epoch(): Promise<number> {
    return parseEpoch(await this.keys.get("epoch").string());
  }

  async tryLead(requireInSync: boolean, epochFloor = 0): Promise<LeadAttempt> {
    const [leaderRange, epochRange, inSyncRange] = await Promise.all([
      this.keys.get("leader").exec(),
      this.keys.get("epoch").exec(),
      this.keys.get("in_sync").exec(),
    ]);
    const read = { leader: storedValue(leaderRange), epoch: storedValue(epochRange), inSync: storedValue(inSyncRange) };
    const decided = leadCandidate(read, this.member, requireInSync, epochFloor);
    if ("refused" in decided) return decided.refused;
    const leader = decided.candidate;
    const result = await this.keys
      .if("leader", "Create", "==", 0)
      .and("epoch", "Mod", "==", modRevision(epochRange))
      .and("in_sync", "Mod", "==", modRevision(inSyncRange))
      .then(
        this.keys.put("epoch").value(String(leader.epoch)),
        this.keys
          .put("leader")
          .value(leaderValue(leader))
          .lease(await this.lease.grant()),
      )
      .commit();
    return result.succeeded ? { won: true, leader } : { won: false, reason: "raced", leader: await this.leader() };
  }

  async resign(leader: GroupLeader): Promise<boolean> {
    if (leader.id !== this.member.id) return false;
    const result = await this.keys.if("leader", "Value", "==", leaderValue(leader)).then(this.keys.delete().key("leader")).commit();
    return result.succeeded;
  }

  async stillLeads(epoch: number): Promise<boolean> {
    const leader = await this.leader();
    return leader !== null && leader.id === this.member.id && leader.epoch === epoch && (await this.epoch()) === epoch;
  }

  async renewLease(): Promise<boolean> {
    try {
      await this.lease.keepaliveOnce();
      return true;
    } catch (error) {
      // etcd answered that the lease is gone (etcd3 also emits its loss); anything else is etcd unreachable.
      if (error instanceof EtcdLeaseInvalidError) return false;
      throw error;
    }
  }

  async publishInSync(epoch: number, ids: readonly string[]): Promise<boolean> {
    const result = await this.keys
      .if("leader", "Value", "==", leaderValue({ ...this.member, epoch }))
      .and("epoch", "Value", "==", String(epoch))
      .then(this.keys.put("in_sync").value(inSyncValue(epoch, this.member.id, ids)))
      .commit();
    return result.succeeded;
  }

  async inSync(): Promise<InSyncSet | null> {
    return parseInSync(await this.keys.get("in_sync").string());
  }

  async report(state: Pick<MemberState, "role" | "applied" | "lagMs">): Promise<void> {
    await this.keys
      .put(`${MEMBERS_PREFIX}${this.member.id}`)
      .value(memberValue(this.member, state))
      .lease(await this.lease.grant());
  }

  async members(): Promise<MemberState[]> {
    return parseMembers(Object.values(await this.keys.getAll().prefix(MEMBERS_PREFIX).strings()));
  }

  async watchLeader(handler: (leader: GroupLeader | null) => void): Promise<() => Promise<void>> {
    const watcher = await this.keys.watch().key("leader").create();
    watcher.on("put", (kv) => handler(parseLeader(kv.value.toString())));
    watcher.on("delete", () => handler(null));
    return () => watcher.cancel();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Bounded: a revoke waits on etcd (and on a grant that may never have finished), and a node
    // stopping must not hang on an etcd that is slow or gone; the lease expires on its own after its TTL.
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, REVOKE_WAIT_MS);
    });
    try {
      await Promise.race([this.lease.revoke().catch(() => undefined), waited]);
    } finally {
      clearTimeout(timer);
    }
    this.client.close();
  }
}

/** How long stopping waits for etcd to revoke the lease (ms). */
const REVOKE_WAIT_MS = 2_000;

function storedValue(range: { kvs?: { value?: Buffer | Uint8Array | null }[] | null }): string | null {
  const value = range.kvs?.[0]?.value;
  return value === undefined || value === null ? null : Buffer.from(value).toString("utf8");
}

function modRevision(range: { kvs?: { mod_revision?: string | number | null }[] | null }): number {
  return Number(range.kvs?.[0]?.mod_revision ?? 0);
}
