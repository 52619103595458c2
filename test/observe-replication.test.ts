// Replication in /metrics (server/observe/replication-metrics.ts): every node's commit sequence; a
// replica's lag behind the leader it follows, in entries and seconds; a failover group's leader's
// view of each synchronous replica. In process: a leader and a replica following it over HTTP
// (server/node/served-node.ts, as `strand serve --follow` runs them); the lag figures of a replica
// that is behind, and of a group's leader, from a node whose state the test sets.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GraphStore } from "../runtime/graph-store.js";
import type { StoreIdentity } from "../runtime/replication/protocol.js";
import { InSyncTracker } from "../server/cluster/in-sync.js";
import { ServedNode } from "../server/node/served-node.js";
import { ServerMetrics } from "../server/observe/metrics.js";
import type { ClusterView, LogView, ReplicationNode } from "../server/replication/node.js";
import { type RunningServer, startServer } from "../server/server.js";
import { queries, schema } from "./support/mcp-fixture.js";
import { samples } from "./support/metrics-text.js";

const identity: StoreIdentity = { format: 2, schemaVersion: null, fingerprint: "0123456789abcdef", strand: "test" };
const KEY = "rk";

interface Served {
  node: ServedNode;
  server: RunningServer;
  url: string;
}

async function serve(dataDir: string, leader: string | null): Promise<Served> {
  const open = () => GraphStore.open({ path: dataDir, schema });
  const events = { warn: () => {}, fatal: (line: string) => expect.fail(line) };
  const node = new ServedNode({ store: open(), reopenStore: open, dataDir, identity, key: KEY, afterTimeoutMs: 30_000, events });
  if (leader === null) await node.lead(0);
  else await node.follow({ url: leader, key: KEY }, null);
  const server = await startServer({ store: node.store, replication: node.node, schema, queries, port: 0 });
  node.start();
  return { node, server, url: `http://127.0.0.1:${server.port}` };
}

async function addPost(s: Served, title: string): Promise<number> {
  const res = await fetch(`${s.url}/AddPost`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ title }),
  });
  await res.arrayBuffer();
  return res.status;
}

async function metricsOf(s: Served): Promise<string> {
  return (await fetch(`${s.url}/metrics`)).text();
}

const REPLICA_FAMILIES = ["strand_replica_lag_entries", "strand_replica_lag_seconds"];
const LEADER_FAMILIES = [
  "strand_leader_replica_applied_seq",
  "strand_leader_replica_lag_entries",
  "strand_leader_replica_tenant_versions_behind",
];
const familiesOf = (text: string, names: string[]): string[] => names.flatMap((n) => samples(text, n));

