// Tenants on a read replica, end to end with real processes (built dist/cli/strand.js) on
// 127.0.0.1: a keyed leader and a replica (`strand serve --follow`). A tenant created on the leader
// appears on the replica (seeded from its backup) and its later writes arrive by its own commit
// log; Strand-Commit and Strand-After count by the tenant's sequence; BM25 and vector answers are
// the leader's; the replica refuses tenant writes, creations and drops with 421; a drop on the
// leader drops the tenant here; the feed and a tenant's log need the replication key or an admin
// key of every tenant; a replica killed with SIGKILL catches up; a tenant whose history is not the
// leader's is re-seeded and the replaced file kept; every tenant folder verifies.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keysFileLine } from "../server/access/keys-file.js";
import { CLI, REPO_ROOT, SOCIAL_EXAMPLE, startStrand, tempDir, type StrandServer } from "./support/server.js";

const ADMIN = "tenants-replication-admin-key";
const RK = "tenants-replication-key";
const ACME_ADMIN = "acme-admin-key-0123456789";
const work = tempDir("strand-tenants-replication-");
const project = path.join(work, "project");
fs.mkdirSync(project);
for (const f of ["schema.hx", "queries.hx"]) fs.copyFileSync(path.join(SOCIAL_EXAMPLE, f), path.join(project, f));
fs.writeFileSync(
  path.join(project, "docs.hx"),
  `V::Doc { title: String }

QUERY AddDoc(v: [F64], title: String) =>
    doc <- AddV<Doc>(v, {title: title})
    RETURN doc

QUERY SimilarDocs(v: [F64], k: I64) =>
    docs <- SearchV<Doc>(v, k)
    RETURN docs

QUERY KeywordDocs(text: String, k: I64) =>
    docs <- SearchBM25<Doc>(text, k)
    RETURN docs
`,
);
const keysFile = path.join(work, "keys");
fs.writeFileSync(keysFile, `${keysFileLine("acme-admin", "admin", ACME_ADMIN, "acme")}\n`);
const leaderData = path.join(work, "leader");
const replicaData = path.join(work, "replica");

let leader: StrandServer;
let replica: StrandServer;

const startLeader = () =>
  startStrand({ project, dataDir: leaderData, extraArgs: ["--api-key", ADMIN, "--replication-key", RK, "--keys-file", keysFile] });
const startReplica = (follow = true) =>
  startStrand({
    project,
    dataDir: replicaData,
    extraArgs: ["--api-key", ADMIN, "--after-timeout", "3000", ...(follow ? ["--follow", leader.url, "--replication-key", RK] : [])],
  });

interface Reply {
  status: number;
  body: unknown;
  commit: string | null;
}

