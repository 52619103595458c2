// A failover group's node over HTTP, in process: its log answers carry the epoch it leads (0 when
// it does not); a replica's `member` on a log poll is recorded as its acknowledgement, only once
// its entry is known to be the leader's; a bad member id is 400; /replication/status names the
// group; a follower told of epoch 2 refuses the log of a node that answers for epoch 1; a node
// takes writes only as leader, and answers for each other role with its code.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GraphStore } from "../runtime/graph-store.js";
import { Follower } from "../runtime/replication/follower.js";
import type { StoreIdentity } from "../runtime/replication/protocol.js";
import { LeaseGate } from "../server/front-door/lease-gate.js";
import { RoleStore } from "../server/node/role-store.js";
import { createApp, startServer } from "../server/index.js";
import type { ClusterView, ReplicationNode } from "../server/replication/node.js";
import { queries, schema } from "./support/mcp-fixture.js";

const identity: StoreIdentity = { format: 2, schemaVersion: null, fingerprint: "0123456789abcdef", strand: "test" };
const dir = mkdtempSync(join(tmpdir(), "strand-cluster-http-"));
const KEY = { "x-replication-key": "rk" };
let store: GraphStore;
let replicaStore: GraphStore;

beforeAll(async () => {
  store = GraphStore.open({ path: join(dir, "leader"), schema });
  replicaStore = GraphStore.open({ path: join(dir, "replica"), schema });
  await store.write((db) => db.addNode("Post", { title: "one" }));
  await store.write((db) => db.addNode("Post", { title: "two" }));
});
afterAll(async () => {
  await store.close();
  await replicaStore.close();
  rmSync(dir, { recursive: true, force: true });
});

function node(epoch: number, acks: string[]): ReplicationNode {
  const cluster: ClusterView = {
    role: () => (epoch > 0 ? "leader" : "fenced"),
    leaderEpoch: () => epoch,
    replicaApplied: (member, seq, key) => acks.push(`${member}@${seq}${key === undefined ? "" : ` key ${key}`}`),
    logSent: (member, seq, key) => acks.push(`sent ${member}@${seq}${key === undefined ? "" : ` key ${key}`}`),
    tenantsApplied: (member, version, key) => acks.push(`tenants ${member}@${version}${key === undefined ? "" : ` key ${key}`}`),
    tenantsSent: (member, version, key) => acks.push(`tenants sent ${member}@${version}${key === undefined ? "" : ` key ${key}`}`),
    status: () => ({ group: "g", member: "lead", epoch, inSync: ["r1"], syncReplicas: 1 }),
  };
  return {
    log: () => store.log,
    backup: (out) => store.backup(out),
    identity,
    following: () => null,
    key: "rk",
    afterTimeoutMs: 50,
    cluster,
  };
}

