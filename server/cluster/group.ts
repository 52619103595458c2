// What a failover group is to its members: who leads, the fencing epoch, the
// in-sync replica set and each member's reported position, behind the operations
// FailoverController (failover.ts) uses. etcd-group.ts keeps it in etcd; memory-group.ts keeps it
// in memory, for scripted scenarios.
//
// Invariants every implementation keeps: a member leads only while the leader key holds its id
// and the epoch equals the epoch it won; winning requires no leader key and an epoch and in-sync
// set unchanged since they were read, so two members can never win the same epoch; the in-sync
// set is written only by the leader of its epoch; a member's leader and member keys go with its
// lease.

export interface GroupMember {
  /** Unique in the group and stable across restarts (e.g. derived from the data directory). */
  readonly id: string;
  /** Where the other members and clients reach this member's HTTP API. */
  readonly url: string;
  /**
   * SHA-256 (hex) of the member's own key (server/node/member-identity.ts), published in its member
   * record: a leader counts a replica's acknowledgement only from a request that carries the key.
   */
  readonly keyDigest?: string | undefined;
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
  /** "starting": joined, no role yet (its record is written at once, so its key digest is known). */
  readonly role: "starting" | "leader" | "replica" | "fenced";
  /** The last commit sequence the member has durably applied. */
  readonly applied: number;
  /** A replica's lag behind its leader in ms (0: caught up; a leader: 0). */
  readonly lagMs?: number;
}

/** A leadership attempt's outcome: won (with the new epoch), or who leads / why not. */
export type LeadAttempt =
  | { readonly won: true; readonly leader: GroupLeader }
  | { readonly won: false; readonly reason: "led" | "not_in_sync" | "raced"; readonly leader: GroupLeader | null };

/** One member's membership of a group: it lasts as long as its lease. */
export interface Group {
  readonly member: GroupMember;
  leader(): Promise<GroupLeader | null>;
  epoch(): Promise<number>;
  /**
   * Becomes the leader with epoch + 1 when nobody leads. With `requireInSync`, only a member the
   * in-sync set allows (mayLeadBy) may win. The new epoch is above `epochFloor` too (the highest
   * epoch this member knew); when the stored epoch is below that floor, the group lost the
   * history this member was in, and its in-sync set does not bar this member.
   */
  tryLead(requireInSync: boolean, epochFloor?: number): Promise<LeadAttempt>;
  /** Deletes the leader key if it still holds exactly `leader` (this member's, which it no longer leads by). */
  resign(leader: GroupLeader): Promise<boolean>;
  /** Whether a member that won `epoch` still leads: its leader key stands and no later epoch exists. */
  stillLeads(epoch: number): Promise<boolean>;
  /**
   * Renews this member's lease at etcd now: true when etcd still held it, which then lasts at least
   * its TTL from the moment this was called; false when etcd no longer holds it. A key that is
   * still there proves nothing of the kind: etcd deletes an expired lease's keys only once the
   * revoke has gone through its raft log, which a loaded cluster can take seconds to do.
   */
  renewLease(): Promise<boolean>;
  /** Publishes the in-sync set; false (nothing written) when this member no longer leads `epoch`. */
  publishInSync(epoch: number, ids: readonly string[]): Promise<boolean>;
  inSync(): Promise<InSyncSet | null>;
  /** Records this member's role and position (expires with its lease). */
  report(state: Pick<MemberState, "role" | "applied" | "lagMs">): Promise<void>;
  members(): Promise<MemberState[]>;
  /** Calls `handler` with the leader after every change of the leader key (null: nobody leads); resolves to a cancel. */
  watchLeader(handler: (leader: GroupLeader | null) => void): Promise<() => Promise<void>>;
  /** Called once when this member's lease is lost: from then on it is fenced. */
  onLeaseLost(handler: (error: Error) => void): void;
  /** Gives up the lease (a leader's key goes at once, so a replica can take over without waiting). */
  close(): Promise<void>;
}

/** Opens a new membership (a new lease), e.g. after the old one was lost. */
export type JoinGroup = () => Promise<Group>;
