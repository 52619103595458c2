// `strand status` (issue 15 item 4): the group as etcd holds it (leader, epoch, in-sync set, each
// member's sequence and lag) and one node as it sees itself, printed exactly.
import { spawnSync } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { formatNode } from "../cli/commands/status.js";
import { EtcdGroup } from "../server/cluster/etcd-group.js";
import { type EtcdCluster, startEtcdCluster } from "../scripts/campaign/etcd-cluster.js";
import { CLI, startStrand, type StrandServer } from "./support/server.js";

let cluster: EtcdCluster | null = null;
const groups: EtcdGroup[] = [];
const servers: StrandServer[] = [];
afterAll(async () => {
  await Promise.all(groups.map((g) => g.close()));
  for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) await s.kill();
  await cluster?.stop();
});

function strand(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("strand status", () => {
  it("prints the group from etcd: leader, epoch, in-sync set, every member's seq and lag", async () => {
    cluster = await startEtcdCluster(1);
    const endpoints = cluster.endpoints.join(",");
    // A group no node ever joined (a misspelt --group): exit 1, not an empty table.
    expect(strand("status", "--etcd", endpoints, "--group", "empty")).toEqual({
      status: 1,
      stdout: "",
      stderr: `strand: etcd at ${endpoints} holds no group empty: no node has ever joined it (check --group)\n`,
    });
    const join = async (id: string, port: number): Promise<EtcdGroup> => {
      const g = await EtcdGroup.join({
        endpoints: cluster!.endpoints,
        group: "shop",
        member: { id, url: `http://10.0.0.${port}:6969` },
        leaseTtlSeconds: 10,
      });
      groups.push(g);
      return g;
    };
    const a = await join("node-a", 1);
    const b = await join("node-b", 2);
    const c = await join("node-c", 3);
    expect((await a.tryLead(false)).won).toBe(true);
    expect(await a.publishInSync(1, ["node-b"])).toBe(true);
    await a.report({ role: "leader", applied: 1200, lagMs: 0 });
    await b.report({ role: "replica", applied: 1200, lagMs: 0 });
    await c.report({ role: "replica", applied: 1166, lagMs: 340 });
    expect(strand("status", "--etcd", endpoints, "--group", "shop")).toEqual({
      status: 0,
      stdout: [
        "group shop: epoch 1, leader node-a at http://10.0.0.1:6969",
        "in sync: node-b",
        "member  role     url                   seq   lag seqs  lag ms  in sync",
        "node-a  leader   http://10.0.0.1:6969  1200  -         -       -",
        "node-b  replica  http://10.0.0.2:6969  1200  0         0       yes",
        "node-c  replica  http://10.0.0.3:6969  1166  34        340     no",
        "",
      ].join("\n"),
      stderr: "",
    });
  }, 60_000);

  it("prints one node as it sees itself, and says why it cannot", async () => {
    const leader = await startStrand({ extraArgs: ["--replication-key", "k", "--log-level", "warn"] });
    servers.push(leader);
    const written = await fetch(`${leader.url}/AddUser`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ handle: "ada", name: "Ada", city: "London", age: 36 }),
    });
    expect(written.status).toBe(200);
    expect(strand("status", "--url", leader.url, "--replication-key", "k")).toEqual({
      status: 0,
      stdout: `node ${leader.url}: leader at seq 1\n`,
      stderr: "",
    });
    const refused = strand("status", "--url", leader.url, "--replication-key", "wrong");
    expect([refused.status, refused.stdout, refused.stderr]).toEqual([
      1,
      "",
      `strand: cannot read the status of ${leader.url}: 401 {"error":"missing or invalid replication key (x-replication-key) or api key","code":"UNAUTHORIZED"}\n`,
    ]);
    expect(strand("status", "--group", "g")).toMatchObject({ status: 2 });
  }, 60_000);

  it("shows a group's replica with its leader and lag, and a leader with its in-sync set", () => {
    const identity = { format: 2, schemaVersion: null, fingerprint: "0123456789abcdef", strand: "0.1.0" };
    const cluster = { group: "shop", member: "node-c", epoch: 3, inSync: [], syncReplicas: 1 };
    expect(
      formatNode("http://10.0.0.3:6969", {
        role: "replica",
        seq: 1166,
        oldest: 1,
        identity,
        following: { leader: "http://10.0.0.1:6969", leaderSeq: 1200, lagMs: 340, state: "following" },
        cluster,
      }),
    ).toBe(
      "node http://10.0.0.3:6969: replica at seq 1166 (group shop, member node-c, epoch 3)\n" +
        "following http://10.0.0.1:6969 (following): the leader is at seq 1200, lag 34 seqs, 340 ms\n",
    );
    expect(
      formatNode("http://10.0.0.1:6969", {
        role: "leader",
        seq: 1200,
        oldest: 1,
        identity,
        following: null,
        cluster: { ...cluster, member: "node-a", inSync: ["node-b", "node-c"] },
      }),
    ).toBe(
      "node http://10.0.0.1:6969: leader at seq 1200 (group shop, member node-a, epoch 3)\nsync replicas: 1; in sync: node-b, node-c\n",
    );
  });
});
