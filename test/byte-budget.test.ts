// The front door's budgets (server/front-door/byte-budget.ts). Request bodies held at once: every
// body is bounded by the body limit, and their sum by the body memory limit. Connections that
// send most of a body and never finish it used to hold their bytes until Node's request timeout
// (300 s): 400 of them at 8 MiB held 3.2 GB. Answers clients do not read: their sum is bounded
// too (150 clients not reading a 27 MB answer held 4.5 GB). Past a budget a request is answered
// 503 SERVER_BUSY with Retry-After, and the bytes come back when a held request ends.
import { connect, type Socket } from "node:net";
import { Worker } from "node:worker_threads";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { budgetCell, ByteBudget } from "../server/front-door/byte-budget.js";
import { startServer, type RunningServer } from "../server/server.js";
import { openFixture, queries, schema, type McpFixture } from "./support/mcp-fixture.js";

const KIB = 1024;
const BUSY = {
  error:
    "the request bodies the server holds, not yet answered, would pass its limit of 131072 bytes with this one; retry shortly. The limit is set by body_memory_limit under [server] in strand.toml, strand serve --body-memory-limit or STRAND_BODY_MEMORY_LIMIT",
  code: "SERVER_BUSY",
};

interface Reply {
  status: number;
  retryAfter: string | null;
  body: unknown;
}

async function post(port: number, path: string, body: string): Promise<Reply> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });
  return { status: res.status, retryAfter: res.headers.get("retry-after"), body: await res.json() };
}

/**
 * A connection that declares `declared` bytes of body, sends `sent` of them and waits. `answered`
 * turns true when the server answers it (refused: its bytes arrived while others held the budget).
 */
async function holdBody(port: number, declared: number, sent: number): Promise<Socket & { answered?: boolean }> {
  const socket: Socket & { answered?: boolean } = connect(port, "127.0.0.1");
  socket.once("data", () => {
    socket.answered = true;
  });
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  socket.write(`POST /CountUsers HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n`);
  await new Promise<void>((resolve) => socket.write(Buffer.alloc(sent, 0x20), () => resolve()));
  return socket;
}

/** Polls until fn resolves to a reply with `status` (the front door sees bytes a moment after they are written). */
async function eventually(fn: () => Promise<Reply>, status: number): Promise<Reply> {
  let reply = await fn();
  for (let i = 0; i < 100 && reply.status !== status; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    reply = await fn();
  }
  return reply;
}

describe("ByteBudget", () => {
  it("takes bytes while they fit and gets them back", () => {
    const budget = new ByteBudget(100);
    expect(budget.take(60)).toBe(true);
    expect(budget.take(41)).toBe(false);
    expect(budget.heldBytes).toBe(60);
    expect(budget.take(40)).toBe(true);
    expect(budget.take(1)).toBe(false);
    budget.give(60);
    expect(budget.heldBytes).toBe(40);
    expect(budget.take(60)).toBe(true);
    budget.give(100);
    // Alone, something larger than the whole budget passes.
    expect(budget.take(150)).toBe(true);
    expect(budget.take(1)).toBe(false);
  });

  it("is one budget for every door given its cell, in whichever thread (the engine's door and the standby's)", async () => {
    const cell = budgetCell();
    const engineDoor = new ByteBudget(100, cell);
    expect(engineDoor.take(70)).toBe(true);
    // Another thread's door, over the same cell.
    const worker = new Worker(
      `const { parentPort, workerData } = require("node:worker_threads");
       const held = new BigInt64Array(workerData);
       parentPort.postMessage(String(Atomics.load(held, 0)));`,
      { eval: true, workerData: cell },
    );
    expect(await new Promise((resolve) => worker.once("message", resolve))).toBe("70");
    await worker.terminate();
    const standby = new ByteBudget(100, cell);
    expect(standby.take(40)).toBe(false);
    expect(standby.take(30)).toBe(true);
    expect(engineDoor.heldBytes).toBe(100);
    standby.give(30);
    engineDoor.give(70);
    expect([engineDoor.heldBytes, standby.heldBytes]).toEqual([0, 0]);
    // 4 GiB and more count exactly.
    const large = new ByteBudget(8 * 2 ** 30);
    expect(large.take(5 * 2 ** 30)).toBe(true);
    expect(large.take(2 ** 30)).toBe(true);
    expect(large.heldBytes).toBe(6 * 2 ** 30);
  });
});

