// Keys with roles (server/access/): a read key reads and is refused every write (named queries,
// ad-hoc, /mcp tools) and /backup and replication, with 403 ROLE_FORBIDDEN naming its role; a
// write key writes but gets no backup; an admin key gets everything. In process over the MCP
// fixture, then on a real `strand serve` with --read-key and a keys file made by `strand keys`,
// reloaded without a restart when it changes (and kept when an edit does not parse).
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KeyRing, keyDigest } from "../server/access/key-ring.js";
import { keysFileLine, parseKeysFile } from "../server/access/keys-file.js";
import { type McpFixture, openFixture } from "./support/mcp-fixture.js";
import { CLI, lineAfter as lineAfterOutput, REPO_ROOT, type StrandServer, startStrand, tempDir } from "./support/server.js";

const ADMIN = "admin-key-0123456789";
const WRITER = "write-key-0123456789";
const READER = "read-key-0123456789";

const forbidden = (name: string, role: string, what: string, needs = "write or admin") => ({
  error: `the key "${name}" has the role ${role}; ${what} needs a key with the role ${needs}`,
  code: "ROLE_FORBIDDEN",
});

describe("roles in process", () => {
  let f: McpFixture;
  let ring: KeyRing;
  const as = (key: string | undefined): Record<string, string> => ({
    "content-type": "application/json",
    ...(key === undefined ? {} : { authorization: `Bearer ${key}` }),
  });
  const posts = (): number => f.store.read((db) => db.count(db.nodesByLabel("Post")));

  beforeAll(async () => {
    ring = new KeyRing([{ name: "boss", role: "admin", digest: keyDigest(ADMIN) }], true);
    const parsed = parseKeysFile(`# a comment\n\n${keysFileLine("app", "write", WRITER)}\n${keysFileLine("ci", "read", READER)}\n`);
    if (!parsed.ok) throw new Error(parsed.problem);
    ring.replaceLoaded(parsed.entries);
    f = await openFixture({ keys: ring, backup: undefined });
  });

  afterAll(async () => {
    await f?.close();
  });

  it("asks every caller for a key", async () => {
    expect(await f.post("/UsersInCity", { city: "London" }, as(undefined))).toEqual({
      status: 401,
      body: { error: "missing x-api-key header", code: "UNAUTHORIZED" },
    });
    expect(await f.post("/UsersInCity", { city: "London" }, as("nope"))).toEqual({
      status: 401,
      body: { error: "invalid api key", code: "UNAUTHORIZED" },
    });
  });

  it("lets a read key read and refuses its writes, changing nothing", async () => {
    expect((await f.post("/UsersInCity", { city: "London" }, as(READER))).status).toBe(200);
    const before = posts();
    expect(await f.post("/AddPost", { title: "No" }, as(READER))).toEqual({
      status: 403,
      body: forbidden("ci", "read", "the query AddPost (it writes)"),
    });
    const init = await f.post("/mcp/init", {}, as(READER));
    expect(init.status).toBe(200);
    const connection = init.body as string;
    expect(await f.post("/mcp/AddPostMcp", { connection_id: connection, data: { title: "No" } }, as(READER))).toEqual({
      status: 403,
      body: forbidden("ci", "read", "the tool AddPostMcp (it writes)"),
    });
    expect((await f.post("/mcp/UsersInCityMcp", { connection_id: connection, data: { city: "Paris" } }, as(READER))).status).toBe(200);
    expect(posts()).toBe(before);
  });

  it("lets a write key write, and the admin key too", async () => {
    const before = posts();
    expect((await f.post("/AddPost", { title: "By app" }, as(WRITER))).status).toBe(200);
    expect((await f.post("/AddPost", { title: "By boss" }, as(ADMIN))).status).toBe(200);
    expect(posts()).toBe(before + 2);
  });

  it("takes a reloaded set of keys at once; an emptied file opens nothing", async () => {
    ring.replaceLoaded([]);
    expect((await f.post("/UsersInCity", { city: "London" }, as(READER))).status).toBe(401);
    expect((await f.post("/UsersInCity", { city: "London" }, as(ADMIN))).status).toBe(200);
    const empty = new KeyRing([], true);
    const closed = await openFixture({ keys: empty });
    try {
      expect((await closed.post("/UsersInCity", { city: "London" }, as(undefined))).status).toBe(401);
    } finally {
      await closed.close();
    }
  });
});

