// Idempotent writes (issue 34 item 6): a write sent with an Idempotency-Key runs at most once per
// key; its answer is stored in the write's own transaction, so a retry (a lost answer, a kill -9,
// a replica promoted) gets it again with `Idempotent-Replayed: true`; the same key with another
// request is 422; a retry racing the first waits for it (the write lock serializes them). Answers
// expire after the window and are swept by later writes; they reach replicas through the log.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { GraphStore } from "../runtime/graph-store.js";
import { QueryRunner } from "../runtime/query/query-runner.js";
import { RoleStore } from "../server/node/role-store.js";
import { createApp } from "../server/index.js";
import { openHxApp, type HxApp } from "./support/hx-app.js";
import { startStrand, tempDir } from "./support/server.js";
import { removeDir } from "./support/store-fixtures.js";

const HX = `N::Memory { text: String }
QUERY Remember(text: String) =>
    m <- AddN<Memory>({text: text})
    RETURN m
QUERY All() =>
    m <- N<Memory>
    RETURN m
`;
const REUSED = (key: string) => ({
  error: `the Idempotency-Key "${key}" was used for another request (another query than Remember, or other parameters); send a new key for a new request`,
  code: "IDEMPOTENCY_KEY_REUSED",
});

interface Answer {
  status: number;
  replayed: string | null;
  body: unknown;
}

/** POST through the app with headers, keeping the replay header. */
async function post(app: ReturnType<typeof createApp>, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await app.request(path, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, replayed: res.headers.get("idempotent-replayed"), body: await res.json() };
}