describe("request bodies held at once", () => {
  let f: McpFixture;
  let server: RunningServer;
  const held: (Socket & { answered?: boolean })[] = [];

  beforeAll(async () => {
    f = await openFixture();
    server = await startServer({
      store: f.store,
      schema,
      queries,
      port: 0,
      bodyLimitBytes: 64 * KIB,
      frontDoor: { bodyMemoryLimitBytes: 128 * KIB },
    });
  });

  afterAll(async () => {
    for (const socket of held) socket.destroy();
    await server.close();
    await f.close();
  });

  it("past the body memory limit, a request is 503 SERVER_BUSY with Retry-After; answered or gone, its bytes come back", async () => {
    const small = (): Promise<Reply> => post(server.port, "/CountUsers", `{}${" ".repeat(20 * KIB)}`);
    expect(await small()).toEqual({ status: 200, retryAfter: null, body: { total: 4 } });

    // Two unfinished bodies of 60 KiB each: 120 KiB of 128 held; 20 KiB more does not fit.
    held.push(await holdBody(server.port, 64 * KIB, 60 * KIB));
    held.push(await holdBody(server.port, 64 * KIB, 60 * KIB));
    // On a busy machine a holder's bytes may arrive while a probe holds 20 KiB: that holder is the
    // one refused, and is sent again.
    const probe = async (): Promise<Reply> => {
      for (let i = 0; i < held.length; i++) {
        if (held[i]!.answered) {
          held[i]!.destroy();
          held[i] = await holdBody(server.port, 64 * KIB, 60 * KIB);
        }
      }
      // The server runs in this thread (the engine's own door): a few turns of the event loop let
      // it read what the holders sent before the probe's bytes come.
      for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
      const reply = await small();
      return held.some((h) => h.answered) ? { ...reply, status: 0 } : reply;
    };
    expect(await eventually(probe, 503)).toEqual({ status: 503, retryAfter: "1", body: BUSY });
    // A body that fits in what is left is served.
    expect(await post(server.port, "/CountUsers", "{}")).toEqual({ status: 200, retryAfter: null, body: { total: 4 } });

    // One holder goes away: its 60 KiB come back.
    held.shift()!.destroy();
    expect(await eventually(small, 200)).toEqual({ status: 200, retryAfter: null, body: { total: 4 } });

    // The other finishes its body and is answered: the budget is whole again (six 20 KiB bodies at once fit).
    const holder = held.shift()!;
    const answered = new Promise<string>((resolve) => {
      let text = "";
      holder.setEncoding("utf8").on("data", (d: string) => {
        text += d;
        if (text.includes('{"total":4}')) resolve(text.split("\r\n")[0]!);
      });
    });
    holder.write(`{}${" ".repeat(4 * KIB - 2)}`);
    expect(await answered).toBe("HTTP/1.1 200 OK");
    holder.destroy();
    const all = await eventually(async () => {
      const replies = await Promise.all(Array.from({ length: 6 }, small));
      return replies.find((r) => r.status !== 200) ?? replies[0]!;
    }, 200);
    expect(all).toEqual({ status: 200, retryAfter: null, body: { total: 4 } });
  });

  it("refuses a body memory limit below the body limit", async () => {
    await expect(
      startServer({ store: f.store, schema, queries, port: 0, bodyLimitBytes: 64 * KIB, frontDoor: { bodyMemoryLimitBytes: 32 * KIB } }),
    ).rejects.toThrow(
      "the body memory limit (32768 bytes) must be an integer of at least the body limit (65536 bytes): a body the server takes must fit in it",
    );
  });
});

describe("answers clients have not read", () => {
  let f: McpFixture;
  let server: RunningServer;
  const MIB = 1024 * 1024;

  beforeAll(async () => {
    f = await openFixture();
    server = await startServer({
      store: f.store,
      schema,
      queries,
      port: 0,
      bodyLimitBytes: 20 * MIB,
      frontDoor: { answerMemoryLimitBytes: 20 * MIB },
    });
  });

  afterAll(async () => {
    await server.close();
    await f.close();
  });

  it("past the answer memory limit, an answer is 503 SERVER_BUSY with Retry-After; read, its bytes come back", async () => {
    // A 16 MB answer to a client that does not read: the system takes a few MB of it, the rest stays held.
    const title = "t".repeat(16 * MIB);
    const body = JSON.stringify({ title });
    const posts = (): number => f.store.read((db) => db.nodesWhere("Post", () => true).length);
    const before = posts();
    const reader = connect(server.port, "127.0.0.1");
    reader.pause();
    await new Promise<void>((resolve) => reader.once("connect", resolve));
    reader.write(
      `POST /AddPost HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    // Its post is written (its answer follows at once) before the others ask: otherwise, on a
    // loaded machine, each of them could be a whole 16 MB write answered 200 ahead of it.
    for (let i = 0; i < 1500 && posts() === before; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(posts()).toBe(before + 1);
    const another = (): Promise<Reply> => post(server.port, "/AddPost", body);
    expect(await eventually(another, 503)).toEqual({
      status: 503,
      retryAfter: "1",
      body: {
        error:
          "the answers the server holds that their clients have not read yet would pass its limit of 20971520 bytes with this one; retry shortly. The limit is set by answer_memory_limit under [server] in strand.toml, strand serve --answer-memory-limit or STRAND_ANSWER_MEMORY_LIMIT",
        code: "SERVER_BUSY",
      },
    });
    // Small answers still fit.
    expect(await post(server.port, "/CountUsers", "{}")).toEqual({ status: 200, retryAfter: null, body: { total: 4 } });
    // The client reads its answer: the budget is whole again.
    let got = 0;
    reader.on("data", (chunk: Buffer) => {
      got += chunk.length;
    });
    reader.resume();
    const ok = await eventually(another, 200);
    expect({ status: ok.status, title: (ok.body as { post: { title: string } }).post.title.length }).toEqual({
      status: 200,
      title: 16 * MIB,
    });
    expect(got).toBeGreaterThan(16 * MIB);
    reader.destroy();
  }, 60_000);
});
