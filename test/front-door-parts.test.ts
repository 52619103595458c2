// Pieces of the front door (server/front-door/) on their own: the lazily built Request the engine
// hands the app, the heartbeat that decides ENGINE_STALLED, and the batching outbox.
import { describe, expect, it, vi } from "vitest";
import { absoluteUrl } from "../server/front-door/door.js";
import { HostMemo, MAX_HOSTS } from "../server/http/host-memo.js";
import { FrontDoorHealth, pingIntervalMs } from "../server/front-door/health.js";
import { lazyRequest } from "../server/front-door/lazy-request.js";
import { LATER_MS, Outbox } from "../server/front-door/outbox.js";
import { Writable } from "node:stream";
import { startFrontDoor } from "../server/front-door/start.js";
import { strandNative } from "../server/native/native-module.js";
import { createLogger, silentLogger } from "../server/observe/logger.js";

describe("lazyRequest", () => {
  it("answers url and method without building a Request, and builds the real one for anything else", async () => {
    const body = new TextEncoder().encode('{"a":1}');
    const request = lazyRequest("http://localhost:1/Q?x=1", "POST", ["Content-Type", "application/json", "X-Two", "2"], body);
    expect(request instanceof Request).toBe(true);
    expect([request.url, request.method]).toEqual(["http://localhost:1/Q?x=1", "POST"]);
    expect(request.headers.get("x-two")).toBe("2");
    expect(await request.json()).toEqual({ a: 1 });
    expect(request.bodyUsed).toBe(true);
  });

  it("gives a GET no body even when one arrived", async () => {
    const request = lazyRequest("http://localhost:1/introspect", "GET", [], new Uint8Array([1, 2]));
    expect(request.body).toBe(null);
    expect(await request.text()).toBe("");
  });
});

describe("FrontDoorHealth", () => {
  it("is stalled only once a ping has waited longer than the limit; an answer clears it", () => {
    let now = 0;
    const pings: number[] = [];
    const health = new FrontDoorHealth({ stallLimitMs: 100, loopbackHostsOnly: false, ping: (seq) => pings.push(seq), now: () => now });
    try {
      expect(pings).toEqual([1]);
      now = 100;
      expect(health.stalledForMs()).toBe(null);
      now = 101;
      expect(health.stalledForMs()).toBe(101);
      health.pong(1, 7);
      expect(health.stalledForMs()).toBe(null);
    } finally {
      health.stop();
    }
  });

  it("pings every quarter of the limit, at least every 5 ms and at most every second", () => {
    expect([pingIntervalMs(1), pingIntervalMs(100), pingIntervalMs(30_000)]).toEqual([5, 25, 1_000]);
  });
});

describe("Outbox", () => {
  it("sends every message of one turn in one postMessage, with their transfers", async () => {
    const sent: { messages: number[]; transfer: ArrayBuffer[] }[] = [];
    const outbox = new Outbox<number>({ postMessage: (messages, transfer) => sent.push({ messages, transfer }) });
    const buffer = new ArrayBuffer(4);
    outbox.push(1);
    outbox.push(2, [buffer]);
    expect(sent).toEqual([]);
    await new Promise((r) => setImmediate(r));
    outbox.push(3);
    await new Promise((r) => setImmediate(r));
    expect(sent).toEqual([
      { messages: [1, 2], transfer: [buffer] },
      { messages: [3], transfer: [] },
    ]);
  });
});

