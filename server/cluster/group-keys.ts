// How a group's state is written in etcd's keys (under `/strand/<group>/`), and the rule a
// leadership attempt applies to them before its transaction. Shared by EtcdGroup and its
// in-memory double (memory-group.ts), so both store, compare and decide byte for byte alike.
//
//   epoch           decimal; raised by one by every leader election, never lowered or deleted
//   leader          {"id","url","epoch"}, attached to the leader's lease
//   in_sync         {"epoch","leader","ids"}: written only by the leader of that epoch
//   members/<id>    {"id","url","keyDigest","role","applied","lagMs"}, attached to the member's lease
import { type GroupLeader, type GroupMember, type InSyncSet, type LeadAttempt, type MemberState, mayLeadBy } from "./group.js";

export const MEMBERS_PREFIX = "members/";

/** The leader key's exact value: conditional writes compare it byte for byte. */
export function leaderValue(leader: GroupLeader): string {
  const stored: GroupLeader = { id: leader.id, url: leader.url, epoch: leader.epoch };
  return JSON.stringify(stored);
}

export function inSyncValue(epoch: number, leader: string, ids: readonly string[]): string {
  return JSON.stringify({ epoch, leader, ids: [...ids].sort() } satisfies InSyncSet);
}

export function memberValue(member: GroupMember, state: Pick<MemberState, "role" | "applied" | "lagMs">): string {
  const value: MemberState = {
    id: member.id,
    url: member.url,
    ...(member.keyDigest === undefined ? {} : { keyDigest: member.keyDigest }),
    ...state,
  };
  return JSON.stringify(value);
}

export function parseEpoch(text: string | null): number {
  return Number(text ?? "0");
}

export function parseLeader(text: string | null): GroupLeader | null {
  if (text === null) return null;
  const value = JSON.parse(text) as GroupLeader;
  return { id: value.id, url: value.url, epoch: value.epoch };
}

export function parseInSync(text: string | null): InSyncSet | null {
  return text === null ? null : (JSON.parse(text) as InSyncSet);
}

export function parseMembers(values: Iterable<string>): MemberState[] {
  return [...values].map((text) => JSON.parse(text) as MemberState).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The stored values a leadership attempt reads (null: the key is absent). */
export interface LeadRead {
  readonly leader: string | null;
  readonly epoch: string | null;
  readonly inSync: string | null;
}

/**
 * Group.tryLead's decision before it writes: refused (someone leads, or the in-sync set bars this
 * member), or the leader record to write with the next epoch. When the stored epoch is below
 * `epochFloor` the group lost the history this member was in, and its in-sync set (if any)
 * belongs to the new one: it does not bar this member.
 */
export function leadCandidate(
  read: LeadRead,
  member: GroupMember,
  requireInSync: boolean,
  epochFloor: number,
): { readonly refused: LeadAttempt } | { readonly candidate: GroupLeader } {
  const current = parseLeader(read.leader);
  if (current !== null) return { refused: { won: false, reason: "led", leader: current } };
  const storedEpoch = parseEpoch(read.epoch);
  if (requireInSync && storedEpoch >= epochFloor && !mayLeadBy(parseInSync(read.inSync), member.id))
    return { refused: { won: false, reason: "not_in_sync", leader: null } };
  return { candidate: { id: member.id, url: member.url, epoch: Math.max(storedEpoch, epochFloor) + 1 } };
}
