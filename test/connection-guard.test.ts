// Connections are bounded per client address, and a connection must send a request
// (server/front-door/connection-guard.ts). Before: 3,000 connections from one address that never
// sent a byte were all still held after 70 s; up to the descriptor limit (20,000), every other
// client got resets.
import { createServer, type Server } from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guardConnections, REFUSED_LINGERING_MAX, tooManyConnectionsAnswer } from "../server/front-door/connection-guard.js";
import { type RunningServer, startServer } from "../server/server.js";
import { type McpFixture, openFixture, queries, schema } from "./support/mcp-fixture.js";

/** A connection from `localAddress`, open once connected. */
function connect(port: number, localAddress: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: "127.0.0.1", localAddress }, () => resolve(socket));
    socket.once("error", reject);
  });
}

/** Everything the server sends on `socket` until it closes it. */
function readAll(socket: net.Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    socket.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
    });
    socket.on("error", () => {});
    socket.on("close", () => resolve(text));
  });
}

const closed = (socket: net.Socket): Promise<void> => new Promise((resolve) => socket.once("close", () => resolve()));

describe("connections per client address", () => {
  let f: McpFixture;
  let server: RunningServer;

  beforeAll(async () => {
    f = await openFixture();
    server = await startServer({ store: f.store, schema, queries, port: 0, frontDoor: { maxConnectionsPerClient: 3 } });
  });

  afterAll(async () => {
    await server.close();
    await f.close();
  });

  it("answers a connection past the limit 429 and closes it; other addresses and freed slots are served", async () => {
    const held = await Promise.all([1, 2, 3].map(() => connect(server.port, "127.0.0.1")));
    const fourth = await connect(server.port, "127.0.0.1");
    const answer = readAll(fourth);
    fourth.write("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    const text = await answer;
    const [head, body] = text.split("\r\n\r\n");
    expect(head!.split("\r\n")).toEqual([
      "HTTP/1.1 429 Too Many Requests",
      "content-type: application/json",
      "retry-after: 1",
      "connection: close",
      `content-length: ${Buffer.byteLength(body!)}`,
    ]);
    expect(JSON.parse(body!)).toEqual({
      error:
        "this client has too many open connections to the server (limit 3 per client address); reuse connections (keep-alive) or close some",
      code: "TOO_MANY_CONNECTIONS",
    });
    expect(text).toBe(tooManyConnectionsAnswer(3));

    // Another address is not held back.
    const other = await connect(server.port, "127.0.0.2");
    const otherAnswer = readAll(other);
    other.end("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    expect((await otherAnswer).split("\r\n")[0]).toBe("HTTP/1.1 200 OK");

    // A closed connection frees its slot.
    held[0]!.destroy();
    await new Promise((r) => setTimeout(r, 100));
    const again = await connect(server.port, "127.0.0.1");
    const againAnswer = readAll(again);
    again.end("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    expect((await againAnswer).split("\r\n")[0]).toBe("HTTP/1.1 200 OK");
    for (const socket of held) socket.destroy();
  });

  it("refuses a limit that is not a whole number from 1 to a million", async () => {
    for (const bad of [0, 1.5, 1_000_001])
      await expect(startServer({ store: f.store, schema, queries, port: 0, frontDoor: { maxConnectionsPerClient: bad } })).rejects.toThrow(
        `maxConnectionsPerClient must be an integer from 1 to 1000000, got ${bad}`,
      );
  });
});

describe("a refused connection", () => {
  let server: Server;
  let port: number;
  let servedRefused = 0;

  beforeAll(async () => {
    let wasRefused: (socket: net.Socket) => boolean = () => false;
    server = createServer((req, res) => {
      if (wasRefused(req.socket)) servedRefused++;
      res.end("ok");
    });
    wasRefused = guardConnections(server, { maxPerClient: 1, firstRequestMs: 60_000, refused: () => {} });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("is not read: 50,000 requests pipelined on it reach no handler; its client still gets the 429", async () => {
    const held = await connect(port, "127.0.0.1");
    const refused = await connect(port, "127.0.0.1");
    const answer = readAll(refused);
    // Node's parser, had it read them, would have made 50,000 requests (the front door held 2.5 GB of them).
    refused.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".repeat(50_000));
    expect(await answer).toBe(tooManyConnectionsAnswer(1));
    expect(servedRefused).toBe(0);
    held.destroy();
  });

  it(`is kept for its answer at most ${REFUSED_LINGERING_MAX} at a time per address; past that closed unanswered`, async () => {
    const held = await connect(port, "127.0.0.3");
    const extra = 3;
    const refused = await Promise.all(Array.from({ length: REFUSED_LINGERING_MAX + extra }, () => connect(port, "127.0.0.3")));
    const answers = await Promise.all(refused.map(readAll));
    expect(answers.filter((a) => a === tooManyConnectionsAnswer(1)).length).toBe(REFUSED_LINGERING_MAX);
    expect(answers.filter((a) => a === "").length).toBe(extra);
    held.destroy();
  });
});

describe("a connection that sends no request", () => {
  let server: Server;
  let port: number;
  const refused: string[] = [];

  beforeAll(async () => {
    server = createServer((_req, res) => res.end("ok"));
    server.keepAliveTimeout = 60_000;
    guardConnections(server, { maxPerClient: 100, firstRequestMs: 300, refused: (address) => refused.push(address) });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("is closed once the first-request time has passed; one that sent a request is kept", async () => {
    const silent = await connect(port, "127.0.0.1");
    const talking = await connect(port, "127.0.0.1");
    const answered = new Promise<string>((resolve) => talking.once("data", (d: Buffer) => resolve(d.toString("utf8"))));
    talking.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    expect((await answered).split("\r\n")[0]).toBe("HTTP/1.1 200 OK");
    await closed(silent);
    // Past talking's own first-request time too (it connected after silent).
    await new Promise((r) => setTimeout(r, 300));
    expect(talking.destroyed).toBe(false);
    talking.destroy();
    expect(refused).toEqual([]);
  });
});
