// The front-door thread (server/front-door/, issue 14): /health is answered while one request
// holds the engine, 503 ENGINE_STALLED once that lasts past the stall limit, a long-poll still
// streams its answer, and a request without a Host is a JSON 400 from the front door. Real
// `strand serve` processes: a server in this process would share its thread with the client.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStrand, tempDir, type StrandServer } from "./support/server.js";

const SCHEMA = "N::Item {\n    name: String,\n    n: I64\n}\n";
const QUERIES = `QUERY Ingest(items: [{name: String, n: I64}]) =>
    FOR {name, n} IN items {
        AddN<Item>({name: name, n: n})
    }
    RETURN NONE

QUERY CountItems() =>
    n <- N<Item>::COUNT
    RETURN n

QUERY AddThenItemsNumbered(n: I64) =>
    added <- AddN<Item>({name: "pipelined", n: 2})
    items <- N<Item>::WHERE(_::{n}::EQ(n))
    RETURN items
`;
/** Enough items that one FOR-loop ingest holds the engine well past half a second (~3 values each, under the 100,000-value body limit). */
const ITEMS = 30_000;

const root = tempDir("strand-front-door-");
const project = join(root, "project");
mkdirSync(project);
writeFileSync(join(project, "schema.hx"), SCHEMA);
writeFileSync(join(project, "queries.hx"), QUERIES);
afterAll(() => rmSync(root, { recursive: true, force: true }));

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function ingest(server: StrandServer, count: number, from = 0): Promise<Response> {
  const items = Array.from({ length: count }, (_, i) => ({ name: `item ${from + i}`, n: from + i }));
  return fetch(`${server.url}/Ingest`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ items }),
  });
}

interface Poll {
  sent: number;
  at: number;
  status: number;
  body: unknown;
}

/** GET /health every `everyMs` (open loop: not waiting for answers) until `until()` is true. */
async function pollHealth(server: StrandServer, everyMs: number, until: () => boolean): Promise<Poll[]> {
  const polls: Promise<Poll>[] = [];
  while (!until()) {
    const sent = performance.now();
    polls.push(fetch(`${server.url}/health`).then(async (r) => ({ sent, at: performance.now(), status: r.status, body: await r.json() })));
    await sleep(everyMs);
  }
  return Promise.all(polls);
}