describe("Outbox.later", () => {
  it("sends a message that can wait with the next batch, or alone once LATER_MS have passed", () => {
    vi.useFakeTimers();
    try {
      const sent: number[][] = [];
      const outbox = new Outbox<number>({ postMessage: (messages) => sent.push(messages) });
      outbox.later(1);
      vi.advanceTimersByTime(LATER_MS - 1);
      expect(sent).toEqual([]);
      outbox.push(2);
      vi.runOnlyPendingTimers(); // the push's setImmediate
      expect(sent).toEqual([[1, 2]]);
      outbox.later(3);
      outbox.later(4);
      vi.advanceTimersByTime(LATER_MS - 1);
      expect(sent).toEqual([[1, 2]]);
      vi.advanceTimersByTime(1);
      expect(sent).toEqual([
        [1, 2],
        [3, 4],
      ]);
      vi.advanceTimersByTime(10 * LATER_MS);
      expect(sent).toEqual([
        [1, 2],
        [3, 4],
      ]);
    } finally {
      vi.useRealTimers();
    }
  });
});

/** A front door's settings for the tests that start one in this process. */
const settings = {
  port: 0,
  host: "127.0.0.1",
  bodyLimitBytes: 1024,
  bodyMemoryLimitBytes: 4096,
  answerMemoryLimitBytes: 4096,
  stallLimitMs: 1000,
  maxConnectionsPerClient: 10,
  loopbackHostsOnly: false,
  forceCloseAfterMs: 100,
  logLevel: "silent" as const,
  logPretty: false,
  leaseGate: null,
};

describe("startFrontDoor when the front door fails after it listens", () => {
  const entry = new URL("./fixtures/front-door/failing-worker.mjs", import.meta.url);
  const unusedApp = { fetch: () => new Response("unused") };

  async function fatalMessageOf(failure: Record<string, unknown>, engineDoor: boolean): Promise<string> {
    let fatal: (message: string) => void = () => {};
    const told = new Promise<string>((resolve) => {
      fatal = resolve;
    });
    const running = await startFrontDoor({
      settings: { ...settings, ...failure },
      app: unusedApp,
      record: () => {},
      commit: () => null,
      logger: silentLogger(),
      onFatal: fatal,
      entry,
      door: engineDoor ? "engine" : "thread",
      native: engineDoor ? strandNative() : { missing: "left out by this test" },
    });
    expect(running.engineDoor).toBe(engineDoor);
    // The thread's port when it listens; the engine's socket's when the thread stands by.
    if (engineDoor) expect(running.port).toBeGreaterThan(1);
    else expect(running.port).toBe(1);
    const message = await told;
    await running.close();
    return message;
  }

  it.each([false, true])(
    "tells onFatal about an uncaught exception in the thread, with its message (engine's door: %s)",
    async (engineDoor) => {
      const message = await fatalMessageOf({ fail: "throw" }, engineDoor);
      expect(message.startsWith("the HTTP front door failed: Error: front door broke")).toBe(true);
    },
  );

  it.each([false, true])("tells onFatal about an exit nobody asked for, with its exit code (engine's door: %s)", async (engineDoor) => {
    expect(await fatalMessageOf({ fail: "exit", code: 3 }, engineDoor)).toBe("the HTTP front door stopped unexpectedly (exit code 3)");
  });
});

