// Failover decisions against real etcd (server/cluster/failover.ts), with fake nodes that record
// what they were told: one leader per epoch, the others follow it; when the leader goes a
// replica takes over at a higher epoch; with synchronous replication only an in-sync replica
// may; a leader that sees another leader is fenced and follows it. Needs Debian's etcd-server.
import { Etcd3 } from "etcd3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EtcdGroup } from "../server/cluster/etcd-group.js";
import { FailoverController, type FailoverNode } from "../server/cluster/failover.js";
import { memberKeyDigest } from "../server/node/member-identity.js";
import { type EtcdCluster, startEtcdCluster } from "../scripts/campaign/etcd-cluster.js";

/** What a replica's log requests tell the leader: it was sent up to `seq` and holds it, as member `id` (with its key). */
function polled(leader: FailoverController, id: string, seq: number): void {
  leader.logSent(id, seq, keyOf(id));
  leader.replicaApplied(id, seq, keyOf(id));
}

/** Polls as `id` until the write's acknowledgement settles (the leader learns members' keys at its checks, as replicas poll on). */
async function pollUntilSettled(leader: FailoverController, id: string, seq: number, ack: Promise<string>): Promise<string> {
  let outcome: string | null = null;
  void ack.then((o) => {
    outcome = o;
  });
  await until(`the write at ${seq} settles`, () => {
    if (outcome === null) polled(leader, id, seq);
    return outcome !== null;
  });
  return outcome!;
}

class FakeNode implements FailoverNode {
  readonly told: string[] = [];
  applied = 0;
  /** What the node's data directory keeps (the real node: server/node/known-epoch.ts). */
  known = 0;
  appliedSeq(): number {
    return this.applied;
  }
  knownEpoch(): number {
    return this.known;
  }
  async lead(epoch: number): Promise<void> {
    this.known = Math.max(this.known, epoch);
    this.told.push(`lead ${epoch}`);
  }
  async follow(url: string, epoch: number): Promise<void> {
    this.known = Math.max(this.known, epoch);
    this.told.push(`follow ${url}`);
  }
  fence(reason: string): void {
    this.told.push(`fence: ${reason}`);
  }
}

let cluster: EtcdCluster;
let groupNo = 0;
const running: FailoverController[] = [];

/** A member's own key (server/node/member-identity.ts): the leader counts its acknowledgements only with it. */
const keyOf = (id: string): string => `key-of-${id}`;

async function member(group: string, id: string, syncReplicas = 0): Promise<{ node: FakeNode; controller: FailoverController }> {
  const member = { id, url: `http://${id}`, keyDigest: memberKeyDigest(keyOf(id)) };
  const join = () => EtcdGroup.join({ endpoints: cluster.endpoints, group, member, leaseTtlSeconds: 2 });
  const node = new FakeNode();
  const controller = new FailoverController(await join(), node, {
    syncReplicas,
    lagTimeoutMs: 1_000,
    checkEveryMs: 100,
    leaseTtlMs: 2_000,
    rejoin: join,
    log: () => {},
  });
  running.push(controller);
  return { node, controller };
}