describe("/health while one request holds the engine", () => {
  let server: StrandServer;
  beforeAll(async () => {
    server = await startStrand({ project, extraArgs: ["--log-level", "warn"] });
  });
  afterAll(async () => {
    await server.stop();
  });

  it("answers 200 {status: ok} from the front door while a FOR-loop ingest runs; the ingest is acknowledged after its commit", async () => {
    let done = false;
    const big = ingest(server, ITEMS).then((r) => {
      done = true;
      return r.status;
    });
    // Beside the /health polls, requests the engine answers (GET /introspect): one that waits
    // shows when the engine was held.
    const probes: Promise<Poll>[] = [];
    const probing = (async () => {
      while (!done) {
        const sent = performance.now();
        probes.push(
          fetch(`${server.url}/introspect`).then(async (r) => ({ sent, at: performance.now(), status: r.status, body: await r.json() })),
        );
        await sleep(100);
      }
    })();
    const polls = await pollHealth(server, 20, () => done);
    await probing;
    expect(await big).toBe(200);
    const answered = await Promise.all(probes);
    const longest = answered.reduce((a, b) => (b.at - b.sent > a.at - a.sent ? b : a));
    expect(longest.at - longest.sent, "the engine was held by the ingest while a probe waited").toBeGreaterThan(200);
    // /health polls sent while that probe waited and answered promptly (within 100 ms), well
    // before it: the engine could not have answered them. (A server that answers /health on the
    // engine's thread answers none in time: they queue behind the ingest, then behind each other.)
    const during = polls.filter((p) => p.sent >= longest.sent && p.at < longest.at - 50 && p.at - p.sent < 100);
    expect(during.length).toBeGreaterThanOrEqual(5);
    for (const poll of during) expect({ status: poll.status, body: poll.body }).toEqual({ status: 200, body: { status: "ok" } });
    const count = await fetch(`${server.url}/CountItems`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(await count.json()).toEqual({ n: ITEMS });
  });

  it("a long-poll of the commit log still streams: it answers when a write lands, /health answering meanwhile", async () => {
    const keyed = await startStrand({ project, extraArgs: ["--log-level", "warn", "--replication-key", "rk"] });
    try {
      const headers = { "x-replication-key": "rk" };
      const status = (await (await fetch(`${keyed.url}/replication/status`, { headers })).json()) as { seq: number };
      let answered = false;
      const poll = fetch(`${keyed.url}/replication/log?after=${status.seq}&wait=20000`, { headers }).then(async (r) => {
        answered = true;
        return { status: r.status, first: r.headers.get("strand-log-first"), bytes: (await r.arrayBuffer()).byteLength };
      });
      await sleep(300);
      expect(answered).toBe(false);
      const health = await fetch(`${keyed.url}/health`);
      expect([health.status, await health.json()]).toEqual([200, { status: "ok" }]);
      expect((await ingest(keyed, 3)).status).toBe(200);
      const log = await poll;
      expect({ status: log.status, first: log.first }).toEqual({ status: 200, first: String(status.seq + 1) });
      expect(log.bytes).toBeGreaterThan(4);
    } finally {
      await keyed.stop();
    }
  });

  it("a client that sends a whole refused body reads the 413 (the rest is drained, not reset), and the connection serves on", async () => {
    const body = `{"items":[${"{},".repeat((8 * 1024 * 1024 - 20) / 3)}{}]}`;
    const refused = await fetch(`${server.url}/Ingest`, { method: "POST", headers: { "content-type": "application/json" }, body });
    expect({ status: refused.status, body: await refused.json() }).toEqual({
      status: 413,
      body: {
        error: "request body holds more than 100000 JSON values (member values and array elements); send them in several requests",
        code: "PAYLOAD_TOO_LARGE",
      },
    });
    const over = await fetch(`${server.url}/Ingest`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: " ".repeat(9 * 1024 * 1024),
    });
    expect(over.status).toBe(413);
    expect(((await over.json()) as { code: string }).code).toBe("PAYLOAD_TOO_LARGE");
    expect((await fetch(`${server.url}/introspect`)).status).toBe(200);
  });

  /** Sends `bytes` and half-closes (the client's FIN right after its request), then reads the answer. */
  function rawHalfClosed(bytes: string): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      const socket = connect(server.port, "127.0.0.1");
      let text = "";
      socket.setEncoding("utf8").on("data", (d: string) => {
        text += d;
      });
      socket.on("end", () => resolve(text));
      socket.on("error", reject);
      socket.end(bytes);
    });
  }

  it("a client that half-closes right after its request still gets the engine's answer", async () => {
    const reply = await rawHalfClosed(
      "POST /CountItems HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
    );
    expect(reply.slice(0, reply.indexOf("\r\n"))).toBe("HTTP/1.1 200 OK");
    expect(JSON.parse(reply.slice(reply.indexOf("\r\n\r\n") + 4))).toEqual({ n: ITEMS });
  });

  it("a request without a Host header is a JSON 400 from the front door", async () => {
    const reply = await rawHalfClosed("GET /introspect HTTP/1.0\r\n\r\n");
    expect(reply.slice(0, reply.indexOf("\r\n"))).toBe("HTTP/1.1 400 Bad Request");
    expect(JSON.parse(reply.slice(reply.indexOf("\r\n\r\n") + 4))).toEqual({
      error: "malformed request: a Host header and a path are required",
      code: "BAD_REQUEST",
    });
  });
});

/** One keep-alive connection, read answer by answer (Content-Length bodies). */
function rawConnection(port: number): { send(request: string): Promise<{ head: string; body: string }>; closed: Promise<void> } {
  const socket = connect(port, "127.0.0.1");
  let buffered = "";
  let waiting: ((answer: { head: string; body: string }) => void) | null = null;
  const take = (): void => {
    const end = buffered.indexOf("\r\n\r\n");
    if (waiting === null || end < 0) return;
    const head = buffered.slice(0, end);
    const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
    if (buffered.length < end + 4 + length) return;
    const body = buffered.slice(end + 4, end + 4 + length);
    buffered = buffered.slice(end + 4 + length);
    const resolve = waiting;
    waiting = null;
    resolve({ head, body });
  };
  socket.setEncoding("utf8").on("data", (d: string) => {
    buffered += d;
    take();
  });
  const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
  return {
    send: (request) =>
      new Promise((resolve) => {
        waiting = resolve;
        socket.write(request);
      }),
    closed,
  };
}