describe("startFrontDoor serves on the engine's thread with Strand's native module, through the front-door thread without", () => {
  const app = {
    fetch: async (req: Request) =>
      new Response(JSON.stringify({ method: req.method, path: new URL(req.url).pathname, body: await req.text() }), {
        status: 201,
        headers: { "content-type": "application/json" },
      }),
  };

  it.each([
    ["the native module", strandNative(), true, []],
    [
      "no native module",
      { missing: "build/Release/strand_native.node does not load (gone)" },
      false,
      [
        "every request crosses from the front-door thread to the engine's and back (about twice the CPU per request): the engine cannot share its socket with a standby front door without Strand's native module: build/Release/strand_native.node does not load (gone)",
      ],
    ],
  ] as const)(
    "with %s: the same answers, /health included; warned when it serves through the thread",
    async (_name, native, engineDoor, warned) => {
      const lines: string[] = [];
      const logger = createLogger({
        level: "warn",
        pretty: false,
        stream: new Writable({
          write(chunk: Buffer, _encoding, done) {
            lines.push(JSON.parse(chunk.toString()).msg);
            done();
          },
        }),
      });
      const running = await startFrontDoor({ settings, app, record: () => {}, commit: () => 7, logger, door: "engine", native });
      try {
        expect(running.engineDoor).toBe(engineDoor);
        expect(running.standbyHolds()).toBe(0);
        const url = `http://127.0.0.1:${running.port}`;
        const answer = await fetch(`${url}/Echo`, { method: "POST", body: "hi" });
        expect([answer.status, await answer.json()]).toEqual([201, { method: "POST", path: "/Echo", body: "hi" }]);
        const health = await fetch(`${url}/health`);
        // Each probe on a connection of its own (health.ts), with the engine's Strand-Commit.
        expect([health.status, health.headers.get("connection"), health.headers.get("strand-commit"), await health.json()]).toEqual([
          200,
          "close",
          "7",
          { status: "ok" },
        ]);
        expect(lines).toEqual(warned);
        // A second server on the same port: EADDRINUSE, whichever thread listens (serve names the holder, cli.test.ts).
        const clash = startFrontDoor({
          settings: { ...settings, port: running.port },
          app,
          record: () => {},
          commit: () => null,
          logger,
          door: "engine",
          native,
        });
        await expect(clash).rejects.toMatchObject({ code: "EADDRINUSE" });
      } finally {
        await running.close();
      }
    },
  );
});

describe("absoluteUrl (the URL a door gives the engine's Request)", () => {
  it("is what the URL parser writes for every Host and target, its memo of hosts and plain paths included; null for what it refuses", () => {
    const hosts = [
      "localhost",
      "LOCALHOST:80",
      "localhost:6969",
      "127.1",
      "127.0.0.1:6969",
      "[::1]:6969",
      "Example.COM:443",
      "a%41b",
      "a_b",
      "0x7f.1:81",
      "x:99999",
      "é",
      "x/mcp",
      "",
      "[::1",
    ];
    const targets = [
      "/GetItem",
      "/t/acme/GetItem",
      "/",
      "//x",
      "/a/../b",
      "/a/./b",
      "/a?x=1",
      "/%7e",
      "/a\\b",
      "/mcp/init",
      "/Q-_9",
      "*",
      "x",
    ];
    const differences: string[] = [];
    for (let round = 0; round < 2; round++) {
      for (const host of hosts) {
        for (const target of targets) {
          const valid = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~!$&'()*+,;=%-]+)(?::\d{1,5})?$/.test(host) && target.startsWith("/");
          let expected: string | null = null;
          if (valid) {
            try {
              expected = new URL(`http://${host}${target}`).href;
            } catch {
              expected = null;
            }
          }
          const got = absoluteUrl(host, target);
          if (got !== expected) differences.push(`${host} ${target}: ${got} != ${expected}`);
        }
      }
    }
    expect(differences).toEqual([]);
    expect(absoluteUrl(undefined, "/GetItem")).toBe(null);
    expect(absoluteUrl("LOCALHOST:80", "/t/acme/GetItem")).toBe("http://localhost/t/acme/GetItem");
  });
});

describe("HostMemo", () => {
  it("computes once per Host, null and false remembered too, and starts over past MAX_HOSTS names", () => {
    const computed: string[] = [];
    const memo = new HostMemo((host) => {
      computed.push(host);
      return host === "a" ? null : host.length;
    });
    expect([memo.get("a"), memo.get("a"), memo.get("bb"), memo.get("bb")]).toEqual([null, null, 2, 2]);
    expect(computed).toEqual(["a", "bb"]);
    for (let i = 0; i < MAX_HOSTS - 2; i++) memo.get(`h${i}`);
    expect(computed).toHaveLength(MAX_HOSTS);
    memo.get("a");
    expect(computed).toHaveLength(MAX_HOSTS);
    memo.get("one more");
    memo.get("a");
    expect(computed.slice(-2)).toEqual(["one more", "a"]);
  });
});
