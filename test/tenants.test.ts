// Many graphs in one server (server/tenants/): a real `strand serve` with keys, where `/t/<tenant>/`
// (or `Strand-Tenant`) names the graph. Tenants share the project's queries and nothing else: the
// same unique handle in two, BM25 scores that another tenant's documents do not move, idempotency
// keys per tenant; a tenant is created by its first write and managed at /tenants (list, stats,
// create, drop: its folder gone); keys bound to a tenant are refused elsewhere; bad names and
// unknown tenants are clear 4xx; the data survives kill -9 and verifies. The registry's idle close
// and drop, and the requests-per-second limit, are driven in process with a clock the test moves;
// the record limit and the per-tenant metrics on a real server.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keysFileLine } from "../server/access/keys-file.js";
import { TenantRegistry } from "../server/tenants/tenant-registry.js";
import { samples } from "./support/metrics-text.js";
import { CLI, REPO_ROOT, type StrandServer, startStrand, tempDir } from "./support/server.js";

const ADMIN = "tenant-admin-key-0123";
const ACME = "acme-app-key-01234567";
const READER = "reader-key-0123456789";

describe("tenants on a running server", () => {
  let dir: string;
  let dataDir: string;
  let server: StrandServer;

  const send = async (
    path: string,
    body: unknown,
    key: string | null = ADMIN,
    headers: Record<string, string> = {},
    method = "POST",
  ): Promise<{ status: number; body: unknown }> => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { "content-type": "application/json", ...(key === null ? {} : { authorization: `Bearer ${key}` }), ...headers },
      ...(method === "GET" || method === "DELETE" ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: await res.json() };
  };
  const handles = async (tenantPath: string, city: string): Promise<string[]> => {
    const reply = await send(`${tenantPath}/UsersInCity`, { city });
    expect(reply.status).toBe(200);
    return (reply.body as { users: { handle: string }[] }).users.map((u) => u.handle).sort();
  };
  const addUser = (tenantPath: string, handle: string, key: string | null = ADMIN, headers: Record<string, string> = {}) =>
    send(`${tenantPath}/AddUser`, { handle, name: handle, city: "Oslo", age: 30 }, key, headers);

  beforeAll(async () => {
    dir = tempDir("strand-tenants-");
    dataDir = join(dir, "data");
    const keys = join(dir, "keys");
    writeFileSync(keys, `${keysFileLine("acme-app", "write", ACME, "acme")}\n${keysFileLine("reader", "read", READER)}\n`);
    server = await startStrand({ dataDir, extraArgs: ["--api-key", ADMIN, "--keys-file", keys] });
  });

  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("keeps each tenant's records apart, the project's own graph too", async () => {
    expect((await addUser("/t/acme", "ada")).status).toBe(200);
    expect((await addUser("/t/globex", "ada")).status).toBe(200); // the same unique handle: another graph
    expect((await addUser("/t/globex", "bob")).status).toBe(200);
    expect((await addUser("", "cyd")).status).toBe(200);
    expect(await handles("/t/acme", "Oslo")).toEqual(["ada"]);
    expect(await handles("/t/globex", "Oslo")).toEqual(["ada", "bob"]);
    expect(await handles("", "Oslo")).toEqual(["cyd"]);
    expect(await handles("/t/default", "Oslo")).toEqual(["cyd"]);
    const byHeader = await send("/UsersInCity", { city: "Oslo" }, ADMIN, { "strand-tenant": "globex" });
    expect((byHeader.body as { users: unknown[] }).users.length).toBe(2);
    expect((await addUser("/t/acme", "ada")).body).toMatchObject({ code: "UNIQUE_VIOLATION" });
    expect(await send("/t/acme/query", { query: "N<User>::COUNT" })).toEqual({ status: 200, body: { result: 1 } });
  });

  it("scores BM25 on each tenant's own documents: another tenant's do not move them", async () => {
    const write = (tenant: string, title: string) =>
      send(`/t/${tenant}/query`, { query: "p <- AddN<Post>({title: t, body: b})\nRETURN NONE", params: { t: title, b: title } });
    // An ad-hoc query cannot tell it writes before it is compiled: it creates no tenant.
    expect((await write("initech", "x")).body).toMatchObject({ code: "UNKNOWN_TENANT" });
    expect((await send("/tenants/initech", null)).status).toBe(201);
    for (const t of ["looms and engines", "difference engines", "weaving"]) {
      expect((await write("acme", t)).status).toBe(200);
      expect((await write("initech", t)).status).toBe(200);
    }
    const search = { query: "SearchBM25<Post>(q, 10)::{title, score}", params: { q: "engines" } };
    const before = await send("/t/acme/query", search);
    expect(before.status).toBe(200);
    expect((await send("/t/initech/query", search)).body).toEqual(before.body);
    for (let i = 0; i < 20; i++) expect((await write("globex", `engines engines ${i}`)).status).toBe(200);
    expect((await send("/t/acme/query", search)).body).toEqual(before.body);
  });

  it("runs an idempotent write once per tenant", async () => {
    const headers = { "idempotency-key": "same-key-in-two-tenants" };
    const first = await addUser("/t/acme", "idem", ADMIN, headers);
    const again = await addUser("/t/acme", "idem", ADMIN, headers);
    expect(again).toEqual(first);
    expect((await addUser("/t/globex", "idem", ADMIN, headers)).status).toBe(200);
    expect(await handles("/t/acme", "Oslo")).toEqual(["ada", "idem"]);
    expect(await handles("/t/globex", "Oslo")).toEqual(["ada", "bob", "idem"]);
  });

  it("answers bad names, unknown tenants and keys for another tenant with clear errors, creating nothing", async () => {
    expect(await send("/t/Bad.Name/UsersInCity", { city: "Oslo" })).toEqual({
      status: 400,
      body: { error: 'invalid tenant name "Bad.Name": 1 to 63 of a-z 0-9 - _, starting with a letter or digit', code: "INVALID_TENANT" },
    });
    expect(await send("/t/nobody/UsersInCity", { city: "Oslo" })).toEqual({
      status: 404,
      body: {
        error: 'no tenant "nobody": a query that writes creates it (POST /t/nobody/<Query>), or POST /tenants/nobody',
        code: "UNKNOWN_TENANT",
      },
    });
    expect(await addUser("/t/acme", "by-app", ACME)).toMatchObject({ status: 200 });
    expect(await addUser("/t/globex", "by-app", ACME)).toEqual({
      status: 403,
      body: { error: 'the key "acme-app" is for the tenant "acme", not "globex"', code: "TENANT_FORBIDDEN" },
    });
    expect(await addUser("", "by-app", ACME)).toEqual({
      status: 403,
      body: { error: 'the key "acme-app" is for the tenant "acme", not "default"', code: "TENANT_FORBIDDEN" },
    });
    expect(await addUser("/t/newco", "x", ACME)).toEqual({
      status: 403,
      body: { error: 'the key "acme-app" is for the tenant "acme", not "newco"', code: "TENANT_FORBIDDEN" },
    });
    expect(await addUser("/t/newco", "x", READER)).toEqual({
      status: 403,
      body: {
        error: 'the key "reader" has the role read; creating the tenant "newco" needs a key with the role write or admin',
        code: "ROLE_FORBIDDEN",
      },
    });
    expect((await addUser("/t/newco", "x", null)).status).toBe(401);
    // Whether a tenant exists is told to no one without a key for it.
    expect(await send("/t/nobody/UsersInCity", { city: "Oslo" }, null)).toEqual({
      status: 401,
      body: { error: "missing x-api-key header", code: "UNAUTHORIZED" },
    });
    expect(await send("/t/nobody/UsersInCity", { city: "Oslo" }, "wrong-key")).toEqual({
      status: 401,
      body: { error: "invalid api key", code: "UNAUTHORIZED" },
    });
    expect(await send("/t/nobody/UsersInCity", { city: "Oslo" }, ACME)).toEqual({
      status: 403,
      body: { error: 'the key "acme-app" is for the tenant "acme", not "nobody"', code: "TENANT_FORBIDDEN" },
    });
    expect(await send("/t/acme/UsersInCity", { city: "Oslo" }, ADMIN, { "strand-tenant": "globex" })).toEqual({
      status: 400,
      body: { error: 'the path names the tenant "acme" and strand-tenant "globex"; name one', code: "INVALID_TENANT" },
    });
    expect(existsSync(join(dataDir, "tenants", "newco"))).toBe(false);
    // Inside a tenant, a path no route takes is named as sent.
    expect(await send("/t/acme/no/such", {}, ADMIN)).toEqual({
      status: 404,
      body: { error: "no route for POST /t/acme/no/such", code: "NOT_FOUND" },
    });
    expect(await send("/tenants", null, ACME, {}, "GET")).toEqual({
      status: 403,
      body: { error: 'the key "acme-app" is for the tenant "acme", not "default"', code: "TENANT_FORBIDDEN" },
    });
  });

  it("backs up one tenant over HTTP, and the backup restored into a new tenant's folder serves the same records", async () => {
    const res = await fetch(`${server.url}/t/acme/backup`, { headers: { authorization: `Bearer ${ADMIN}` } });
    expect(res.status).toBe(200);
    const backup = join(dir, "acme-backup");
    mkdirSync(backup);
    writeFileSync(join(backup, "data.mdb"), Buffer.from(await res.arrayBuffer()));
    writeFileSync(join(backup, "manifest.json"), res.headers.get("x-strand-backup-manifest")!);
    const restored = spawnSync(process.execPath, [CLI, "restore", backup, "--data", join(dataDir, "tenants", "acme-copy")], {
      cwd: REPO_ROOT,
      encoding: "utf8",
    });
    expect(restored.status).toBe(0);
    expect(await handles("/t/acme-copy", "Oslo")).toEqual(await handles("/t/acme", "Oslo"));
    expect((await send("/tenants/acme-copy", null, ADMIN, {}, "DELETE")).status).toBe(200);
  });

  it("lists, creates, describes and drops tenants at /tenants, and strand tenant does the same", async () => {
    expect(await send("/tenants", null, ADMIN, {}, "GET")).toEqual({
      status: 200,
      body: {
        tenants: [
          { name: "acme", open: true },
          { name: "globex", open: true },
          { name: "initech", open: true },
        ],
      },
    });
    expect(await send("/tenants/newco", null, ADMIN)).toEqual({ status: 201, body: { name: "newco", created: true } });
    expect(await send("/tenants/newco", null, ADMIN)).toEqual({ status: 200, body: { name: "newco", created: false } });
    const stats = await send("/tenants/acme", null, ADMIN, {}, "GET");
    expect(stats).toMatchObject({ status: 200, body: { name: "acme", open: true, records: { User: 3, Post: 3, Follows: 0, Wrote: 0 } } });
    expect(await send("/tenants/globex", null, ADMIN, {}, "DELETE")).toEqual({ status: 200, body: { name: "globex", dropped: true } });
    expect(existsSync(join(dataDir, "tenants", "globex"))).toBe(false);
    expect((await send("/t/globex/UsersInCity", { city: "Oslo" })).body).toMatchObject({ code: "UNKNOWN_TENANT" });
    expect(await send("/tenants/globex", null, ADMIN, {}, "DELETE")).toEqual({
      status: 404,
      body: { error: 'no tenant "globex"', code: "UNKNOWN_TENANT" },
    });
    expect(await send("/tenants/default", null, ADMIN, {}, "DELETE")).toMatchObject({ status: 400, body: { code: "INVALID_TENANT" } });
    const cli = (args: string[]) =>
      spawnSync(process.execPath, [CLI, "tenant", ...args, "--key", ADMIN], { cwd: REPO_ROOT, encoding: "utf8" });
    expect(cli(["list", server.url]).stdout).toBe("acme\topen\ninitech\topen\nnewco\topen\n");
    expect(cli(["create", server.url, "hooli"]).stdout).toBe("created hooli\n");
    expect(cli(["drop", server.url, "hooli"]).stdout).toBe("dropped hooli and all its data\n");
    expect(cli(["drop", server.url, "hooli"])).toMatchObject({ status: 1, stderr: 'strand: 404 UNKNOWN_TENANT: no tenant "hooli"\n' });
  });

  it("keeps every tenant's acknowledged writes across kill -9, replays their idempotent answers, and each verifies", async () => {
    const headers = { "idempotency-key": "before-the-kill" };
    const first = await addUser("/t/acme", "kept", ADMIN, headers);
    expect(first.status).toBe(200);
    await server.kill();
    server = await startStrand({ dataDir, extraArgs: ["--api-key", ADMIN] });
    // The retry of a write acknowledged before the kill gets the same answer and writes nothing.
    const retried = await fetch(`${server.url}/t/acme/AddUser`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${ADMIN}`, ...headers },
      body: JSON.stringify({ handle: "kept", name: "kept", city: "Oslo", age: 30 }),
    });
    expect({ status: retried.status, replayed: retried.headers.get("idempotent-replayed"), body: await retried.json() }).toEqual({
      status: 200,
      replayed: "true",
      body: first.body,
    });
    expect(await handles("/t/acme", "Oslo")).toEqual(["ada", "by-app", "idem", "kept"]);
    expect(await handles("", "Oslo")).toEqual(["cyd"]);
    await server.stop();
    for (const tenant of ["acme", "initech", "newco"]) {
      const verify = spawnSync(process.execPath, [CLI, "verify", join(dataDir, "tenants", tenant)], { cwd: REPO_ROOT, encoding: "utf8" });
      expect({ tenant, status: verify.status }).toEqual({ tenant, status: 0 });
    }
    server = await startStrand({ dataDir, extraArgs: ["--api-key", ADMIN] });
  });
});

describe("the tenant registry", () => {
  class FakeStore {
    closed = false;
    async close(): Promise<void> {
      this.closed = true;
    }
    position(): { seq: number; time: number | null } {
      return { seq: 0, time: null };
    }
  }

  it("closes a tenant once idle, opens it again on demand, and drops one only after its requests end", async () => {
    const root = tempDir("strand-registry-");
    let now = 0;
    const opened: FakeStore[] = [];
    const registry = new TenantRegistry<FakeStore>({
      root,
      open: (dir) => {
        writeFileSync(join(dir, "data.mdb"), "");
        const store = new FakeStore();
        opened.push(store);
        return store;
      },
      appFor: () => ({ fetch: () => new Response("{}") }),
      idleMs: 1000,
      maxOpen: 2,
      now: () => now,
    });
    try {
      expect(await registry.acquire("a", false)).toBeNull();
      const a = (await registry.acquire("a", true))!;
      registry.release(a);
      now = 999;
      await registry.sweep();
      expect(registry.isOpen("a")).toBe(true);
      now = 1000;
      await registry.sweep();
      expect({ open: registry.isOpen("a"), closed: opened[0]!.closed }).toEqual({ open: false, closed: true });
      const again = (await registry.acquire("a", false))!;
      expect(opened.length).toBe(2);
      // Past maxOpen the least recently used idle tenant closes; one in flight stays.
      registry.release(again);
      now = 2000;
      const b = (await registry.acquire("b", true))!;
      const c = (await registry.acquire("c", true))!;
      await Promise.resolve();
      expect({ a: registry.isOpen("a"), b: registry.isOpen("b"), c: registry.isOpen("c") }).toEqual({ a: false, b: true, c: true });
      let dropped = false;
      const drop = registry.drop("b").then((done) => {
        dropped = done;
      });
      await Promise.resolve();
      expect({ dropped, gone: !existsSync(join(root, "b")) }).toEqual({ dropped: false, gone: false });
      expect(await registry.acquire("b", false)).toBeNull();
      registry.release(b);
      await drop;
      expect({ dropped, gone: !existsSync(join(root, "b")), names: registry.names() }).toEqual({
        dropped: true,
        gone: true,
        names: ["a", "c"],
      });
      registry.release(c);
    } finally {
      await registry.closeAll();
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("the tenant registry's sweep", () => {
  it("closes idle tenants one per turn of the event loop, so requests run between the closes", async () => {
    const root = tempDir("strand-registry-sweep-");
    const order: string[] = [];
    let now = 0;
    const registry = new TenantRegistry({
      root,
      open: (dir) => {
        writeFileSync(join(dir, "data.mdb"), "");
        const name = dir.slice(dir.lastIndexOf("/") + 1);
        return {
          close: async () => {
            order.push(`close ${name}`);
          },
          position: () => ({ seq: 0, time: null }),
        };
      },
      appFor: () => ({ fetch: () => new Response("{}") }),
      idleMs: 1000,
      now: () => now,
    });
    try {
      for (const name of ["a", "b", "c"]) registry.release((await registry.acquire(name, true))!);
      now = 1000;
      // A request arriving meanwhile runs at its turn, between two closes; "c", taken by it
      // before its own turn came, stays open.
      setImmediate(() => {
        order.push("a request");
        void registry.acquire("c", false);
      });
      await registry.sweep();
      expect({ order: [...order], open: ["a", "b", "c"].filter((n) => registry.isOpen(n)) }).toEqual({
        order: ["close a", "a request", "close b"],
        open: ["c"],
      });
    } finally {
      await registry.closeAll();
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("tenant limits and metrics", () => {
  let dataDir: string;
  let server: StrandServer;

  beforeAll(async () => {
    dataDir = tempDir("strand-tenant-limits-");
    server = await startStrand({ dataDir, extraArgs: ["--tenant-max-records", "3", "--api-key", ADMIN] });
  });

  afterAll(async () => {
    await server?.stop();
  });

  const add = async (prefix: string, handle: string): Promise<{ status: number; body: unknown }> => {
    const res = await fetch(`${server.url}${prefix}/AddUser`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${ADMIN}` },
      body: JSON.stringify({ handle, name: handle, city: "Oslo", age: 30 }),
    });
    return { status: res.status, body: await res.json() };
  };

  it("refuses a tenant's writes past its record limit, naming it; its reads, other tenants and the default go on", async () => {
    for (const h of ["a", "b", "c"]) expect((await add("/t/small", h)).status).toBe(200);
    expect(await add("/t/small", "d")).toEqual({
      status: 507,
      body: {
        error:
          'the tenant "small" holds 3 records and this write would add 1, past its limit of 3 (tenant_max_records); nothing was written (updates and drops still pass)',
        code: "TENANT_FULL",
      },
    });
    const query = async (prefix: string, text: string, params: object = {}): Promise<unknown> => {
      const res = await fetch(`${server.url}${prefix}/query`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${ADMIN}` },
        body: JSON.stringify({ query: text, params }),
      });
      return res.json();
    };
    expect(await query("/t/small", "N<User>::COUNT")).toEqual({ result: 3 });
    // A full tenant can shrink: a drop passes, and then there is room again.
    expect(await query("/t/small", "DROP N<User>({handle: h})\nRETURN NONE", { h: "a" })).toBeNull();
    expect((await add("/t/small", "d")).status).toBe(200);
    expect((await add("/t/other", "a")).status).toBe(200);
    for (const h of ["a", "b", "c", "d", "e"]) expect((await add("", h)).status).toBe(200);
  });

  it("holds the record limit under concurrent writes: exactly the limit's worth pass", async () => {
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => add("/t/race", `r${i}`)));
    const counts = replies.reduce<Record<number, number>>((acc, r) => ({ ...acc, [r.status]: (acc[r.status] ?? 0) + 1 }), {});
    expect(counts).toEqual({ 200: 3, 507: 17 });
  });

  it("leaves no tenant behind a creating request that failed", async () => {
    const res = await fetch(`${server.url}/t/never/AddUser`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${ADMIN}` },
      body: JSON.stringify({ handle: "x" }),
    });
    expect(res.status).toBe(400);
    expect(existsSync(join(dataDir, "tenants", "never"))).toBe(false);
    expect((await (await fetch(`${server.url}/tenants`, { headers: { authorization: `Bearer ${ADMIN}` } })).json()) as unknown).toEqual({
      tenants: [
        { name: "other", open: true },
        { name: "race", open: true },
        { name: "small", open: true },
      ],
    });
  });

  it("counts requests per tenant in /metrics, and each query as one route whichever tenant calls it", async () => {
    const text = await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${ADMIN}` } })).text();
    expect(text).toContain('strand_tenant_requests{tenant="small"} 7\n');
    expect(text).toContain('strand_tenant_requests{tenant="other"} 1\n');
    // The project's own graph counts as "default": 5 writes, the tenant list, and this scrape.
    expect(text).toContain('strand_tenant_requests{tenant="default"} 7\n');
    expect(text).toContain("strand_tenants_open 3\n");
    expect(text).toContain('strand_http_requests_total{route="AddUser",status="507",code="TENANT_FULL"} 18\n');
  });
});

describe("a tenant's requests per second", () => {
  it("answers 429 TENANT_RATE_LIMITED past the limit, refilled as time passes", async () => {
    const { TenantDispatch } = await import("../server/tenants/tenant-dispatch.js");
    const { fixedKeyRing } = await import("../server/access/key-ring.js");
    const root = tempDir("strand-tenant-rps-");
    let now = 0;
    const registry = new TenantRegistry<{ close(): Promise<void>; position(): { seq: number; time: number | null } }>({
      root,
      open: (dir) => {
        writeFileSync(join(dir, "data.mdb"), "");
        return { close: async () => {}, position: () => ({ seq: 0, time: null }) };
      },
      appFor: () => ({ fetch: () => new Response("{}") }),
    });
    const dispatch = new TenantDispatch({
      registry,
      defaultApp: { fetch: () => new Response("{}") },
      keys: fixedKeyRing({}),
      writes: () => true,
      maxRequestsPerSecond: 2,
      now: () => now,
    });
    const env = { forwarded: { headers: {}, remoteAddress: "127.0.0.1", body: new Uint8Array(0), refusal: null } };
    const status = async (): Promise<number> =>
      (await dispatch.fetch(new Request("http://h/t/acme/AddUser", { method: "POST" }), env)).status;
    try {
      expect([await status(), await status(), await status()]).toEqual([200, 200, 429]);
      const refused = await dispatch.fetch(new Request("http://h/t/acme/AddUser", { method: "POST" }), env);
      expect({ status: refused.status, retry: refused.headers.get("retry-after"), body: await refused.json() }).toEqual({
        status: 429,
        retry: "1",
        body: {
          error: 'the tenant "acme" is past its limit of 2 requests per second (tenant_max_rps); retry shortly',
          code: "TENANT_RATE_LIMITED",
        },
      });
      now = 500; // half a second: one request's worth
      expect([await status(), await status()]).toEqual([200, 429]);
      // The project's own graph has no tenant limit.
      const own = await Promise.all([1, 2, 3, 4].map(() => dispatch.fetch(new Request("http://h/AddUser", { method: "POST" }), env)));
      expect(own.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    } finally {
      await registry.closeAll();
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("requests per tenant in /metrics", () => {
  it("names the 20 busiest tenants and sums the rest as (other)", async () => {
    const { ServerMetrics } = await import("../server/observe/metrics.js");
    const metrics = new ServerMetrics();
    const requests = new Map(Array.from({ length: 25 }, (_, i) => [`t${i}`, 100 - i] as const));
    metrics.trackTenants(
      () => requests,
      () => 3,
      () => 2,
      () => ({ heapMs: 120, allocatorMs: 5 }),
    );
    const lines = (await metrics.render()).split("\n").filter((l) => l.startsWith("strand_tenant"));
    expect(lines).toEqual([
      ...Array.from({ length: 20 }, (_, i) => `strand_tenant_requests{tenant="t${i}"} ${100 - i}`),
      `strand_tenant_requests{tenant="(other)"} ${76 + 77 + 78 + 79 + 80}`,
      "strand_tenants_open 3",
      "strand_tenant_memory_releases_total 2",
      "strand_tenant_memory_release_last_seconds 0.125",
    ]);
  });
});

describe("a memory per tenant", () => {
  let dataDir: string;
  let server: StrandServer;

  beforeAll(async () => {
    dataDir = tempDir("strand-tenant-memory-");
    server = await startStrand({ dataDir, extraArgs: ["--memory", "true"] });
  });

  afterAll(async () => {
    await server?.stop();
  });

  const rpc = async (prefix: string, name: string, args: unknown): Promise<unknown> => {
    const res = await fetch(`${server.url}${prefix}/memory/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { result: { structuredContent?: unknown } }).result.structuredContent;
  };
  const entity = (name: string) => ({ name, entityType: "person", observations: [`${name} remembers`] });

  it("keeps each tenant's memories apart at /t/<tenant>/memory/mcp, created by the first call, gone with a drop", async () => {
    await rpc("/t/ann", "create_entities", { entities: [entity("Ada")] });
    await rpc("/t/bob", "create_entities", { entities: [entity("Bea")] });
    await rpc("", "create_entities", { entities: [entity("Cy")] });
    expect(await rpc("/t/ann", "read_graph", {})).toEqual({ entities: [entity("Ada")], relations: [] });
    expect(await rpc("/t/bob", "search_nodes", { query: "remembers" })).toEqual({ entities: [entity("Bea")], relations: [] });
    expect(await rpc("", "read_graph", {})).toEqual({ entities: [entity("Cy")], relations: [] });
    expect(existsSync(join(dataDir, "tenants", "ann", "memory", "data.mdb"))).toBe(true);
    expect((await fetch(`${server.url}/tenants/ann`, { method: "DELETE" })).status).toBe(200);
    expect(existsSync(join(dataDir, "tenants", "ann"))).toBe(false);
    await rpc("/t/ann", "create_entities", { entities: [entity("Abe")] });
    expect(await rpc("/t/ann", "read_graph", {})).toEqual({ entities: [entity("Abe")], relations: [] });
  });
});