describe("a write with an Idempotency-Key, in process", () => {
  let hx: HxApp;
  let app: ReturnType<typeof createApp>;
  const window = 60_000;
  beforeAll(async () => {
    hx = await openHxApp(HX);
    // The same compiled queries behind an app with a one-minute window (the clock is mocked below).
    app = createApp({ store: hx.store, schema: hx.schema, queries: hx.queries, idempotencyWindowMs: window });
  });
  afterAll(async () => {
    await hx.close();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });
  const all = async () => ((await post(app, "/All", {})).body as { m: unknown[] }).m;

  it("runs once; a retry gets the same answer, replayed; another request under the key is 422", async () => {
    const first = await post(app, "/Remember", { text: "milk" }, { "idempotency-key": "k-1" });
    expect(first.status).toBe(200);
    expect(first.replayed).toBeNull();
    const again = await post(app, "/Remember", { text: "milk" }, { "idempotency-key": '"k-1"' });
    expect(again).toEqual({ status: 200, replayed: "true", body: first.body });
    expect(await post(app, "/Remember", { text: "eggs" }, { "idempotency-key": "k-1" })).toEqual({
      status: 422,
      replayed: null,
      body: REUSED("k-1"),
    });
    expect(await all()).toEqual([(first.body as { m: unknown }).m]);
  });

  it("lets retries racing the first wait for it: one effect, every answer the same", async () => {
    const before = (await all()).length;
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => post(app, "/Remember", { text: "bread" }, { "idempotency-key": "race" })),
    );
    expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.filter((a) => a.replayed === "true").length).toBe(4);
    expect((await all()).length).toBe(before + 1);
  });

  it("refuses a key that is not 1 to 255 visible characters, writing nothing; a read ignores the header", async () => {
    const before = (await all()).length;
    const problem = (got: string) => ({
      error: `Idempotency-Key must be 1 to 255 visible ASCII characters without " or \\ (a UUID is usual), got ${got}`,
      code: "INVALID_IDEMPOTENCY_KEY",
    });
    expect(await post(app, "/Remember", { text: "x" }, { "idempotency-key": "two words" })).toEqual({
      status: 400,
      replayed: null,
      body: problem('"two words"'),
    });
    expect((await post(app, "/Remember", { text: "x" }, { "idempotency-key": '""' })).body).toEqual(problem('"\\"\\""'));
    expect((await post(app, "/Remember", { text: "x" }, { "idempotency-key": "k".repeat(256) })).status).toBe(400);
    expect((await post(app, "/Remember", { text: "x" }, { "idempotency-key": "k".repeat(255) })).status).toBe(200);
    expect((await all()).length).toBe(before + 1);
    const read = await post(app, "/All", {}, { "idempotency-key": "for a read" });
    expect({ status: read.status, replayed: read.replayed }).toEqual({ status: 200, replayed: null });
  });

  it("forgets an answer after the window: the key runs again, and later writes sweep the old answer", async () => {
    let now = Date.now();
    vi.spyOn(Date, "now").mockImplementation(() => now);
    const first = await post(app, "/Remember", { text: "old" }, { "idempotency-key": "aging" });
    now += window - 1;
    expect((await post(app, "/Remember", { text: "old" }, { "idempotency-key": "aging" })).replayed).toBe("true");
    now += 2;
    const later = await post(app, "/Remember", { text: "old" }, { "idempotency-key": "aging" });
    expect({ status: later.status, replayed: later.replayed }).toEqual({ status: 200, replayed: null });
    expect(later.body).not.toEqual(first.body);
    // The expired answer of "k-1" (stored a window ago and more) is gone after this write's sweep.
    now += window + 1;
    await post(app, "/Remember", { text: "sweeper" }, { "idempotency-key": "sweeper" });
    expect(hx.store.read((db) => db.storedAnswer("k-1", 0))).toBeUndefined();
    expect(hx.store.read((db) => db.storedAnswer("sweeper", 0))?.hash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("the sweep of expired answers", () => {
  it("removes at most 16 a write, the rest at the next, and an answer stored after a sweep once it expires", async () => {
    const hx = await openHxApp(HX);
    try {
      const remember = (key: string, at: number, expiredBefore: number) =>
        hx.store.write((db) => db.rememberAnswer(key, { hash: "h", at, result: key }, expiredBefore));
      const kept = (keys: string[]) => hx.store.read((db) => keys.filter((k) => db.storedAnswer(k, 0) !== undefined));
      const old = Array.from({ length: 20 }, (_, i) => `old-${i + 1}`);
      for (const [i, key] of old.entries()) await remember(key, i + 1, 0);
      await remember("a", 100, 100); // removes old-1 … old-16
      expect(kept([...old, "a"])).toEqual(["old-17", "old-18", "old-19", "old-20", "a"]);
      await remember("b", 101, 100); // the backlog's rest
      await remember("c", 102, 100); // nothing expired: no sweep
      expect(kept([...old, "a", "b", "c"])).toEqual(["a", "b", "c"]);
      // Stored after the sweeps found the oldest at 100: 50 is older still, and swept once expired.
      await remember("d", 50, 0);
      await remember("e", 103, 60);
      expect(kept(["a", "b", "c", "d", "e"])).toEqual(["a", "b", "c", "e"]);
    } finally {
      await hx.close();
    }
  });
});

describe("an #[mcp] query tool that writes", () => {
  const MCP_HX = HX.replace("QUERY Remember", "#[mcp]\nQUERY Remember").replace("QUERY All", "#[mcp]\nQUERY All");
  it("takes an idempotency_key: a retry returns the first answer; another request under the key is the 422 error; tools/list shows it", async () => {
    const mcp = await openHxApp(MCP_HX);
    try {
      const id = (await mcp.post("/mcp/init", {})).body as string;
      const call = { connection_id: id, data: { text: "via mcp" }, idempotency_key: "mcp-1" };
      const first = await mcp.post("/mcp/RememberMcp", call);
      expect(first.status).toBe(200);
      expect(await mcp.post("/mcp/RememberMcp", call)).toEqual(first);
      expect(await mcp.post("/mcp/RememberMcp", { ...call, data: { text: "other" } })).toEqual({
        status: 422,
        body: {
          error:
            'the Idempotency-Key "mcp-1" was used for another request (another query than Remember, or other parameters); send a new key for a new request',
          code: "IDEMPOTENCY_KEY_REUSED",
        },
      });
      expect((await mcp.post("/mcp/AllMcp", { connection_id: id })).body).toEqual({ m: [(first.body as { m: unknown }).m] });
      const listed = await createApp({ store: mcp.store, schema: mcp.schema, queries: mcp.queries }).request("/mcp", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      });
      const tools = (
        (await listed.json()) as { result: { tools: { name: string; inputSchema: { properties: Record<string, unknown> } }[] } }
      ).result.tools;
      const inputOf = (name: string) => Object.keys(tools.find((t) => t.name === name)!.inputSchema.properties).sort();
      expect(inputOf("RememberMcp")).toEqual(["connection_id", "data", "idempotency_key"]);
      expect(inputOf("AllMcp")).toEqual(["connection_id", "data"]);
    } finally {
      await mcp.close();
    }
  });
});

describe("an answer stored under a key", () => {
  it("reaches a replica through the commit log: the promoted replica replays it", async () => {
    const leaderDir = tempDir("strand-idem-leader-");
    const followerDir = tempDir("strand-idem-follower-");
    const hx = await openHxApp(HX);
    const remember = hx.queries.find((q) => q.name === "Remember")!;
    const leader = GraphStore.open({ path: leaderDir, schema: hx.schema });
    const follower = GraphStore.open({ path: followerDir, schema: hx.schema });
    try {
      const once = { key: "over-the-log", hash: "h".repeat(64), windowMs: 60_000, now: Date.now() };
      const first = await new QueryRunner(leader, null).runOnce(remember, { text: "carried" }, once);
      const read = leader.log.read(follower.log.committed, 10, 1 << 20);
      if (read === "gone") throw new Error("gone");
      await follower.applyLogEntries(read.first, read.frames);
      const replayed = await new QueryRunner(follower, null).runOnce(remember, { text: "carried" }, once);
      expect(replayed).toEqual({ result: first.result, replayed: true });
      expect(follower.read((db) => db.nodesByLabel("Memory").length)).toBe(1);
    } finally {
      await leader.close();
      await follower.close();
      await hx.close();
      removeDir(leaderDir);
      removeDir(followerDir);
    }
  });
});

describe("a retry's replay and the node's role", () => {
  it("comes from a snapshot only on a leader without sync replicas; a replica refuses it, a sync leader waits for its acks", async () => {
    const dir = tempDir("strand-idem-roles-");
    const hx = await openHxApp(HX);
    const remember = hx.queries.find((q) => q.name === "Remember")!;
    const store = GraphStore.open({ path: dir, schema: hx.schema });
    try {
      const roles = new RoleStore(store);
      const once = { key: "by-role", hash: "r".repeat(64), windowMs: 60_000, now: Date.now() };
      roles.role = { kind: "leader", epoch: 1 };
      const runner = new QueryRunner(roles, null);
      const first = await runner.runOnce(remember, { text: "roles" }, once);
      expect(first.replayed).toBe(false);
      expect(roles.replaysWithoutWriting()).toBe(true);
      expect(await runner.runOnce(remember, { text: "roles" }, once)).toEqual({ result: first.result, replayed: true });
      // A replica holds the answer too, but a write (and so its retry) belongs to the leader.
      roles.role = { kind: "replica", leader: "http://leader.example", epoch: 2 };
      expect(roles.replaysWithoutWriting()).toBe(false);
      await expect(runner.runOnce(remember, { text: "roles" }, once)).rejects.toMatchObject({ code: "NOT_LEADER" });
      // A leader with sync replicas answers the retry once they hold what it committed.
      const acked: number[] = [];
      roles.role = {
        kind: "leader",
        epoch: 3,
        acked: async (seq) => {
          acked.push(seq);
          return "acked";
        },
      };
      expect(await runner.runOnce(remember, { text: "roles" }, once)).toEqual({ result: first.result, replayed: true });
      expect(acked).toEqual([store.log.committed]);
    } finally {
      await store.close();
      await hx.close();
      removeDir(dir);
    }
  });
});

describe("strand serve killed with -9 after answering a keyed write", () => {
  it("replays the answer after the restart: one record", async () => {
    const project = tempDir("strand-idem-project-");
    writeFileSync(join(project, "schema.hx"), HX);
    const dataDir = join(tempDir("strand-idem-data-"), "data");
    mkdirSync(dataDir);
    let server = await startStrand({ project, dataDir });
    const call = async (body: unknown, key: string) => {
      const res = await fetch(`${server.url}/Remember`, {
        method: "POST",
        headers: { "content-type": "application/json", "idempotency-key": key },
        body: JSON.stringify(body),
      });
      return { status: res.status, replayed: res.headers.get("idempotent-replayed"), body: (await res.json()) as unknown };
    };
    try {
      const first = await call({ text: "durable" }, "after-crash");
      expect(first.status).toBe(200);
      await server.kill();
      server = await startStrand({ project, dataDir });
      expect(await call({ text: "durable" }, "after-crash")).toEqual({ status: 200, replayed: "true", body: first.body });
      const all = await fetch(`${server.url}/All`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
      expect(((await all.json()) as { m: unknown[] }).m).toEqual([(first.body as { m: unknown }).m]);
    } finally {
      await server.stop();
      removeDir(project);
    }
  }, 60_000);
});
