// The HTTP side of replication, in process (server/replication/): Strand-Commit on every answer,
// Strand-After (bad values, waiting, 503 with Retry-After), the /replication endpoints behind the
// replication key or the api key, their parameters, LOG_GONE, and the long poll.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GraphStore } from "../runtime/graph-store.js";
import { decodeFrames, type StoreIdentity } from "../runtime/replication/protocol.js";
import { createApp } from "../server/index.js";
import type { ReplicationNode } from "../server/replication/node.js";
import { queries, schema } from "./support/mcp-fixture.js";

const identity: StoreIdentity = { format: 1, schemaVersion: null, fingerprint: "0123456789abcdef", strand: "test" };
const dir = mkdtempSync(join(tmpdir(), "strand-replication-http-"));
let store: GraphStore;

function app(options: { key?: string; apiKey?: string; afterTimeoutMs?: number } = {}): Hono {
  const node: ReplicationNode = {
    log: () => store.log,
    backup: (out) => store.backup(out),
    identity,
    following: () => null,
    key: options.key,
    afterTimeoutMs: options.afterTimeoutMs ?? 50,
  };
  return createApp({ store, queries, schema, replication: node, ...(options.apiKey ? { apiKey: options.apiKey } : {}) });
}

async function ask(a: Hono, path: string, init: RequestInit = {}): Promise<{ status: number; body: unknown; headers: Headers }> {
  const res = await a.request(path, init);
  const type = res.headers.get("content-type") ?? "";
  const body: unknown = type.includes("json") ? await res.json() : new Uint8Array(await res.arrayBuffer());
  return { status: res.status, body, headers: res.headers };
}

const addPost = (a: Hono, title: string, headers: Record<string, string> = {}) =>
  ask(a, "/AddPost", { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify({ title }) });
const KEY = { "x-replication-key": "rk" };