/** Resolves once a request to the engine (GET /introspect) has waited 100 ms unanswered while `done()` is false. */
async function engineHeld(server: StrandServer, done: () => boolean): Promise<boolean> {
  while (!done()) {
    let answered = false;
    void fetch(`${server.url}/introspect`).then(() => {
      answered = true;
    });
    const sent = performance.now();
    while (!answered && !done() && performance.now() - sent < 100) await sleep(10);
    if (!answered && !done()) return true;
  }
  return false;
}

describe("--front-door", () => {
  // engine: the engine's own door took the connection, so only the engine reads it (after the hold:
  // not asserted, the client may see the two answers in either order); thread: answered during it.
  it.each([
    ["engine", null],
    ["thread", false],
  ] as const)(
    "%s: a /health sent while the engine is held, on a connection opened before, is answered (while held: %s)",
    async (door, afterIngest) => {
      const server = await startStrand({ project, extraArgs: ["--log-level", "warn", "--front-door", door] });
      try {
        // Opened while the engine is free: the engine's own door takes it (with --front-door engine).
        const early = rawConnection(server.port);
        expect(JSON.parse((await early.send("GET /introspect HTTP/1.1\r\nhost: localhost\r\n\r\n")).body)).toMatchObject({
          queries: expect.any(Array),
        });
        let done = false;
        const big = ingest(server, ITEMS, 3_000_000).then((r) => {
          done = true;
          return r.status;
        });
        expect(await engineHeld(server, () => done)).toBe(true);
        const health = await early.send("GET /health HTTP/1.1\r\nhost: localhost\r\n\r\n");
        const answeredAfterIngest = done;
        expect([health.head.split("\r\n")[0], JSON.parse(health.body)]).toEqual(["HTTP/1.1 200 OK", { status: "ok" }]);
        expect(await big).toBe(200);
        if (afterIngest !== null) expect(answeredAfterIngest).toBe(afterIngest);
        // The standby's count exists only where there is a standby.
        const metrics = await (await fetch(`${server.url}/metrics`)).text();
        expect(metrics.includes("strand_standby_holds_total"), "/metrics names the standby's holds").toBe(door === "engine");
      } finally {
        await server.stop();
      }
    },
  );
});

describe("the standby front door", () => {
  it("takes new connections while the engine is held; such a connection ends after an answer once the engine is back, and /metrics counts the holds", async () => {
    const server = await startStrand({ project, extraArgs: ["--log-level", "warn", "--front-door", "engine"] });
    try {
      let done = false;
      const big = ingest(server, ITEMS).then((r) => {
        done = true;
        return r.status;
      });
      // Held: a request to the engine has waited 100 ms unanswered while the ingest runs.
      const held = await engineHeld(server, () => done);
      expect(held, "the ingest held the engine for 100 ms").toBe(true);
      const connection = rawConnection(server.port);
      const count = "POST /CountItems HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}";
      // Sent while the engine is held: answered once it is free, and kept alive (the client may send more now).
      const first = await connection.send(count);
      expect(await big).toBe(200);
      expect(first.head.split("\r\n")[0]).toBe("HTTP/1.1 200 OK");
      expect(first.head.toLowerCase()).not.toContain("connection: close");
      // Before or after the ingest, as their turns fell (the ingest's body may still have been read).
      expect([0, ITEMS]).toContain((JSON.parse(first.body) as { n: number }).n);
      // Once the standby has seen the engine beat for 50 ms (cheap requests: a COUNT of 30,000 items
      // would hold it each time), its next answer closes the connection.
      let answers = 0;
      let last = first;
      while (!last.head.toLowerCase().includes("connection: close")) {
        last = await connection.send("GET /introspect HTTP/1.1\r\nhost: localhost\r\n\r\n");
        expect(last.head.split("\r\n")[0]).toBe("HTTP/1.1 200 OK");
        expect(JSON.parse(last.body)).toMatchObject({ queries: expect.any(Array) });
        answers += 1;
        expect(answers, "the standby kept the connection after the engine was back").toBeLessThan(1_000);
      }
      await connection.closed;
      const metrics = await (await fetch(`${server.url}/metrics`)).text();
      expect(metrics).toMatch(/^strand_standby_holds_total [1-9]\d*$/m);
    } finally {
      await server.stop();
    }
  });
});

