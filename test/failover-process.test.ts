// Automatic failover end to end (issue 15 item 4): real `strand serve --etcd` processes on
// 127.0.0.1 and a local 3-member etcd cluster. A leader and two replicas with --sync-replicas 1
// take a stream of writes; the leader is killed with SIGKILL with writes in flight that only it
// holds; an in-sync replica is promoted within the lease time and holds every write that was
// acknowledged; the old leader, started again, finds the higher epoch, takes no writes (421
// naming the new leader), re-seeds (its unacknowledged writes are another history) and rejoins
// as a replica; every store verifies clean. A write retried with its Idempotency-Key on the new
// leader takes effect once: the acknowledged one is replayed, the one only the dead leader had runs.
// A fourth lane writes to a tenant: its acknowledged writes survive the failover as well (tenants'
// writes wait for the in-sync replicas by the tenant feed's version, server/cluster/in-sync.ts).
// Tenants also go through a failover in a group without synchronous replicas.
//
// Needs etcd (Debian's etcd-server; .ci/run installs it): without it this test fails, saying so.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type EtcdCluster, startEtcdCluster } from "../scripts/campaign/etcd-cluster.js";
import { CLI, startStrand, tempDir, type StrandServer } from "./support/server.js";

const KEY = "failover-test-key";
const LEASE_TTL_S = 2;
const work = tempDir("strand-failover-");
const servers: StrandServer[] = [];
let cluster: EtcdCluster | null = null;

afterAll(async () => {
  for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) await s.kill();
  await cluster?.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

interface Status {
  role: string;
  seq: number;
  following: { leader: string; state: string } | null;
  cluster: { member: string; epoch: number; inSync: string[] };
}

async function start(
  name: string,
  endpoints: string[],
  group = "process-test",
  syncTimeoutMs = 30_000,
  syncReplicas = 1,
): Promise<StrandServer> {
  const server = await startStrand({
    dataDir: path.join(work, name),
    extraArgs: [
      "--log-level",
      "warn",
      "--replication-key",
      KEY,
      "--after-timeout",
      "60000",
      "--etcd",
      endpoints.join(","),
      "--group",
      group,
      "--sync-replicas",
      String(syncReplicas),
      "--lease-ttl",
      String(LEASE_TTL_S),
      // generous by default: on a loaded machine an fsync alone can take seconds
      "--sync-timeout",
      String(syncTimeoutMs),
    ],
  });
  servers.push(server);
  return server;
}

async function status(server: StrandServer): Promise<Status> {
  const res = await fetch(`${server.url}/replication/status`, { headers: { "x-replication-key": KEY } });
  expect(res.status).toBe(200);
  return (await res.json()) as Status;
}

async function until<T>(what: string, probe: () => Promise<T | null>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe().catch(() => null);
    if (found !== null) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function post(server: StrandServer, query: string, params: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.url}/${query}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(params),
  });
  return {
    status: res.status,
    body: (await res.json()) as Record<string, unknown>,
    commit: Number(res.headers.get("strand-commit")),
    replayed: res.headers.get("idempotent-replayed"),
  };
}

/** The handles of `acked` that `server` does not hold (after it has applied `after`; `tenant`: in that tenant, at its sequence). */
async function missing(server: StrandServer, acked: readonly string[], after: number, tenant?: string): Promise<string[]> {
  const absent: string[] = [];
  for (const handle of acked) {
    const query = tenant === undefined ? "UserByHandle" : `t/${tenant}/UserByHandle`;
    const reply = await post(server, query, { handle }, { "strand-after": String(after) });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    if (reply.body.user === null || reply.body.user === undefined) absent.push(handle);
  }
  return absent;
}

/** The test cluster's endpoints (started once); without an etcd binary the test fails saying why. */
async function etcd(): Promise<string[]> {
  cluster ??= await startEtcdCluster(3);
  return cluster.endpoints;
}