describe("keys files", () => {
  it("refuses a file that does not parse, naming the line", () => {
    expect(parseKeysFile("a read sha256:00\n")).toEqual({
      ok: false,
      problem: "line 1: the digest must be sha256: and 64 lower-case hex digits",
    });
    expect(parseKeysFile(`# x\n${keysFileLine("a", "read", "k")}\n${keysFileLine("a", "write", "j")}`)).toEqual({
      ok: false,
      problem: 'line 3: the name "a" is used twice',
    });
    expect(parseKeysFile("a owner sha256:x")).toEqual({ ok: false, problem: 'line 1: the role "owner" is not one of read, write, admin' });
    expect(parseKeysFile("a/b read sha256:x")).toEqual({ ok: false, problem: 'line 1: the name "a/b" must be 1-64 of A-Z a-z 0-9 . _ -' });
    expect(parseKeysFile("a read")).toEqual({
      ok: false,
      problem: 'line 1: expected "<name> <role> sha256:<digest> [tenant=<tenant>]", got 2 fields',
    });
  });
});

function strand(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: REPO_ROOT, encoding: "utf8" });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("strand serve with a read key and a keys file", () => {
  let dir: string;
  let file: string;
  let server: StrandServer;
  let ciKey: string;

  const lineAfter = (action: () => unknown, expected: string): Promise<string> => lineAfterOutput(server, action, expected);
  const ask = async (path: string, body: unknown, key: string): Promise<{ status: number; body: unknown }> => {
    const res = await fetch(`${server.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };
  const addUser = (key: string, handle: string) => ask("/AddUser", { handle, name: handle, city: "Oslo", age: 30 }, key);

  beforeAll(async () => {
    dir = tempDir("strand-keys-");
    file = join(dir, "keys");
    const added = strand(["keys", "add", "ci", "--role", "read", "--file", file]);
    expect(added.status).toBe(0);
    ciKey = added.stdout.trim();
    expect(ciKey).toMatch(/^strand_[A-Za-z0-9_-]{43}$/);
    server = await startStrand({
      extraArgs: ["--api-key", ADMIN, "--read-key", READER, "--keys-file", file, "--memory", "true"],
    });
  });

  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("keeps digests only, readable by its owner, and lists names and roles", () => {
    const text = readFileSync(file, "utf8");
    expect(text).not.toContain(ciKey);
    expect(text).toBe(
      `# strand keys: <name> <role> sha256:<digest of the key>; roles: read, write, admin\nci read sha256:${keyDigest(ciKey).toString("hex")}\n`,
    );
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(strand(["keys", "list", "--file", file])).toEqual({ status: 0, stdout: "ci\tread\n", stderr: "" });
    expect(strand(["keys", "add", "ci", "--role", "write", "--file", file])).toEqual({
      status: 1,
      stdout: "",
      stderr: `strand: ${file} has a key named "ci" already\n`,
    });
    expect(strand(["keys", "add", "x", "--role", "owner", "--file", file]).stderr).toContain(
      '--role must be read, write or admin, got "owner"',
    );
    const asDir = strand(["keys", "add", "n1", "--role", "read", "--file", dir]);
    expect({ status: asDir.status, stdout: asDir.stdout, stderr: asDir.stderr }).toEqual({
      status: 1,
      stdout: "",
      stderr: `strand: cannot use ${dir} as the keys file: EISDIR: illegal operation on a directory, read\n`,
    });
    expect(strand(["keys", "list", "--file", `${file}-typo`])).toEqual({
      status: 1,
      stdout: "",
      stderr: `strand: ${file}-typo does not exist (strand keys add creates it)\n`,
    });
  });

  it("refuses the read keys' writes, /backup and replication, naming the role", async () => {
    expect(await addUser(READER, "r")).toEqual({ status: 403, body: forbidden("read-key", "read", "the query AddUser (it writes)") });
    expect(await addUser(ciKey, "c")).toEqual({ status: 403, body: forbidden("ci", "read", "the query AddUser (it writes)") });
    expect(
      await ask("/query", { query: "u <- AddN<User>({handle: h, name: h, city: h, age: 1})\nRETURN u", params: { h: "q" } }, ciKey),
    ).toEqual({
      status: 403,
      body: forbidden("ci", "read", "an ad-hoc query that writes"),
    });
    expect(await ask("/query", { query: "N<User>::COUNT" }, ciKey)).toEqual({ status: 200, body: { result: 0 } });
    const backup = await fetch(`${server.url}/backup`, { headers: { authorization: `Bearer ${ciKey}` } });
    expect({ status: backup.status, body: await backup.json() }).toEqual({
      status: 403,
      body: forbidden("ci", "read", "GET /backup", "admin"),
    });
    const status = await fetch(`${server.url}/replication/status`, { headers: { "x-api-key": READER } });
    expect({ status: status.status, body: await status.json() }).toEqual({
      status: 403,
      body: forbidden("read-key", "read", "replication", "admin"),
    });
    const admin = await fetch(`${server.url}/replication/status`, { headers: { "x-api-key": ADMIN } });
    expect(admin.status).toBe(200);
    await admin.body?.cancel();
  });

  it("refuses the read keys' memory and LangGraph writes, and lets them read", async () => {
    const rpc = (key: string, name: string, args: unknown) =>
      fetch(`${server.url}/memory/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${key}` },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
      }).then(async (r) => ({ status: r.status, body: await r.json() }));
    const entities = [{ name: "Ada", entityType: "person", observations: [] }];
    expect(await rpc(ciKey, "create_entities", { entities })).toEqual({
      status: 200,
      body: {
        result: { content: [{ type: "text", text: JSON.stringify(forbidden("ci", "read", "a memory tool that writes")) }], isError: true },
        jsonrpc: "2.0",
        id: 1,
      },
    });
    expect((await rpc(ciKey, "read_graph", {})).body).toEqual({
      result: {
        content: [{ type: "text", text: JSON.stringify({ entities: [], relations: [] }, null, 2) }],
        structuredContent: { entities: [], relations: [] },
      },
      jsonrpc: "2.0",
      id: 1,
    });
    const put = { operations: [{ op: "put", namespace: ["u"], key: "k", value: { a: 1 } }] };
    expect(await ask("/memory/langgraph/store/batch", put, ciKey)).toEqual({
      status: 403,
      body: forbidden("ci", "read", "a LangGraph checkpoint or store write"),
    });
  });

  it("takes keys added and removed while serving, keeps its keys when an edit does not parse, and reloads on SIGHUP", async () => {
    let appKey = "";
    await lineAfter(() => {
      const added = strand(["keys", "add", "app", "--role", "write", "--file", file]);
      expect(added.status).toBe(0);
      appKey = added.stdout.trim();
    }, `keys reloaded from ${file} (changed): 4 keys (read 2, write 1, admin 1)`);
    expect((await addUser(appKey, "app1")).status).toBe(200);
    await lineAfter(
      () => expect(strand(["keys", "remove", "ci", "--file", file]).status).toBe(0),
      "(changed): 3 keys (read 1, write 1, admin 1)",
    );
    expect((await ask("/query", { query: "N<User>::COUNT" }, ciKey)).status).toBe(401);
    const good = readFileSync(file, "utf8");
    await lineAfter(
      () => writeFileSync(file, `${good}broken line\n`),
      `keys not reloaded from ${file} (changed): line 3: expected "<name> <role> sha256:<digest> [tenant=<tenant>]", got 2 fields; keeping 3 keys`,
    );
    expect((await addUser(appKey, "app2")).status).toBe(200);
    await lineAfter(() => writeFileSync(file, good), "keys reloaded from");
    await lineAfter(() => server.child.kill("SIGHUP"), `keys reloaded from ${file} (SIGHUP): 3 keys`);
    expect((await addUser(ADMIN, "boss")).status).toBe(200);
  });
});

