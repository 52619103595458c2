// The LangGraph routes of `strand serve --memory true` (server/langgraph/): what a bad call gets
// (400 with {error, code} naming the member, 404/405 for other paths and methods, 404 saying how
// to turn them on without --memory), nothing half-written after a refused batch, the namespaces
// InMemoryStore refuses refused alike, StrandSaver's checkpoints surviving kill -9, and TTLs, on
// the service with a clock the test moves.
import { rmSync } from "node:fs";
import { join } from "node:path";
import { InvalidNamespaceError, uuid6 } from "@langchain/langgraph-checkpoint";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openBuiltinStore } from "../cli/commands/builtin-store.js";
import { StrandClientError, StrandSaver, StrandStore } from "../langgraph/index.js";
import { LangGraphService } from "../server/langgraph/langgraph-service.js";
import { type StrandServer, startStrand, tempDir } from "./support/server.js";

async function post(server: StrandServer, path: string, body: unknown, method = "POST"): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { "content-type": "application/json" },
    ...(method === "POST" ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: await res.json() };
}

const checkpoint = (id: string) => ({
  v: 4,
  id,
  ts: "2026-12-06T00:00:00.000Z",
  channel_values: { messages: ["hi"] },
  channel_versions: { messages: 1 },
  versions_seen: {},
});

describe("strand serve --memory: the LangGraph routes", () => {
  let dataDir: string;
  let server: StrandServer;

  beforeAll(async () => {
    dataDir = tempDir("strand-langgraph-routes-");
    server = await startStrand({ dataDir, extraArgs: ["--memory", "true"] });
  });

  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("answers a bad body with 400 naming the member", async () => {
    expect(await post(server, "/memory/langgraph/checkpoints/get", { checkpoint_ns: "" })).toEqual({
      status: 400,
      body: { error: "missing 'thread_id' (a thread id)", code: "MISSING_PARAMETER" },
    });
    expect(await post(server, "/memory/langgraph/checkpoints/list", { thread: "t" })).toEqual({
      status: 400,
      body: {
        error: "unknown member 'thread' (expected: thread_id, checkpoint_ns, checkpoint_id, before_id, filter, limit)",
        code: "UNKNOWN_PARAMETER",
      },
    });
    expect(
      await post(server, "/memory/langgraph/store/batch", { operations: [{ op: "put", namespace: ["a.b"], key: "k", value: {} }] }),
    ).toEqual({
      status: 400,
      body: {
        error: "'operations[0].namespace[0]' must be a namespace label (not empty; no '.', ':' or NUL), got \"a.b\"",
        code: "INVALID_PARAMETER",
      },
    });
    expect(await post(server, "/memory/langgraph/checkpoints/put", [1])).toEqual({
      status: 400,
      body: { error: "request body must be a JSON object, got [1]", code: "INVALID_BODY" },
    });
  });

  it("answers other paths 404 and other methods 405", async () => {
    expect(await post(server, "/memory/langgraph/checkpoints/nope", {})).toEqual({
      status: 404,
      body: { error: "no route for POST /memory/langgraph/checkpoints/nope", code: "NOT_FOUND" },
    });
    expect(await post(server, "/memory/langgraph/store/batch", null, "GET")).toEqual({
      status: 405,
      body: { error: "method GET is not allowed on /memory/langgraph/store/batch; use POST", code: "METHOD_NOT_ALLOWED" },
    });
  });

  it("writes nothing of a batch that fails", async () => {
    const store = new StrandStore({ url: server.url });
    const refused = store.batch([
      { namespace: ["ok"], key: "first", value: { a: 1 } },
      { namespace: ["langgraph"], key: "reserved", value: { a: 2 } },
    ]);
    await expect(refused).rejects.toThrow(
      new StrandClientError("store/batch: 'namespace': the root label \"langgraph\" is reserved", "INVALID_PARAMETER", 400),
    );
    expect(await store.get(["ok"], "first")).toBeNull();
  });

  it("refuses the namespaces InMemoryStore refuses, with its error", async () => {
    const store = new StrandStore({ url: server.url });
    await expect(store.put([], "k", {})).rejects.toThrow(new InvalidNamespaceError("Namespace cannot be empty."));
    await expect(store.put(["a:b"], "k", {})).rejects.toThrow(InvalidNamespaceError);
    await expect(store.put(["langgraph"], "k", {})).rejects.toThrow(InvalidNamespaceError);
    await expect(store.search(["a.b"])).rejects.toThrow(InvalidNamespaceError);
  });

  it("keeps acknowledged checkpoints across kill -9", async () => {
    const saver = new StrandSaver({ url: server.url });
    const first = await saver.put(
      { configurable: { thread_id: "durable", checkpoint_ns: "" } },
      checkpoint(uuid6(1)),
      { source: "input", step: -1, parents: {} },
      { messages: 1 },
    );
    await saver.putWrites(first, [["messages", "pending"]], "task-1");
    await server.kill();
    server = await startStrand({ dataDir, extraArgs: ["--memory", "true"] });
    const tuple = await new StrandSaver({ url: server.url }).getTuple({ configurable: { thread_id: "durable" } });
    expect(tuple?.checkpoint.channel_values).toEqual({ messages: ["hi"] });
    expect(tuple?.pendingWrites).toEqual([["task-1", "messages", "pending"]]);
  });

  it("gives each checkpoint the values of its channels, an unchanged one stored at its first version", async () => {
    const saver = new StrandSaver({ url: server.url });
    const big = "x".repeat(100_000);
    let config = { configurable: { thread_id: "deltas", checkpoint_ns: "" } } as { configurable: Record<string, unknown> };
    for (let i = 0; i < 3; i++) {
      const c = { ...checkpoint(uuid6(i)), channel_values: { doc: big, step: i }, channel_versions: { doc: 1, step: i + 1 } };
      config = (await saver.put(
        config,
        c,
        { source: "loop", step: i, parents: {} },
        i === 0 ? { doc: 1, step: 1 } : { step: i + 1 },
      )) as typeof config;
    }
    const all = [];
    for await (const t of saver.list({ configurable: { thread_id: "deltas" } })) all.push(t.checkpoint.channel_values);
    expect(all).toEqual([
      { doc: big, step: 2 },
      { doc: big, step: 1 },
      { doc: big, step: 0 },
    ]);
  });
});