describe("ENGINE_STALLED", () => {
  it("is the 503 /health answers once the engine has not answered for longer than --stall-limit, naming how long; 200 again after", async () => {
    const server = await startStrand({ project, extraArgs: ["--log-level", "warn", "--stall-limit", "100"] });
    try {
      let done = false;
      const big = ingest(server, ITEMS, 1_000_000).then((r) => {
        done = true;
        return r.status;
      });
      const polls = await pollHealth(server, 20, () => done);
      expect(await big).toBe(200);
      const stalled = polls.filter((p) => p.status === 503);
      expect(stalled.length).toBeGreaterThan(0);
      for (const poll of stalled) {
        expect(poll.body).toEqual({
          error: expect.stringMatching(
            /^the engine has not answered for \d+ ms \(limit 100 ms, set by stall_limit_ms under \[server\] in strand.toml or strand serve --stall-limit\): one request is holding it$/,
          ),
          code: "ENGINE_STALLED",
        });
        const waited = Number(/for (\d+) ms/.exec((poll.body as { error: string }).error)![1]);
        expect(waited).toBeGreaterThan(100);
      }
      // The engine answers the next heartbeat once the ingest is done.
      let after = await fetch(`${server.url}/health`);
      for (let i = 0; i < 100 && after.status !== 200; i++) {
        await sleep(20);
        after = await fetch(`${server.url}/health`);
      }
      expect([after.status, await after.json()]).toEqual([200, { status: "ok" }]);
      // Logged by the engine once it is free: at warn, with the code (not at error: a balancer
      // polling /health during every long query would fill the error lines).
      await sleep(300);
      const logged = server
        .output()
        .split("\n")
        .filter((l) => l.startsWith("{") && l.includes('"path":"/health"') && l.includes('"status":503'));
      expect(logged.length).toBe(stalled.length);
      for (const line of logged) expect(JSON.parse(line)).toMatchObject({ level: "warn", route: "/health", code: "ENGINE_STALLED" });
    } finally {
      await server.stop();
    }
  });
});

describe("pipelined requests of a client that does not read", () => {
  it("reach the engine one at a time, each after the answer before it has left: one answer waits, not all of them", async () => {
    const server = await startStrand({ project, extraArgs: ["--log-level", "warn"] });
    try {
      const name = "x".repeat(2_000_000);
      const added = await fetch(`${server.url}/Ingest`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ items: [{ name, n: 1 }] }),
      });
      expect(added.status).toBe(200);
      const body = JSON.stringify({ n: 1 });
      const request = `POST /AddThenItemsNumbered HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
      // 20 small requests, each a write answering with a 2 MB record, in one go (one chunk: Node
      // parses them all at once), and nothing read back.
      const socket = connect({ host: "127.0.0.1", port: Number(new URL(server.url).port) });
      await new Promise<void>((r) => socket.once("connect", () => r()));
      socket.pause();
      socket.write(request.repeat(20));
      const count = async (): Promise<number> => {
        const res = await fetch(`${server.url}/CountItems`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: "{}",
        });
        return ((await res.json()) as { n: number }).n;
      };
      await sleep(1500);
      // The first answer fills the socket's buffers and the next request waits until the client
      // reads: at most a few of the writes ran. Before, all 20 ran and their answers were held.
      const ran = (await count()) - 1;
      expect(ran).toBeGreaterThanOrEqual(1);
      expect(ran).toBeLessThanOrEqual(3);
      // Reading lets the rest through, in order.
      const status = "HTTP/1.1 200 OK";
      let received = 0;
      let tail = ""; // shorter than the status line's start: one split across chunks is counted once
      const all = new Promise<void>((resolve) => {
        socket.on("data", (chunk: Buffer) => {
          const text = tail + chunk.toString("latin1");
          received += text.split(status).length - 1;
          tail = text.slice(-(status.length - 1));
          if (received === 20) resolve();
        });
      });
      socket.resume();
      await all;
      expect(await count()).toBe(21);
      socket.destroy();
    } finally {
      await server.stop();
    }
  }, 60_000);
});