describe("a server without a keys file or tenants", () => {
  it("lives through SIGHUP, and refuses a request naming a tenant rather than serving it from its own graph", async () => {
    const server = await startStrand({ extraArgs: ["--tenants", "false"] });
    try {
      await lineAfterOutput(server, () => server.child.kill("SIGHUP"), "strand: SIGHUP: no keys file to reload (--keys-file); ignored");
      const res = await fetch(`${server.url}/AddUser`, {
        method: "POST",
        headers: { "content-type": "application/json", "strand-tenant": "acme" },
        body: JSON.stringify({ handle: "x", name: "x", city: "x", age: 1 }),
      });
      expect({ status: res.status, body: await res.json() }).toEqual({
        status: 404,
        body: {
          error:
            "no route for POST /AddUser (strand-tenant: acme): this server serves one graph, not tenants (--tenants false, or --watch)",
          code: "NOT_FOUND",
        },
      });
      const count = await fetch(`${server.url}/CountUsers`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      expect(await count.json()).toEqual({ total: 0 });
    } finally {
      await server.stop();
    }
  });

  it("warns at start when its keys file holds no key, and refuses everyone", async () => {
    const dir = tempDir("strand-empty-keys-");
    const file = join(dir, "keys");
    writeFileSync(file, "# no keys yet\n");
    const server = await startStrand({ extraArgs: ["--keys-file", file] });
    try {
      expect(server.output()).toContain(
        `strand: warning: the keys file ${file} holds no key and no other key is given: every request but /health is refused (401) until one is added\n`,
      );
      expect(
        (await fetch(`${server.url}/CountUsers`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })).status,
      ).toBe(401);
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