describe("the LangGraph store's TTL (in process, with a clock the test moves)", () => {
  it("hides an expired item, refreshes on read unless told not to, and sweeps it on a write", async () => {
    const dir = tempDir("strand-langgraph-ttl-");
    const opened = await openBuiltinStore({
      template: "langgraph",
      what: "the LangGraph store",
      dirName: "its directory",
      dataDir: join(dir, "lg"),
      doing: "testing",
      bm25: false,
    });
    if (opened === null) throw new Error("the LangGraph store did not open");
    let now = 1_000_000;
    const service = LangGraphService.create(opened.store, opened.queries, { embedder: null, now: () => now });
    if ("error" in service) throw new Error(service.error);
    const batch = async (ops: unknown[]) => {
      const out = await service.storeBatch(ops as never);
      if (!out.ok) throw out.error;
      return out.value;
    };
    const get = (key: string, refresh = true) => batch([{ op: "get", namespace: ["n"], key, refresh_ttl: refresh }]);
    await batch([
      { op: "put", namespace: ["n"], key: "short", value: { a: 1 }, texts: [], ttl: 1 },
      { op: "put", namespace: ["n"], key: "forever", value: { a: 2 }, texts: [], ttl: null },
    ]);
    now += 50_000; // 50 s: a read refreshes the 1-minute TTL to now + 60 s
    expect(await get("short")).toEqual([{ namespace: ["n"], key: "short", value: { a: 1 }, created_at: 1_000_000, updated_at: 1_000_000 }]);
    now += 50_000; // 100 s after the put, 50 s after the read: still there
    expect(await get("short", false)).toHaveLength(1);
    expect((await get("short", false))[0]).not.toBeNull();
    now += 20_000; // 120 s: 70 s after the last refreshing read
    expect(await get("short")).toEqual([null]);
    expect(await batch([{ op: "search", namespace_prefix: [], limit: 10, offset: 0, refresh_ttl: true }])).toEqual([
      [{ namespace: ["n"], key: "forever", value: { a: 2 }, created_at: 1_000_000, updated_at: 1_000_000 }],
    ]);
    // A write sweeps the expired item out of the store (not only out of sight).
    await batch([{ op: "put", namespace: ["m"], key: "k", value: {}, texts: [] }]);
    const left = opened.store.read((db) => opened.queries.find((q) => q.name === "AllItems")!.run(db, {})) as {
      items: Array<{ itemKey: string }>;
    };
    expect(left.items.map((i) => i.itemKey).sort()).toEqual(["forever", "k"]);
    await opened.store.close();
    rmSync(dir, { recursive: true, force: true });
  });
});

describe("strand serve without --memory", () => {
  it("answers 404 at /memory/langgraph/, saying how to turn it on", async () => {
    const server = await startStrand();
    try {
      expect(await post(server, "/memory/langgraph/store/batch", { operations: [] })).toEqual({
        status: 404,
        body: {
          error:
            "no route for POST /memory/langgraph/store/batch: the memory server is off (start strand serve with --memory, or set [server] memory = true)",
          code: "NOT_FOUND",
        },
      });
    } finally {
      await server.stop();
    }
  });
});