describe("idle tenants' memory given back", () => {
  let dataDir: string;
  let server: StrandServer;

  beforeAll(async () => {
    dataDir = tempDir("strand-tenant-release-");
    server = await startStrand({ dataDir, extraArgs: ["--tenant-idle", "1"] });
  });

  afterAll(async () => {
    await server?.stop();
  });

  it("once the tenant has closed and no tenant request came for a sweep, and the tenant opens again after", async () => {
    const added = await fetch(`${server.url}/t/quiet/AddUser`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ handle: "q", name: "Q", city: "Oslo", age: 30 }),
    });
    expect(added.status).toBe(200);
    // /metrics is no tenant request: reading it does not put the release off.
    let seen: string[] = [];
    for (;;) {
      const text = await (await fetch(`${server.url}/metrics`)).text();
      seen = [...samples(text, "strand_tenants_open"), ...samples(text, "strand_tenant_memory_releases_total")];
      if (seen[1] !== "strand_tenant_memory_releases_total 0") break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(seen).toEqual(["strand_tenants_open 0", "strand_tenant_memory_releases_total 1"]);
    const took = samples(await (await fetch(`${server.url}/metrics`)).text(), "strand_tenant_memory_release_last_seconds");
    expect(Number(took[0]?.split(" ")[1]) > 0).toBe(true);
    const count = await fetch(`${server.url}/t/quiet/query`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "N<User>::COUNT" }),
    });
    expect(await count.json()).toEqual({ result: 1 });
  });
});