describe("a group node's replication endpoints", () => {
  it("carry the epoch, record a replica's position, refuse a bad member id, and name the group in the status", async () => {
    const acks: string[] = [];
    const app = createApp({ store, queries, schema, replication: node(3, acks) });
    const polled = await app.request("/replication/log?after=1&member=r1", { headers: KEY });
    expect([polled.status, polled.headers.get("strand-epoch"), polled.headers.get("strand-log-first")]).toEqual([200, "3", "2"]);
    // Another history (its entry 1 is not this node's): no acknowledgement.
    const other = await app.request("/replication/log?after=1&time=5&member=r2", { headers: KEY });
    expect(other.status).toBe(410);
    expect(acks).toEqual(["r1@1", "sent r1@2"]);
    // A member's own key travels with its claim and with what it was sent (replica-acks.ts counts them).
    acks.length = 0;
    await app.request("/replication/log?after=1&member=r1", { headers: { ...KEY, "x-strand-member-key": "k1" } });
    expect(acks).toEqual(["r1@1 key k1", "sent r1@2 key k1"]);
    const bad = await app.request("/replication/log?after=1&member=a%2Fb", { headers: KEY });
    expect([bad.status, await bad.json()]).toEqual([
      400,
      { error: `member must be 1 to 64 letters, digits, '.', '_' or '-', got "a/b"`, code: "BAD_REQUEST" },
    ]);
    // The tenant feed: a poll from a version of this feed is the member's acknowledgement of it; a
    // poll of another feed (or none) claims nothing, and gets the whole list.
    const feedNode = node(3, acks);
    feedNode.tenants = {
      id: "feed-1",
      answer: (feed, since) => ({ feed: "feed-1", version: 4, full: feed !== "feed-1", tenants: [], dropped: [] }),
      version: () => 4,
      waitPast: async () => false,
    };
    const feedApp = createApp({ store, queries, schema, replication: feedNode });
    acks.length = 0;
    const full = await feedApp.request("/replication/tenants?since=0&member=r1", { headers: { ...KEY, "x-strand-member-key": "k1" } });
    expect([full.status, ((await full.json()) as { full: boolean }).full]).toEqual([200, true]);
    const polledFeed = await feedApp.request("/replication/tenants?since=4&feed=feed-1&member=r1", {
      headers: { ...KEY, "x-strand-member-key": "k1" },
    });
    expect(polledFeed.status).toBe(200);
    await feedApp.request("/replication/tenants?since=2&feed=feed-0&member=r1", { headers: KEY });
    expect(acks).toEqual(["tenants sent r1@4 key k1", "tenants r1@4 key k1", "tenants sent r1@4 key k1", "tenants sent r1@4"]);
    const badFeedMember = await feedApp.request("/replication/tenants?since=4&feed=feed-1&member=a%2Fb", { headers: KEY });
    expect([badFeedMember.status, await badFeedMember.json()]).toEqual([
      400,
      { error: `member must be 1 to 64 letters, digits, '.', '_' or '-', got "a/b"`, code: "BAD_REQUEST" },
    ]);
    const status = await app.request("/replication/status", { headers: KEY });
    expect(await status.json()).toEqual({
      role: "leader",
      seq: 2,
      oldest: 1,
      identity,
      following: null,
      cluster: { group: "g", member: "lead", epoch: 3, inSync: ["r1"], syncReplicas: 1 },
    });
    const fenced = createApp({ store, queries, schema, replication: node(0, acks) });
    expect((await fenced.request("/replication/log?after=2", { headers: KEY })).headers.get("strand-epoch")).toBe("0");
    // A leader's query answers name its epoch; a node that does not lead sends none.
    const read = (served: ReturnType<typeof createApp>) =>
      served.request("/UsersInCity", { method: "POST", headers: { "content-type": "application/json" }, body: `{"city":"Lisbon"}` });
    const led = await read(app);
    expect([led.status, led.headers.get("strand-epoch"), led.headers.get("strand-commit")]).toEqual([200, "3", "2"]);
    expect((await read(fenced)).headers.get("strand-epoch")).toBe(null);
  });

  it("a follower refuses the log of a node that answers for an epoch below the group's", async () => {
    const server = await startServer({ store, queries, schema, replication: node(1, []), port: 0 });
    const warnings: string[] = [];
    const follower = new Follower({
      leader: { url: `http://127.0.0.1:${server.port}`, key: "rk" },
      identity,
      target: () => replicaStore,
      reseed: () => Promise.reject(new Error("no re-seed here")),
      fatal: (message) => warnings.push(`fatal: ${message}`),
      warn: (message) => warnings.push(message),
      member: "r1",
      epoch: 2,
      waitMs: 100,
    });
    follower.start();
    const deadline = Date.now() + 10_000;
    while (warnings.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await follower.stop();
    await server.close();
    expect(warnings[0]).toBe(
      `following http://127.0.0.1:${server.port}: refusing log entries of epoch 1: the group's leader leads epoch 2 (a deposed leader answered); trying again in 100 ms`,
    );
    expect(replicaStore.log.committed).toBe(0);
  });

  it("takes writes only as leader; each other role refuses them before they run, with its code", async () => {
    const roles = new RoleStore(store, { replicas: 1, timeoutMs: 3000 });
    const app = createApp({ store: roles, queries, schema });
    const write = async () => {
      const res = await app.request("/AddPost", { method: "POST", headers: { "content-type": "application/json" }, body: '{"title":"x"}' });
      return [res.status, await res.json()];
    };
    const before = store.log.committed;
    expect(await write()).toEqual([
      503,
      {
        error:
          "this node takes no writes now: it is starting and has no role in its group yet; send writes to the group's leader (strand status)",
        code: "FENCED",
      },
    ]);
    roles.role = { kind: "replica", leader: "http://b:6969", epoch: 2 };
    expect(await write()).toEqual([
      421,
      { error: "this server is a read replica: send writes to the leader at http://b:6969", code: "NOT_LEADER", leader: "http://b:6969" },
    ]);
    roles.role = { kind: "fenced", reason: "http://b:6969 leads at epoch 2" };
    expect((await write())[1]).toEqual({
      error: "this node takes no writes now: http://b:6969 leads at epoch 2; send writes to the group's leader (strand status)",
      code: "FENCED",
    });
    expect(store.log.committed).toBe(before);
    const asked: number[] = [];
    roles.role = {
      kind: "leader",
      epoch: 3,
      acked: async (seq) => {
        asked.push(seq);
        return "acked";
      },
    };
    expect((await write())[0]).toBe(200);
    expect(asked).toEqual([before + 1]);
    roles.role = { kind: "leader", epoch: 3, acked: async () => "fenced" };
    expect(await write()).toEqual([
      503,
      {
        error: `this node lost the lead while the write (committed here at sequence ${before + 2}) waited for its replicas: it is not acknowledged and may be undone when this node rejoins; read it back from the new leader before writing it again`,
        code: "FENCED",
      },
    ]);
  });

  it("sends a leader's answer only within the lease: past it, the front door answers 503 FENCED instead", async () => {
    const gate = LeaseGate.open();
    const roles = new RoleStore(store, { replicas: 0, timeoutMs: 0 });
    roles.role = { kind: "leader", epoch: 3, acked: async () => "acked" };
    const server = await startServer({ store: roles, queries, schema, replication: node(3, []), leaseGate: gate, port: 0 });
    const write = async () => {
      const res = await fetch(`http://127.0.0.1:${server.port}/AddPost`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: '{"title":"gated"}',
      });
      return [res.status, res.headers.get("strand-epoch"), await res.json()];
    };
    try {
      // Open (outside a group, or before any controller spoke): answers leave.
      expect((await write()).slice(0, 2)).toEqual([200, "3"]);
      gate.leadUntil(Date.now() + 600_000);
      expect((await write()).slice(0, 2)).toEqual([200, "3"]);
      // The lease ran out between the engine's decision and the socket (a paused process).
      gate.leadUntil(Date.now() - 1);
      const before = store.log.committed;
      expect(await write()).toEqual([
        503,
        null,
        {
          error:
            "this node's lead of epoch 3 ran past its lease before the answer left it (the process was paused or starved): it is not acknowledged, and a write committed here may be undone; read it back from the group's leader before writing it again",
          code: "FENCED",
        },
      ]);
      // It was committed here (as the message says), only not acknowledged.
      expect(store.log.committed).toBe(before + 1);
    } finally {
      await server.close();
    }
  });
});