async function until(what: string, test: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("failover on etcd", () => {
  beforeAll(async () => {
    // Without an etcd binary this fails naming the package to install (CI installs it).
    cluster = await startEtcdCluster(3);
  }, 60_000);
  afterAll(async () => {
    await Promise.all(running.map((c) => c.stop().catch(() => {})));
    await cluster?.stop();
  });

  it("elects one leader among three starting nodes; the others follow it; a replica takes over when it stops", async () => {
    const group = `f${++groupNo}`;
    const nodes = await Promise.all(["a", "b", "c"].map((id) => member(group, id)));
    await Promise.all(nodes.map((n) => n.controller.start()));
    const leaders = nodes.filter((n) => n.controller.role === "leader");
    expect(leaders.length).toBe(1);
    const first = leaders[0]!;
    const firstId = ["a", "b", "c"][nodes.indexOf(first)]!;
    expect(first.node.told).toEqual(["lead 1"]);
    for (const n of nodes.filter((x) => x !== first)) {
      expect(n.controller.role).toBe("replica");
      expect(n.node.told).toEqual([`follow http://${firstId}`]);
    }
    await first.controller.stop();
    const rest = nodes.filter((x) => x !== first);
    await until("a replica leads", () => rest.some((n) => n.controller.role === "leader"));
    const second = rest.find((n) => n.controller.role === "leader")!;
    const other = rest.find((n) => n !== second)!;
    const secondId = ["a", "b", "c"][nodes.indexOf(second)]!;
    expect(second.node.told).toEqual([`follow http://${firstId}`, "lead 2"]);
    await until("the other follows the new leader", () => other.node.told.length === 2);
    expect(other.node.told).toEqual([`follow http://${firstId}`, `follow http://${secondId}`]);
  }, 30_000);

  it("with synchronous replication acknowledges through the in-sync replica and promotes only it", async () => {
    const group = `f${++groupNo}`;
    const a = await member(group, "a", 1);
    await a.controller.start();
    expect(a.controller.role).toBe("leader");
    const b = await member(group, "b", 1);
    const c = await member(group, "c", 1);
    await b.controller.start();
    await c.controller.start();
    const ack = a.controller.waitAcked(7, 5_000);
    // b's log requests say it holds 7; c says nothing.
    expect(await pollUntilSettled(a.controller, "b", 7, ack)).toBe("acked");
    expect(a.controller.inSync).toEqual(["b"]);
    await a.controller.stop();
    await until("b leads", () => b.controller.role === "leader");
    expect(b.node.told).toEqual(["follow http://a", "lead 2"]);
    await until("c follows b", () => c.node.told.length === 2);
    expect(c.node.told).toEqual(["follow http://a", "follow http://b"]);
    expect(c.controller.role).toBe("replica");
  }, 30_000);

  it("with synchronous replication, a group stopped on purpose elects its last leader again when it starts", async () => {
    const group = `f${++groupNo}`;
    const a = await member(group, "a", 1);
    await a.controller.start();
    const b = await member(group, "b", 1);
    await b.controller.start();
    const ack = a.controller.waitAcked(3, 5_000);
    expect(await pollUntilSettled(a.controller, "b", 3, ack)).toBe("acked");
    // a stops first: b, in sync, takes over; its set then names no replica (a is not one of its).
    await a.controller.stop();
    await until("b leads", () => b.controller.role === "leader");
    expect(b.controller.inSync).toEqual([]);
    await b.controller.stop();
    const b2 = await member(group, "b", 1);
    const a2 = await member(group, "a", 1);
    await a2.controller.start();
    await b2.controller.start();
    await until("b leads again", () => b2.controller.role === "leader");
    expect(b2.node.told).toEqual(["lead 3"]);
    await until("a follows b", () => a2.controller.role === "replica");
    expect(a2.node.told).toEqual(["follow http://b"]);
  }, 30_000);

  it("fences a leader that finds another leader in etcd, and makes it follow", async () => {
    const group = `f${++groupNo}`;
    const a = await member(group, "a");
    await a.controller.start();
    expect(a.controller.role).toBe("leader");
    // x won epoch 2 while a was cut off from etcd (written by hand: a's own lease never lapsed here)
    const raw = new Etcd3({ hosts: cluster.endpoints });
    await raw.put(`/strand/${group}/epoch`).value("2");
    await raw.put(`/strand/${group}/leader`).value(JSON.stringify({ id: "x", url: "http://x", epoch: 2 }));
    raw.close();
    await until("a is fenced and follows x", () => a.node.told.includes("follow http://x"));
    // Fenced either by the watch (x's key) or by its own check finding epoch 2 first, whichever
    // comes first; then it follows x.
    expect(a.node.told).toHaveLength(3);
    expect(a.node.told[0]).toBe("lead 1");
    expect(a.node.told[1]).toMatch(/^fence: (http:\/\/x leads at epoch 2|a later epoch than 1 exists)$/);
    expect(a.node.told[2]).toBe("follow http://x");
    expect(a.controller.role).toBe("replica");
    expect(await a.controller.waitAcked(1, 100)).toBe("fenced");
  }, 30_000);

  it("resigns a leader key of its own that it does not lead by (an earlier incarnation's, its lease still alive), then leads", async () => {
    const group = `f${++groupNo}`;
    const earlier = await EtcdGroup.join({
      endpoints: cluster.endpoints,
      group,
      member: { id: "a", url: "http://a" },
      leaseTtlSeconds: 30,
    });
    expect((await earlier.tryLead(false)).won).toBe(true);
    const a = await member(group, "a");
    await a.controller.start();
    await until("a leads again", () => a.controller.role === "leader");
    expect(a.node.told).toEqual(["fence: etcd still names this node leader at epoch 1, from before; resigning", "lead 2"]);
    await earlier.close();
  }, 30_000);

  it("does not follow a leader of an epoch below one it has been in (etcd's keys lost); leading, it goes on above it", async () => {
    // A fresh group stands for etcd after its keys were lost: e, a node with an empty store, wins
    // its first election; d and r were leader and replica at epoch 7 of the lost history.
    const group = `f${++groupNo}`;
    const e = await member(group, "e");
    await e.controller.start();
    expect(e.node.told).toEqual(["lead 1"]);
    const d = await member(group, "d");
    d.node.known = 7;
    d.node.applied = 500;
    await d.controller.start();
    const refusal =
      "fence: etcd names http://e leader at epoch 1, below epoch 7 this node has been in: etcd's keys were lost or reset, " +
      "or --group names another group; not following it, which could re-seed this node from it. " +
      "Restore etcd's keys, stop that leader (the old history's node that holds the most then leads), " +
      "or start this node on an empty --data to join the group as it is";
    expect(d.node.told).toEqual([refusal]);
    expect(d.controller.role).toBe("fenced");
    // Its checks do not follow e, nor fence it again.
    await new Promise((r) => setTimeout(r, 500));
    expect(d.node.told).toEqual([refusal]);
    // The operator stops e: d leads, above every epoch it knew, and an old replica follows it.
    await e.controller.stop();
    await until("d leads", () => d.controller.role === "leader");
    expect(d.node.told).toEqual([refusal, "lead 8"]);
    const r = await member(group, "r");
    r.node.known = 7;
    await r.controller.start();
    await until("r follows d", () => r.controller.role === "replica");
    expect(r.node.told).toEqual(["follow http://d"]);
  }, 30_000);

  it("with synchronous replication, after etcd lost the history, the old node that holds the most leads; the new history's in-sync set does not bar it", async () => {
    const group = `f${++groupNo}`;
    // e (empty) wins the fresh group and publishes an in-sync set naming only itself.
    const e = await member(group, "e", 1);
    await e.controller.start();
    expect(e.node.told).toEqual(["lead 1"]);
    const d = await member(group, "d", 1);
    d.node.known = 7;
    d.node.applied = 500;
    const r = await member(group, "r", 1);
    r.node.known = 7;
    r.node.applied = 900;
    await d.controller.start();
    await r.controller.start();
    expect([d.controller.role, r.controller.role]).toEqual(["fenced", "fenced"]);
    // Both have reported their sequences (each check does) before the election.
    const reported = async (): Promise<boolean> => {
      const view = await EtcdGroup.peek(cluster.endpoints, group);
      return ["d", "r"].every((id) => view.members.some((m) => m.id === id && m.applied > 0));
    };
    for (let i = 0; i < 100 && !(await reported()); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await reported()).toBe(true);
    await e.controller.stop();
    // r holds more of the old history: d declines, r leads above epoch 7 with nobody in sync yet.
    await until("r leads", () => r.controller.role === "leader");
    expect(r.node.told.at(-1)).toBe("lead 8");
    expect(r.controller.inSync).toEqual([]);
    await until("d follows r", () => d.controller.role === "replica");
    expect(d.node.told.at(-1)).toBe("follow http://r");
  }, 30_000);

  // last: it takes etcd's quorum away
  it("fences a leader that cannot reach a quorum of etcd within the lease time", async () => {
    const group = `f${++groupNo}`;
    const a = await member(group, "a");
    await a.controller.start();
    expect(a.controller.role).toBe("leader");
    await cluster.killMember(1);
    await cluster.killMember(2);
    const lostAt = Date.now();
    await until("a is fenced", () => a.controller.role === "fenced", 15_000);
    // the lease outlives the last confirmation by at most its TTL; slack for a loaded machine
    expect(Date.now() - lostAt).toBeLessThan(2_000 + 3_000);
    expect(a.node.told[0]).toBe("lead 1");
    expect(a.node.told[1]).toMatch(/^fence: etcd has not confirmed the lead for \d+ ms \(lease 2000 ms\)$/);
    expect(await a.controller.waitAcked(1, 100)).toBe("fenced");
  }, 30_000);
});