describe("a leader and its replica", () => {
  const dir = mkdtempSync(join(tmpdir(), "strand-observe-replication-"));
  let leader: Served;
  let replica: Served;

  beforeAll(async () => {
    leader = await serve(join(dir, "leader"), null);
    replica = await serve(join(dir, "replica"), leader.url);
  });

  afterAll(async () => {
    for (const s of [replica, leader]) {
      await s?.node.stop();
      await s?.server.close();
      await s?.node.current().close();
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it("report the sequence each holds, and the replica its lag behind the leader it follows", async () => {
    for (const title of ["one", "two", "three"]) expect(await addPost(leader, title)).toBe(200);
    const seq = leader.node.appliedSeq();
    // Answered once the replica has applied `seq` (Strand-After): it has caught up.
    const caughtUp = await fetch(`${replica.url}/CountUsers`, {
      method: "POST",
      headers: { "content-type": "application/json", "strand-after": String(seq) },
      body: "{}",
    });
    expect([caughtUp.status, caughtUp.headers.get("strand-commit")]).toEqual([200, String(seq)]);

    const onReplica = await metricsOf(replica);
    expect(samples(onReplica, "strand_commit_seq")).toEqual([`strand_commit_seq ${seq}`]);
    expect(familiesOf(onReplica, REPLICA_FAMILIES)).toEqual([
      `strand_replica_lag_entries{leader="${leader.url}"} 0`,
      `strand_replica_lag_seconds{leader="${leader.url}"} 0`,
    ]);
    expect(familiesOf(onReplica, LEADER_FAMILIES)).toEqual([]);

    const onLeader = await metricsOf(leader);
    expect(samples(onLeader, "strand_commit_seq")).toEqual([`strand_commit_seq ${seq}`]);
    expect(familiesOf(onLeader, [...REPLICA_FAMILIES, ...LEADER_FAMILIES])).toEqual([]);
  });
});

describe("replication figures from the node's state", () => {
  /** A node at `committed`, following as `following` says, leading a group as `cluster` says. */
  function node(committed: number, following: ReplicationNode["following"], cluster?: Partial<ClusterView>): ReplicationNode {
    return {
      log: () => ({ committed }) as unknown as LogView,
      backup: () => Promise.reject(new Error("no backups here")),
      identity,
      following,
      key: KEY,
      afterTimeoutMs: 50,
      ...(cluster === undefined ? {} : { cluster: cluster as ClusterView }),
    };
  }
  const text = (n: ReplicationNode): Promise<string> => new ServerMetrics({ replication: n }).render();

  it("a replica behind its leader: the entries it has not applied, and how old its newest applied entry is", async () => {
    const behind = node(7, () => ({ leader: "http://leader:6969", leaderSeq: 10, lagMs: 2500, state: "following" }));
    const out = await text(behind);
    expect(samples(out, "strand_commit_seq")).toEqual(["strand_commit_seq 7"]);
    expect(familiesOf(out, REPLICA_FAMILIES)).toEqual([
      'strand_replica_lag_entries{leader="http://leader:6969"} 3',
      'strand_replica_lag_seconds{leader="http://leader:6969"} 2.5',
    ]);
  });

  it("a group's leader: what each synchronous replica has proven it holds, and how far behind that is", async () => {
    const leading = node(9, () => null, {
      replicaPositions: () => [
        { member: "r1", applied: 9 },
        { member: "r2", applied: 4 },
      ],
    });
    const out = await text(leading);
    expect(familiesOf(out, [...REPLICA_FAMILIES, ...LEADER_FAMILIES])).toEqual([
      'strand_leader_replica_applied_seq{member="r1"} 9',
      'strand_leader_replica_applied_seq{member="r2"} 4',
      'strand_leader_replica_lag_entries{member="r1"} 0',
      'strand_leader_replica_lag_entries{member="r2"} 5',
    ]);
    // Serving tenants: how many tenant changes each has not proven (r2 none of this leader's feed yet).
    const withTenants = node(9, () => null, {
      replicaPositions: () => [
        { member: "r1", applied: 9, tenants: 12 },
        { member: "r2", applied: 9, tenants: -1 },
      ],
    });
    withTenants.tenants = {
      id: "f",
      answer: () => ({ feed: "f", version: 14, full: true, tenants: [], dropped: [] }),
      version: () => 14,
      waitPast: async () => false,
    };
    expect(familiesOf(await text(withTenants), ["strand_leader_replica_tenant_versions_behind"])).toEqual([
      'strand_leader_replica_tenant_versions_behind{member="r1"} 2',
      'strand_leader_replica_tenant_versions_behind{member="r2"} 15',
    ]);
    // A group node that does not say (a view without replicaPositions), and a node without replication: none.
    expect(familiesOf(await text(node(9, () => null, {})), LEADER_FAMILIES)).toEqual([]);
    const bare = await new ServerMetrics().render();
    expect(familiesOf(bare, ["strand_commit_seq", ...REPLICA_FAMILIES, ...LEADER_FAMILIES])).toEqual([]);
  });

  it("the in-sync tracker keeps each replica's newest position, for those figures", () => {
    const tracker = new InSyncTracker({ required: 1, lagTimeoutMs: 1_000, publish: () => Promise.resolve(true), now: () => 0 });
    tracker.replicaApplied("r2", 3);
    tracker.replicaApplied("r1", 5);
    tracker.replicaApplied("r2", 2);
    tracker.replicaFeed("r1", 2);
    expect(tracker.applied).toEqual([
      { member: "r1", applied: 5, tenants: 2 },
      { member: "r2", applied: 3, tenants: -1 },
    ]);
  });
});
