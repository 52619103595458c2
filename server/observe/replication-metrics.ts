// Replication in /metrics, from what the node already knows (server/replication/node.ts):
//
//   strand_commit_seq                          the sequence this node has committed (a leader) or applied (a replica)
//   strand_replica_lag_entries{leader}         a replica: entries its leader had committed (at the leader's last
//                                              answer) that it has not applied
//   strand_replica_lag_seconds{leader}         a replica: while behind, how long ago the newest entry it has
//                                              applied was committed; 0 when caught up (its /replication/status lagMs)
//   strand_leader_replica_applied_seq{member}  a failover group's leader with synchronous replicas: the sequence
//                                              each replica has proven it holds (server/cluster/replica-acks.ts)
//   strand_leader_replica_lag_entries{member}  ... and how many entries behind this leader that is
//   strand_leader_replica_tenant_versions_behind{member}  ... and, serving tenants, how many versions of
//                                              its tenant feed (tenant changes) behind this leader's it has proven
//
// A replica's series name the leader it follows; a leader has none of them (and a replica none of
// the leader's). Each is read when /metrics is asked for, so a role change shows at once.
import { Gauge, type Registry } from "prom-client";
import type { ReplicaPosition, ReplicationNode } from "../replication/node.js";

export function addReplicationMetrics(registers: Registry[], node: ReplicationNode): void {
  new Gauge({
    name: "strand_commit_seq",
    help: "The commit-log sequence this node has committed (a leader) or applied (a replica)",
    registers,
    collect() {
      this.set(node.log().committed);
    },
  });
  new Gauge({
    name: "strand_replica_lag_entries",
    help: "A replica: commit-log entries its leader had committed (as of the leader's last answer) that it has not applied",
    labelNames: ["leader"],
    registers,
    collect() {
      this.reset();
      const following = node.following();
      if (following !== null) this.set({ leader: following.leader }, Math.max(0, following.leaderSeq - node.log().committed));
    },
  });
  new Gauge({
    name: "strand_replica_lag_seconds",
    help: "A replica: while behind its leader, how long ago the newest entry it has applied was committed; 0 when caught up",
    labelNames: ["leader"],
    registers,
    collect() {
      this.reset();
      const following = node.following();
      if (following !== null) this.set({ leader: following.leader }, following.lagMs / 1000);
    },
  });
  const replicas = (): readonly ReplicaPosition[] => node.cluster?.replicaPositions?.() ?? [];
  new Gauge({
    name: "strand_leader_replica_applied_seq",
    help: "A failover group's leader with synchronous replicas: the sequence each replica has proven it holds",
    labelNames: ["member"],
    registers,
    collect() {
      this.reset();
      for (const r of replicas()) this.set({ member: r.member }, r.applied);
    },
  });
  new Gauge({
    name: "strand_leader_replica_lag_entries",
    help: "A failover group's leader with synchronous replicas: entries it has committed that each replica has not proven it holds",
    labelNames: ["member"],
    registers,
    collect() {
      this.reset();
      const committed = node.log().committed;
      for (const r of replicas()) this.set({ member: r.member }, Math.max(0, committed - r.applied));
    },
  });
  new Gauge({
    name: "strand_leader_replica_tenant_versions_behind",
    help: "A failover group's leader with synchronous replicas and tenants: tenant changes (versions of its tenant feed) each replica has not proven it holds",
    labelNames: ["member"],
    registers,
    collect() {
      this.reset();
      const feed = node.tenants;
      if (feed === undefined) return;
      const version = feed.version();
      // -1: none of this leader's feed proven yet (every version, the full listing's included).
      for (const r of replicas()) this.set({ member: r.member }, Math.max(0, version - (r.tenants ?? -1)));
    },
  });
}