function verify(dataDir: string): { status: number | null; out: string } {
  const r = spawnSync(process.execPath, [CLI, "verify", dataDir], { encoding: "utf8", timeout: 60_000 });
  return { status: r.status, out: r.stdout + r.stderr };
}

describe("failover on etcd with real processes", () => {
  it("promotes an in-sync replica when the leader is killed, loses no acknowledged write, and fences the old leader into a replica", async () => {
    cluster = await startEtcdCluster(3);
    const endpoints = cluster.endpoints;

    const a = await start("a", endpoints);
    await until("a leads", async () => ((await status(a)).role === "leader" ? true : null));
    const b = await start("b", endpoints);
    const c = await start("c", endpoints);
    const ids = await Promise.all([b, c].map(async (s) => (await status(s)).cluster.member));
    await until("both replicas are in sync", async () => {
      const s = await status(a);
      return s.cluster.inSync.length === 2 ? s : null;
    });
    expect((await status(a)).cluster.inSync).toEqual([...ids].sort());

    // Three lanes of writes; a write counts once its 200 arrived (b and c hold it on disk).
    // A fourth lane writes to a tenant: its writes wait for the replicas as the project's do.
    const acked: string[] = [];
    const tenantAcked: string[] = [];
    let stop = false;
    const lane = async (n: number, tenant?: string): Promise<void> => {
      for (let i = 0; !stop; i++) {
        const handle = `u${n}-${i}`;
        try {
          const reply = await post(a, tenant === undefined ? "AddUser" : `t/${tenant}/AddUser`, {
            handle,
            name: handle,
            city: "Lisbon",
            age: 30,
          });
          if (reply.status === 200) (tenant === undefined ? acked : tenantAcked).push(handle);
        } catch {
          return; // the leader is gone
        }
      }
    };
    const lanes = [lane(0), lane(1), lane(2), lane(3, "acme")];
    await until("30 writes are acknowledged", async () => (acked.length >= 30 && tenantAcked.length >= 10 ? true : null), 60_000);
    stop = true;
    await Promise.all(lanes);
    // A write with an Idempotency-Key, acknowledged (both replicas hold it and its stored answer).
    const idem = { handle: "idem", name: "idem", city: "Lisbon", age: 30 };
    const keyed = await post(a, "AddUser", idem, { "idempotency-key": "retry-acked" });
    expect([keyed.status, keyed.replayed]).toEqual([200, null]);
    const tenantKeyed = await post(a, "t/acme/AddUser", idem, { "idempotency-key": "retry-acked" });
    expect([tenantKeyed.status, tenantKeyed.replayed]).toEqual([200, null]);
    // Writes the leader commits but no replica receives: both replicas paused (well within their
    // lease), a first write to answer the long polls they left open, then the ones that stay on
    // the leader alone, unacknowledged when it dies.
    for (const s of [b, c]) s.child.kill("SIGSTOP");
    const unacked = [post(a, "AddUser", { handle: "bait", name: "x", city: "Braga", age: 1 }).catch(() => null)];
    await new Promise((r) => setTimeout(r, 300));
    const lost = ["lost-0", "lost-1", "lost-2"];
    unacked.push(...lost.map((handle) => post(a, "AddUser", { handle, name: handle, city: "Braga", age: 1 }).catch(() => null)));
    // A keyed write the client never hears back about: it is retried on the new leader below.
    const unheard = { handle: "idem-unheard", name: "x", city: "Braga", age: 1 };
    unacked.push(post(a, "AddUser", unheard, { "idempotency-key": "retry-unheard" }).catch(() => null));
    await new Promise((r) => setTimeout(r, 500));
    await a.kill();
    const killedAt = Date.now();
    for (const s of [b, c]) s.child.kill("SIGCONT");
    expect((await Promise.all(unacked)).map((reply) => reply?.status)).toEqual([undefined, undefined, undefined, undefined, undefined]);

    const [leader, other] = await until(
      "a replica leads",
      async () => {
        const [sb, sc] = await Promise.all([status(b), status(c)]);
        if (sb.role === "leader") return [b, c] as const;
        if (sc.role === "leader") return [c, b] as const;
        return null;
      },
      (LEASE_TTL_S + 10) * 1000,
    );
    // The lease outlives the last renewal by at most its TTL; slack for a loaded machine.
    expect(Date.now() - killedAt).toBeLessThan(LEASE_TTL_S * 1000 + 3_000);
    const promoted = await status(leader);
    expect(promoted.cluster.epoch).toBe(2);

    // Retried on the new leader: the acknowledged one answers as before without a second effect;
    // the unheard one never reached a replica, so it takes effect now, once.
    const retried = await post(leader, "AddUser", idem, { "idempotency-key": "retry-acked" });
    expect([retried.status, retried.replayed, retried.body]).toEqual([200, "true", keyed.body]);
    const tenantRetried = await post(leader, "t/acme/AddUser", idem, { "idempotency-key": "retry-acked" });
    expect([tenantRetried.status, tenantRetried.replayed, tenantRetried.body]).toEqual([200, "true", tenantKeyed.body]);
    const firstTry = await post(leader, "AddUser", unheard, { "idempotency-key": "retry-unheard" });
    expect([firstTry.status, firstTry.replayed, (firstTry.body.user as { handle: string }).handle]).toEqual([200, null, "idem-unheard"]);
    const again = await post(leader, "AddUser", unheard, { "idempotency-key": "retry-unheard" });
    expect([again.status, again.replayed, again.body]).toEqual([200, "true", firstTry.body]);
    const written = await post(leader, "AddUser", { handle: "after-failover", name: "x", city: "Porto", age: 1 });
    expect(written.status, JSON.stringify(written.body)).toBe(200);
    const all = [...acked, "idem", "idem-unheard", "after-failover"];
    expect(await missing(leader, all, written.commit)).toEqual([]);
    expect(await missing(other, all, written.commit)).toEqual([]);
    // Every acknowledged tenant write too, on the new leader and on the other replica.
    const tenantWritten = await post(leader, "t/acme/AddUser", { handle: "t-after", name: "x", city: "Porto", age: 1 });
    expect(tenantWritten.status, JSON.stringify(tenantWritten.body)).toBe(200);
    const tenantAll = [...tenantAcked, "idem", "t-after"];
    expect(await missing(leader, tenantAll, tenantWritten.commit, "acme")).toEqual([]);
    expect(await missing(other, tenantAll, tenantWritten.commit, "acme")).toEqual([]);
    const follower = await status(other);
    expect([follower.role, follower.following?.leader, follower.cluster.epoch]).toEqual(["replica", leader.url, 2]);

    // The old leader comes back on its data: the group is at epoch 2, led by another.
    const back = await start("a", endpoints);
    const rejoined = await until("the old leader follows the new one", async () => {
      const s = await status(back);
      return s.role === "replica" && s.following?.state === "following" ? s : null;
    });
    expect([rejoined.following?.leader, rejoined.cluster.epoch]).toEqual([leader.url, 2]);
    const refused = await post(back, "AddUser", { handle: "to-the-old-leader", name: "x", city: "Faro", age: 1 });
    expect([refused.status, refused.body]).toEqual([
      421,
      { error: `this server is a read replica: send writes to the leader at ${leader.url}`, code: "NOT_LEADER", leader: leader.url },
    ]);
    expect(await missing(back, all, written.commit)).toEqual([]);
    expect(await missing(back, tenantAll, tenantWritten.commit, "acme")).toEqual([]);
    // Its own unacknowledged writes were another history than the group's: it re-seeded from the
    // new leader, and they are gone everywhere.
    expect(back.output()).toContain(`strand: re-seeded from ${leader.url}`);
    for (const s of [leader, other, back]) expect(await missing(s, lost, written.commit)).toEqual(lost);

    // Planned switchover: the leader stopped with SIGTERM gives its lease up; an in-sync replica
    // takes over without waiting for the lease to expire, holding every write.
    await until("the old leader is in sync again", async () => {
      const s = await status(leader);
      return s.cluster.inSync.length === 2 ? true : null;
    });
    expect(await leader.stop()).toBe(0);
    const next = await until(
      "a replica leads after the switchover",
      async () => {
        for (const s of [other, back]) if ((await status(s)).role === "leader") return s;
        return null;
      },
      LEASE_TTL_S * 1000 + 3_000,
    );
    expect((await status(next)).cluster.epoch).toBe(3);
    expect(await missing(next, all, written.commit)).toEqual([]);
    expect(await missing(next, tenantAll, tenantWritten.commit, "acme")).toEqual([]);
    for (const s of [other, back]) expect(await s.stop()).toBe(0);
    for (const dir of ["a", "b", "c", "a/tenants/acme", "b/tenants/acme", "c/tenants/acme"]) {
      const checked = verify(path.join(work, dir));
      expect(checked.status, `${dir}: ${checked.out}`).toBe(0);
    }
    // Each data directory keeps the highest epoch its node was in (failover.ts): the leader of
    // epoch 2 stopped before epoch 3; the other two were in 3 (or in 4, when the one stopped
    // first led 3 and the last took over before its own stop).
    const epochOf = (s: StrandServer): number => Number(fs.readFileSync(path.join(s.dataDir, "cluster-epoch"), "utf8"));
    expect(epochOf(leader)).toBe(2);
    for (const s of [other, back]) expect([3, 4]).toContain(epochOf(s));
  }, 240_000);

  it("answers 503 NOT_REPLICATED when no in-sync replica confirms a write in time, and acknowledges again once the replica is back", async () => {
    const endpoints = await etcd();
    const leader = await start("sync-leader", endpoints, "sync-test", 3_000);
    await until("it leads", async () => ((await status(leader)).role === "leader" ? true : null));
    const replica = await start("sync-replica", endpoints, "sync-test", 3_000);
    const id = (await status(replica)).cluster.member;
    await until("the replica is in sync", async () => ((await status(leader)).cluster.inSync.length === 1 ? true : null));
    const first = await post(leader, "AddUser", { handle: "one", name: "One", city: "Lisbon", age: 1 });
    expect(first.status).toBe(200);
    const tenantFirst = await post(leader, "t/acme/AddUser", { handle: "t-one", name: "One", city: "Lisbon", age: 1 });
    expect([tenantFirst.status, tenantFirst.commit]).toEqual([200, 1]);

    replica.child.kill("SIGSTOP");
    const held = await post(leader, "AddUser", { handle: "two", name: "Two", city: "Lisbon", age: 2 });
    expect([held.status, held.body]).toEqual([
      503,
      {
        error: `the write is committed on this leader at sequence ${held.commit}, but 1 in-sync replica did not confirm it within 3000 ms: it is not acknowledged, and is lost if this leader is lost before a replica copies it; read it back (Strand-After: ${held.commit}) before writing it again`,
        code: "NOT_REPLICATED",
      },
    ]);
    // The silent replica left the in-sync set (in etcd first): it cannot be promoted now.
    expect((await status(leader)).cluster.inSync).toEqual([]);
    // A tenant's write and a tenant's creation wait for the replicas the same way.
    const tenantHeld = await post(leader, "t/acme/AddUser", { handle: "t-two", name: "Two", city: "Lisbon", age: 2 });
    expect([tenantHeld.status, tenantHeld.body]).toEqual([
      503,
      {
        error: `the write to the tenant "acme" is committed on this leader at sequence 2, but 1 in-sync replica did not confirm it within 3000 ms: it is not acknowledged, and is lost if this leader is lost before a replica copies it; read it back (Strand-After: 2) before writing it again`,
        code: "NOT_REPLICATED",
      },
    ]);
    const creation = await fetch(`${leader.url}/tenants/beta`, { method: "POST" });
    expect([creation.status, await creation.json()]).toEqual([
      503,
      {
        error: `the creation of the tenant "beta" is committed on this leader, but 1 in-sync replica did not confirm it within 3000 ms: it is not acknowledged, and is lost if this leader is lost before a replica copies it; check it (GET /tenants/beta) before creating it again`,
        code: "NOT_REPLICATED",
      },
    ]);
    replica.child.kill("SIGCONT");
    await until("the replica is back in sync", async () => {
      const s = await status(leader);
      return s.cluster.inSync.length === 1 ? s : null;
    });
    expect((await status(leader)).cluster.inSync).toEqual([id]);
    const third = await post(leader, "AddUser", { handle: "three", name: "Three", city: "Lisbon", age: 3 });
    expect(third.status).toBe(200);
    expect(await missing(replica, ["one", "two", "three"], third.commit)).toEqual([]);
    const tenantThird = await post(leader, "t/acme/AddUser", { handle: "t-three", name: "Three", city: "Lisbon", age: 3 });
    expect([tenantThird.status, tenantThird.commit]).toEqual([200, 3]);
    expect(await missing(replica, ["t-one", "t-two", "t-three"], 3, "acme")).toEqual([]);
    const dropped = await fetch(`${leader.url}/tenants/beta`, { method: "DELETE" });
    expect([dropped.status, await dropped.json()]).toEqual([200, { name: "beta", dropped: true }]);
    // Acknowledged: the replica dropped it before the answer.
    expect(fs.existsSync(path.join(replica.dataDir, "tenants", "beta"))).toBe(false);
    for (const s of [leader, replica]) expect(await s.stop()).toBe(0);
  }, 120_000);

  it("carries the tenants through a failover: the promoted replica serves and writes them, the old leader follows them again", async () => {
    const endpoints = await etcd();
    const a = await start("tenant-a", endpoints, "tenant-test", 30_000, 0);
    await until("a leads", async () => ((await status(a)).role === "leader" ? true : null));
    const b = await start("tenant-b", endpoints, "tenant-test", 30_000, 0);
    await until("b follows a", async () => ((await status(b)).role === "replica" ? true : null));
    const users = async (server: StrandServer, after: number): Promise<string[]> => {
      const reply = await post(server, "t/acme/UsersInCity", { city: "Oslo" }, { "strand-after": String(after) });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      return (reply.body.users as { handle: string }[]).map((u) => u.handle).sort();
    };
    let last = 0;
    for (const handle of ["ann", "ben"]) {
      const reply = await post(a, "t/acme/AddUser", { handle, name: handle, city: "Oslo", age: 30 });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      last = reply.commit;
    }
    expect(last).toBe(2);
    expect(await users(b, last)).toEqual(["ann", "ben"]);

    await a.kill();
    await until("b leads", async () => ((await status(b)).role === "leader" ? true : null));
    const written = await post(b, "t/acme/AddUser", { handle: "cat", name: "cat", city: "Oslo", age: 30 });
    expect([written.status, written.commit]).toEqual([200, 3]);
    const created = await post(b, "t/zeta/AddUser", { handle: "zed", name: "zed", city: "Oslo", age: 30 });
    expect([created.status, created.commit]).toEqual([200, 1]);

    const back = await start("tenant-a", endpoints, "tenant-test", 30_000, 0);
    await until("a follows b", async () => ((await status(back)).role === "replica" ? true : null));
    expect(await users(back, 3)).toEqual(["ann", "ben", "cat"]);
    const zeta = await post(back, "t/zeta/CountUsers", {}, { "strand-after": "1" });
    expect([zeta.status, zeta.body]).toEqual([200, { total: 1 }]);
    for (const s of [b, back]) expect(await s.stop()).toBe(0);
    for (const dir of ["tenant-a", "tenant-b"])
      for (const tenant of ["acme", "zeta"])
        expect({ dir, tenant, ...verify(path.join(work, dir, "tenants", tenant)) }).toMatchObject({ dir, tenant, status: 0 });
  }, 120_000);
});