beforeAll(() => {
  store = GraphStore.open({ path: dir, schema });
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("Strand-Commit and Strand-After", () => {
  it("every answer says the sequence; a write's answer its own", async () => {
    const a = app({ key: "rk" });
    expect((await ask(a, "/health")).headers.get("strand-commit")).toBe("0");
    const written = await addPost(a, "one");
    expect([written.status, written.headers.get("strand-commit")]).toEqual([200, "1"]);
    const unknown = await ask(a, "/nope");
    expect([unknown.status, unknown.headers.get("strand-commit")]).toEqual([404, "1"]);
  });

  it("holds a request until its bookmark, and refuses bad or unreached ones", async () => {
    const a = app({ key: "rk", afterTimeoutMs: 50 });
    const seq = store.log.committed;
    expect((await ask(a, "/health", { headers: { "strand-after": String(seq) } })).status).toBe(200);
    expect(await ask(a, "/health", { headers: { "strand-after": "-1" } }).then((r) => [r.status, r.body])).toEqual([
      400,
      { error: 'strand-after must be a sequence number (an integer >= 0), got "-1"', code: "BAD_REQUEST" },
    ]);
    const behind = await ask(a, "/health", { headers: { "strand-after": String(seq + 1) } });
    expect([behind.status, behind.body, behind.headers.get("retry-after"), behind.headers.get("strand-commit")]).toEqual([
      503,
      {
        error: `this node has applied sequence ${seq}, not yet ${seq + 1} (strand-after), after waiting 50 ms; retry, or read from the leader`,
        code: "REPLICA_BEHIND",
      },
      "1",
      String(seq),
    ]);
    // Reached while waiting: answered as soon as the write is flushed.
    const slow = app({ key: "rk", afterTimeoutMs: 10_000 });
    const waiting = ask(slow, "/health", { headers: { "strand-after": String(seq + 1) } });
    await addPost(a, "two");
    const answered = await waiting;
    expect([answered.status, answered.headers.get("strand-commit")]).toEqual([200, String(seq + 1)]);
  });
});

describe("/replication endpoints", () => {
  it("need the replication key or the api key; a node with neither refuses them", async () => {
    const a = app({ key: "rk", apiKey: "ak" });
    expect((await ask(a, "/replication/status")).body).toEqual({
      error: "missing or invalid replication key (x-replication-key) or api key",
      code: "UNAUTHORIZED",
    });
    expect((await ask(a, "/replication/status", { headers: { "x-replication-key": "wrong" } })).status).toBe(401);
    expect((await ask(a, "/replication/status", { headers: { "x-api-key": "ak" } })).status).toBe(200);
    const status = await ask(a, "/replication/status", { headers: KEY });
    // Keyed (an api key), it says so: its replicas must be keyed too.
    expect(status.body).toEqual({ role: "leader", seq: store.log.committed, oldest: 1, identity, following: null, keyed: true });
    const unkeyed = await ask(app({ key: "rk" }), "/replication/status", { headers: KEY });
    expect(unkeyed.body).toEqual({ role: "leader", seq: store.log.committed, oldest: 1, identity, following: null });
    expect(await ask(app(), "/replication/log?after=0").then((r) => r.body)).toEqual({
      error: "replication is served only by a node with a replication key or an api key (strand serve --replication-key KEY)",
      code: "UNAUTHORIZED",
    });
    expect((await ask(app({ key: "rk" }), "/replication/status", { method: "POST", headers: KEY })).status).toBe(405);
  });

  it("answer the entries after a sequence as frames, LOG_GONE for another history, 400 for bad parameters", async () => {
    const a = app({ key: "rk" });
    const seq = store.log.committed;
    const log = await ask(a, "/replication/log?after=0", { headers: KEY });
    expect([log.status, log.headers.get("strand-log-first"), log.headers.get("strand-commit"), log.headers.get("strand-schema")]).toEqual([
      200,
      "1",
      String(seq),
      identity.fingerprint,
    ]);
    expect(decodeFrames(log.body as Uint8Array).length).toBe(seq);
    expect((await ask(a, `/replication/log?after=${seq}`, { headers: KEY })).body).toEqual(new Uint8Array());
    expect((await ask(a, "/replication/log?after=x", { headers: KEY })).body).toEqual({
      error: 'after must be an integer 0..9007199254740991, got "x"',
      code: "BAD_REQUEST",
    });
    expect((await ask(a, "/replication/log", { headers: KEY })).body).toEqual({
      error: "/replication/log needs ?after=<integer>",
      code: "BAD_REQUEST",
    });
    expect(await ask(a, `/replication/log?after=${seq + 5}`, { headers: KEY }).then((r) => [r.status, r.body])).toEqual([
      410,
      {
        error: `the follower is at sequence ${seq + 5}, past this node's ${seq}: it holds writes this node does not (most often an old leader's writes that were never acknowledged, after a failover; or this node was restored from an older backup); seed again`,
        code: "LOG_GONE",
      },
    ]);
    expect((await ask(a, `/replication/log?after=1&time=12345`, { headers: KEY })).body).toEqual({
      error: "the follower's entry 1 is not this node's: its data has another history; seed again",
      code: "LOG_GONE",
    });
  });

  it("answers LOG_GONE to a follower whose entry is no longer kept, even when the next one is: its history cannot be checked", async () => {
    const trimmedDir = mkdtempSync(join(tmpdir(), "strand-replication-trimmed-"));
    const trimmed = GraphStore.open({ path: trimmedDir, schema, logRetention: { entries: 2 } });
    try {
      const node: ReplicationNode = {
        log: () => trimmed.log,
        backup: (out) => trimmed.backup(out),
        identity,
        following: () => null,
        key: "rk",
        afterTimeoutMs: 50,
      };
      const a = createApp({ store: trimmed, queries, schema, replication: node });
      for (const title of ["one", "two", "three"]) await addPost(a, title);
      const time = trimmed.log.timeOf(1);
      await trimmed.log.trim();
      expect([trimmed.log.oldest(), trimmed.log.committed]).toEqual([2, 3]);
      expect(await ask(a, `/replication/log?after=1&time=${time}`, { headers: KEY }).then((r) => [r.status, r.body])).toEqual([
        410,
        {
          error:
            "entry 1 is no longer kept here, so the follower's history cannot be checked against this node's; seed again from its backup",
          code: "LOG_GONE",
        },
      ]);
      const kept = await ask(a, `/replication/log?after=2&time=${trimmed.log.timeOf(2)}`, { headers: KEY });
      expect([kept.status, decodeFrames(kept.body as Uint8Array).length]).toEqual([200, 1]);
    } finally {
      await trimmed.close();
      rmSync(trimmedDir, { recursive: true, force: true });
    }
  });

  it("a long poll is answered by the next commit", async () => {
    const a = app({ key: "rk" });
    const seq = store.log.committed;
    const polled = ask(a, `/replication/log?after=${seq}&wait=10000`, { headers: KEY });
    await new Promise((r) => setTimeout(r, 50));
    await addPost(a, "three");
    const answer = await polled;
    expect([answer.headers.get("strand-log-first"), decodeFrames(answer.body as Uint8Array).length]).toEqual([String(seq + 1), 1]);
  });
});