async function send(
  server: StrandServer,
  route: string,
  body: unknown,
  headers: Record<string, string> = {},
  method = "POST",
): Promise<Reply> {
  const res = await fetch(`${server.url}${route}`, {
    method,
    headers: { "content-type": "application/json", authorization: `Bearer ${ADMIN}`, ...headers },
    ...(method === "POST" ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: await res.json(), commit: res.headers.get("strand-commit") };
}

const addUser = (server: StrandServer, tenant: string, handle: string) =>
  send(server, `/t/${tenant}/AddUser`, { handle, name: handle, city: "Oslo", age: 30 });

async function handles(server: StrandServer, tenant: string, after?: string | null): Promise<string[]> {
  const reply = await send(server, `/t/${tenant}/UsersInCity`, { city: "Oslo" }, after ? { "strand-after": after } : {});
  expect(reply.status).toBe(200);
  return (reply.body as { users: { handle: string }[] }).users.map((u) => u.handle).sort();
}

/** Waits (on the replica's answers, no clock) until `ready` holds; the test's timeout bounds it. */
async function until(ready: () => Promise<boolean> | boolean): Promise<void> {
  while (!(await ready())) await new Promise((r) => setTimeout(r, 50));
}

const tenantsOf = async (server: StrandServer): Promise<string[]> =>
  ((await send(server, "/tenants", null, {}, "GET")).body as { tenants: { name: string }[] }).tenants.map((t) => t.name);

beforeAll(async () => {
  leader = await startLeader();
  replica = await startReplica();
}, 60_000);

afterAll(async () => {
  await replica?.stop();
  await leader?.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

describe("tenants on a read replica", () => {
  it("a tenant created on the leader appears on the replica, and its later writes come by its log", async () => {
    const first = await addUser(leader, "acme", "ada");
    expect([first.status, first.commit]).toEqual([200, "1"]);
    // Not on the replica yet: a read that must see the write waits for the tenant to arrive.
    expect(await handles(replica, "acme", first.commit)).toEqual(["ada"]);
    for (const handle of ["bo", "cy"]) await addUser(leader, "acme", handle);
    const v = (x: number) => [x, 1 - x, 0.5];
    for (const [i, title] of ["graph databases store edges", "vector search finds neighbours", "graph traversal walks edges"].entries())
      await send(leader, "/t/acme/AddDoc", { v: v(i / 3), title });
    const last = await addUser(leader, "acme", "dee");
    expect([last.status, last.commit]).toEqual([200, "7"]);
    expect(await handles(replica, "acme", last.commit)).toEqual(["ada", "bo", "cy", "dee"]);
    const onReplica = await send(replica, "/t/acme/CountUsers", {});
    expect([onReplica.status, onReplica.body, onReplica.commit]).toEqual([200, { total: 4 }, "7"]);
    for (const [route, body] of [
      ["/t/acme/KeywordDocs", { text: "graph edges", k: 3 }],
      ["/t/acme/SimilarDocs", { v: v(0.1), k: 2 }],
    ] as const) {
      const [a, b] = [await send(leader, route, body), await send(replica, route, body)];
      expect(b.body).toEqual(a.body);
      expect((a.body as { docs: unknown[] }).docs.length).toBeGreaterThan(1);
    }
    // The project's own graph is another store: its sequence is its own.
    expect((await send(replica, "/CountUsers", {})).body).toEqual({ total: 0 });
    expect(replica.output()).not.toContain("re-seeded");
  });

  it("refuses tenant writes, creations and drops on the replica with 421 naming the leader", async () => {
    const notLeader = {
      error: `this server is a read replica: send writes to the leader at ${leader.url}`,
      code: "NOT_LEADER",
      leader: leader.url,
    };
    expect(await addUser(replica, "acme", "eve").then((r) => [r.status, r.body])).toEqual([421, notLeader]);
    expect(await addUser(replica, "newco", "eve").then((r) => [r.status, r.body])).toEqual([421, notLeader]);
    expect(await send(replica, "/tenants/newco", {}).then((r) => [r.status, r.body])).toEqual([421, notLeader]);
    expect(await send(replica, "/tenants/acme", null, {}, "DELETE").then((r) => [r.status, r.body])).toEqual([421, notLeader]);
    expect(fs.existsSync(path.join(replicaData, "tenants", "newco"))).toBe(false);
    expect(await handles(replica, "acme")).toEqual(["ada", "bo", "cy", "dee"]);
  });

  it("serves the tenants' feed and logs to the replication key or an admin key of every tenant only", async () => {
    const get = async (route: string, headers: Record<string, string>) => {
      const res = await fetch(`${leader.url}${route}`, { headers });
      return [res.status, res.headers.get("content-type")?.includes("json") ? await res.json() : "frames"];
    };
    expect(await get("/replication/tenants", {})).toEqual([
      401,
      { error: "missing or invalid replication key (x-replication-key) or api key", code: "UNAUTHORIZED" },
    ]);
    const bound = {
      error: 'the key "acme-admin" is for the tenant "acme"; replication needs a key of every tenant',
      code: "TENANT_FORBIDDEN",
    };
    expect(await get("/replication/tenants", { authorization: `Bearer ${ACME_ADMIN}` })).toEqual([403, bound]);
    expect(await get("/t/acme/replication/log?after=0", { authorization: `Bearer ${ACME_ADMIN}` })).toEqual([403, bound]);
    expect(await get("/t/acme/replication/log?after=0", {})).toEqual([
      401,
      { error: "missing or invalid replication key (x-replication-key) or api key", code: "UNAUTHORIZED" },
    ]);
    expect(await get("/t/acme/replication/log?after=6", { "x-replication-key": RK })).toEqual([200, "frames"]);
    const feed = (await get("/replication/tenants?since=0", { "x-replication-key": RK }))[1] as { full: boolean; tenants: unknown[] };
    const acme = await send(leader, "/t/acme/CountUsers", {});
    expect([feed.full, feed.tenants]).toEqual([true, [{ name: "acme", at: { seq: 7, time: expect.any(Number) } }]]);
    expect(acme.commit).toBe("7");
  });

  it("drops on the replica a tenant dropped on the leader", async () => {
    const made = await addUser(leader, "brief", "x");
    expect(await handles(replica, "brief", made.commit)).toEqual(["x"]);
    expect(await tenantsOf(replica)).toEqual(["acme", "brief"]);
    expect((await send(leader, "/tenants/brief", null, {}, "DELETE")).body).toEqual({ name: "brief", dropped: true });
    await until(async () => !(await tenantsOf(replica)).includes("brief"));
    expect(fs.existsSync(path.join(replicaData, "tenants", "brief"))).toBe(false);
    expect((await send(replica, "/t/brief/CountUsers", {})).body).toEqual({
      error: 'no tenant "brief": a query that writes creates it (POST /t/brief/<Query>), or POST /tenants/brief',
      code: "UNKNOWN_TENANT",
    });
  });

  it("a replica killed with SIGKILL catches up; a tenant with another history is re-seeded, the old file kept", async () => {
    await replica.kill();
    await addUser(leader, "acme", "fay");
    const beta = await addUser(leader, "beta", "gus");
    replica = await startReplica();
    expect(await handles(replica, "beta", beta.commit)).toEqual(["gus"]);
    expect(await handles(replica, "acme", "8")).toEqual(["ada", "bo", "cy", "dee", "fay"]);
    expect(replica.output()).not.toContain("re-seeded");

    // The replica's data served alone takes a write the leader never had: acme's history forks.
    await replica.stop();
    const alone = await startReplica(false);
    expect((await addUser(alone, "acme", "forked")).commit).toBe("9");
    expect((await addUser(alone, "solo", "only-here")).status).toBe(200);
    await alone.stop();
    const ahead = await addUser(leader, "acme", "hal");
    expect(ahead.commit).toBe("9");
    replica = await startReplica();
    await until(() => replica.output().includes('re-seeded the tenant "acme"'));
    expect(await handles(replica, "acme", ahead.commit)).toEqual(["ada", "bo", "cy", "dee", "fay", "hal"]);
    expect(fs.readdirSync(path.join(replicaData, "tenants", "acme")).filter((f) => f.startsWith("data.mdb.replaced-"))).toEqual([
      "data.mdb.replaced-seq-9",
    ]);
    expect(await handles(replica, "beta")).toEqual(["gus"]);
    // A tenant the leader never had is not served, and is kept aside, not deleted.
    await until(() => replica.output().includes('the tenant "solo" is not on the leader'));
    expect(await tenantsOf(replica)).toEqual(["acme", "beta"]);
    const aside = fs.readdirSync(path.join(replicaData, "tenants-set-aside"));
    expect(aside.map((name) => name.replace(/-\d+$/, ""))).toEqual(["solo"]);
    expect(fs.existsSync(path.join(replicaData, "tenants-set-aside", aside[0] as string, "data.mdb"))).toBe(true);
  });

  it("re-seeds a tenant dropped and created again while the replica was away, answering the read that waits for it", async () => {
    // gamma's copy on the replica is at 4 when it goes away; the gamma created again must not
    // hand out a bookmark that copy already satisfies.
    let gamma: Reply | null = null;
    for (const handle of ["g1", "g2", "g3", "g4"]) gamma = await addUser(leader, "gamma", handle);
    expect(await handles(replica, "gamma", gamma?.commit)).toEqual(["g1", "g2", "g3", "g4"]);
    await replica.stop();
    expect((await send(leader, "/tenants/gamma", null, {}, "DELETE")).body).toEqual({ name: "gamma", dropped: true });
    const anew = await addUser(leader, "gamma", "new");
    expect([anew.status, anew.commit]).toEqual([200, "6"]);
    expect((await send(leader, "/tenants/beta", null, {}, "DELETE")).body).toEqual({ name: "beta", dropped: true });
    let last: Reply | null = null;
    for (const handle of ["x1", "x2", "x3"]) last = await addUser(leader, "beta", handle);
    // The new beta's log continues after the dropped one's (1): its first entry is 2, its writes 3..5,
    // so no bookmark of it is a sequence the replica's old copy already holds.
    expect(last?.commit).toBe("5");
    replica = await startReplica();
    // Sent at once: it waits for the tenant's new history without holding the tenant, so the re-seed goes on.
    expect(await handles(replica, "beta", "5")).toEqual(["x1", "x2", "x3"]);
    expect(await handles(replica, "gamma", anew.commit)).toEqual(["new"]);
    // A tenant that does not arrive in time: the replica cannot tell it will never exist.
    expect(await send(replica, "/t/nowhere/CountUsers", {}, { "strand-after": "1" }).then((r) => [r.status, r.body])).toEqual([
      503,
      {
        error: 'this replica holds no tenant "nowhere" yet, so not its sequence 1 (strand-after); retry, or read from the leader',
        code: "REPLICA_BEHIND",
      },
    ]);
  });

  it("opens no tenant after a restart in which nothing changed: positions compare equal", async () => {
    await replica.stop();
    replica = await startReplica();
    // The feed is applied in order: once a later tenant has arrived, the full listing was compared.
    const ping = await addUser(leader, "ping", "p");
    expect(await handles(replica, "ping", ping.commit)).toEqual(["p"]);
    const listed = (await send(replica, "/tenants", null, {}, "GET")).body as { tenants: { name: string; open: boolean }[] };
    expect(listed.tenants).toEqual([
      { name: "acme", open: false },
      { name: "beta", open: false },
      { name: "gamma", open: false },
      { name: "ping", open: true },
    ]);
  });

  it("leaves every tenant folder verifying clean on both nodes", async () => {
    await replica.stop();
    await leader.stop();
    for (const dir of [leaderData, replicaData])
      for (const tenant of ["acme", "beta"]) {
        const verify = spawnSync(process.execPath, [CLI, "verify", path.join(dir, "tenants", tenant)], {
          cwd: REPO_ROOT,
          encoding: "utf8",
        });
        expect({ dir, tenant, status: verify.status, out: verify.status === 0 ? "" : verify.stdout + verify.stderr }).toEqual({
          dir,
          tenant,
          status: 0,
          out: "",
        });
      }
    leader = await startLeader();
    replica = await startReplica();
  });
});
