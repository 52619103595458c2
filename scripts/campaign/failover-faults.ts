// The failover campaign's faults, one function each: what it does to the group and when (on the
// campaign's clock), for the checks and the per-kind unavailability windows.
//   leader-kill       SIGKILL the leader; started again once another node acknowledged a write (or
//                     after the lease and 15 s)
//   leader-pause      SIGSTOP the leader for 1.3 to 2.5 lease times (its lease expires), then SIGCONT
//   replica-kill      SIGKILL a replica, started again 0.5 to 3 s later
//   replica-pause     SIGSTOP a replica for 0.5 s to 2 lease times
//   etcd-member-kill  SIGKILL one of the three etcd members, started again 1 to 4 s later
//   etcd-quorum-loss  SIGKILL two etcd members, started again 1 to 4 s later
import type { EtcdCluster } from "./etcd-cluster.js";
import type { FailoverGroup, GroupNode } from "./failover-group.js";
import type { Writers } from "./failover-writers.js";
import { between, pick, type Random } from "./random.js";
import { sleep } from "./strand-child.js";

export const FAULT_KINDS = [
  "leader-kill",
  "leader-pause",
  "replica-kill",
  "replica-pause",
  "etcd-member-kill",
  "etcd-quorum-loss",
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultContext {
  group: FailoverGroup;
  etcd: EtcdCluster;
  writers: Writers;
  random: Random;
  leaseTtlMs: number;
  now: () => number;
}

export interface Fault {
  kind: FaultKind;
  /** The node it hit (the etcd member's index for etcd faults). */
  target: string;
  /** When it began and when the faulted part ran again (campaign clock, ms). */
  at: number;
  endedAt: number;
  /** The epoch the leader led in when hit (leader faults). */
  epoch?: number;
  /** How long the process stayed paused (pauses). */
  pausedMs?: number;
}

export async function inject(kind: FaultKind, ctx: FaultContext, leader: GroupNode): Promise<Fault> {
  switch (kind) {
    case "leader-kill":
      return leaderKill(ctx, leader);
    case "leader-pause":
      return pause(ctx, leader, "leader-pause", between(ctx.random, ctx.leaseTtlMs * 1.3, ctx.leaseTtlMs * 2.5));
    case "replica-kill":
      return replicaKill(ctx, replicaOf(ctx, leader));
    case "replica-pause":
      return pause(ctx, replicaOf(ctx, leader), "replica-pause", between(ctx.random, 500, ctx.leaseTtlMs * 2));
    case "etcd-member-kill":
      return etcdKill(ctx, "etcd-member-kill", [between(ctx.random, 0, 3)]);
    case "etcd-quorum-loss": {
      const spared = between(ctx.random, 0, 3);
      return etcdKill(
        ctx,
        "etcd-quorum-loss",
        [0, 1, 2].filter((i) => i !== spared),
      );
    }
  }
}

function replicaOf(ctx: FaultContext, leader: GroupNode): GroupNode {
  return pick(
    ctx.random,
    ctx.group.nodes.filter((n) => n !== leader),
  );
}

async function leaderKill(ctx: FaultContext, leader: GroupNode): Promise<Fault> {
  const epoch = leader.status?.cluster.epoch ?? 0;
  const at = ctx.now();
  await leader.server!.kill();
  // The killed node comes back once another leads (its acknowledged writes show it), so the
  // failover is measured with two nodes, as after a real crash.
  const deadline = Date.now() + ctx.leaseTtlMs + 15_000;
  while (Date.now() < deadline && !ctx.writers.acknowledged().some((a) => a.epoch > epoch && a.receivedAt > at)) await sleep(20);
  await sleep(between(ctx.random, 0, 1_000));
  await ctx.group.startNode(leader);
  return { kind: "leader-kill", target: leader.name, at, endedAt: ctx.now(), epoch };
}

async function pause(ctx: FaultContext, node: GroupNode, kind: "leader-pause" | "replica-pause", ms: number): Promise<Fault> {
  const epoch = node.status?.cluster.epoch ?? 0;
  node.paused = true;
  const at = ctx.now();
  node.server!.child.kill("SIGSTOP");
  await sleep(ms);
  node.server!.child.kill("SIGCONT");
  const endedAt = ctx.now();
  node.paused = false;
  return { kind, target: node.name, at, endedAt, epoch, pausedMs: endedAt - at };
}

async function replicaKill(ctx: FaultContext, node: GroupNode): Promise<Fault> {
  const at = ctx.now();
  await node.server!.kill();
  await sleep(between(ctx.random, 500, 3_000));
  await ctx.group.startNode(node);
  return { kind: "replica-kill", target: node.name, at, endedAt: ctx.now() };
}

async function etcdKill(ctx: FaultContext, kind: "etcd-member-kill" | "etcd-quorum-loss", members: number[]): Promise<Fault> {
  const at = ctx.now();
  for (const m of members) await ctx.etcd.killMember(m);
  await sleep(between(ctx.random, 1_000, 4_000));
  for (const m of members) await ctx.etcd.restartMember(m);
  return { kind, target: `etcd ${members.join("+")}`, at, endedAt: ctx.now() };
}
