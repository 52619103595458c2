// Issue #14, the HTTP half of item 8: requests Node's parser refuses get `{"error","code"}` bodies,
// HEAD /health needs no api key (as GET), MCP JSON-RPC answers invalid params -32602, and SIGTERM
// under keep-alive load finishes the requests in flight and closes idle connections at once.
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../server/server.js";
import { openFixture, queries, schema, type McpFixture } from "./support/mcp-fixture.js";
import { startStrand } from "./support/server.js";

interface RawReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function parseRaw(text: string): RawReply {
  const split = text.indexOf("\r\n\r\n");
  const [statusLine, ...lines] = text.slice(0, split).split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine!.split(" ")[1]), headers, body: text.slice(split + 4) };
}

/** Writes `request` as raw bytes and resolves with what the server sent before closing the connection. */
function rawExchange(port: number, request: string | Buffer): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let text = "";
    socket.setEncoding("utf8").on("data", (d: string) => (text += d));
    socket.on("close", () => resolve(parseRaw(text)));
    socket.on("error", reject);
    socket.write(request);
  });
}

/** Resolves with the first complete response (by content-length) read on `socket`. */
function nextResponse(socket: Socket): Promise<RawReply> {
  return new Promise((resolve) => {
    let text = "";
    const onData = (d: string): void => {
      text += d;
      const split = text.indexOf("\r\n\r\n");
      if (split < 0) return;
      const reply = parseRaw(text);
      if (Buffer.byteLength(reply.body) < Number(reply.headers["content-length"] ?? 0)) return;
      socket.off("data", onData);
      resolve(reply);
    };
    socket.setEncoding("utf8").on("data", onData);
  });
}

const jsonError = (error: string, code: string): unknown => ({ error, code });

describe("requests the HTTP parser refuses", () => {
  let f: McpFixture;
  let server: RunningServer;

  beforeAll(async () => {
    f = await openFixture();
    server = await startServer({ store: f.store, schema, queries, port: 0, apiKey: "secret" });
  });

  afterAll(async () => {
    await server.close();
    await f.close();
  });

  it("are answered with {error, code} JSON and the connection closed", async () => {
    const cases: [string | Buffer, number, unknown][] = [
      ["BOGUS / HTTP/1.1\r\nHost: x\r\n\r\n", 400, jsonError("malformed request: unknown HTTP method", "BAD_REQUEST")],
      [
        Buffer.from("GET /h\u00e9alth HTTP/1.1\r\nHost: x\r\n\r\n", "utf8"),
        400,
        jsonError("malformed request: invalid request target (percent-encode characters outside ASCII)", "BAD_REQUEST"),
      ],
      [
        `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`,
        431,
        jsonError("the request's headers are too large (at most 16384 bytes)", "HEADERS_TOO_LARGE"),
      ],
      [
        "POST /mcp/init HTTP/1.1\r\nHost: x\r\nExpect: bogus\r\nContent-Length: 2\r\n\r\n{}",
        417,
        jsonError("unsupported Expect header 'bogus' (only 100-continue is supported)", "EXPECTATION_FAILED"),
      ],
    ];
    for (const [request, status, body] of cases) {
      const reply = await rawExchange(server.port, request);
      expect({
        status: reply.status,
        type: reply.headers["content-type"],
        connection: reply.headers.connection,
        body: JSON.parse(reply.body) as unknown,
      }).toEqual({
        status,
        type: "application/json",
        connection: "close",
        body,
      });
    }
  });

  // Found by the HTTP fuzz campaign (scripts/campaign/http-fuzz.ts): the connection was dropped
  // without a word when the bad bytes came while a request on it was still being answered.
  it("bad bytes inside a chunked body get the JSON 400 too", async () => {
    const reply = await rawExchange(
      server.port,
      "POST /mcp/init HTTP/1.1\r\nHost: x\r\nx-api-key: secret\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
    );
    expect({ status: reply.status, connection: reply.headers.connection, body: JSON.parse(reply.body) as unknown }).toEqual({
      status: 400,
      connection: "close",
      body: jsonError("malformed request (HPE_INVALID_CHUNK_SIZE)", "BAD_REQUEST"),
    });
  });

  it("a whole request followed by bad bytes is answered, then the bad bytes get the JSON 400", async () => {
    const text = await new Promise<string>((resolve, reject) => {
      const socket = connect(server.port, "127.0.0.1");
      let out = "";
      socket.setEncoding("utf8").on("data", (d: string) => (out += d));
      socket.on("close", () => resolve(out));
      socket.on("error", reject);
      socket.write("GET /health HTTP/1.1\r\nHost: x\r\n\r\nGARBAGE\r\n\r\n");
    });
    const second = text.indexOf("HTTP/1.1 400");
    expect(second).toBeGreaterThan(0);
    const first = parseRaw(text.slice(0, second));
    expect({ status: first.status, body: JSON.parse(first.body.slice(0, Number(first.headers["content-length"]))) as unknown }).toEqual({
      status: 200,
      body: { status: "ok" },
    });
    const refusal = parseRaw(text.slice(second));
    expect({ status: refusal.status, body: JSON.parse(refusal.body) as unknown }).toEqual({
      status: 400,
      body: jsonError("malformed request: unknown HTTP method", "BAD_REQUEST"),
    });
  });

  it("HEAD /health needs no api key, like GET; HEAD elsewhere still does", async () => {
    const head = await fetch(`http://127.0.0.1:${server.port}/health`, { method: "HEAD" });
    expect(head.status).toBe(200);
    const introspect = await fetch(`http://127.0.0.1:${server.port}/introspect`, { method: "HEAD" });
    expect(introspect.status).toBe(401);
    const get = await fetch(`http://127.0.0.1:${server.port}/introspect`);
    expect({ status: get.status, body: await get.json() }).toEqual({
      status: 401,
      body: jsonError("missing x-api-key header", "UNAUTHORIZED"),
    });
  });
});

describe("MCP JSON-RPC requests with invalid params", () => {
  it("are answered -32602 with the first problem, not -32603 with a zod dump", async () => {
    const f = await openFixture();
    try {
      const rpc = async (id: number, method: string, params: unknown): Promise<unknown> => {
        const res = await f.app.request("/mcp", {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
          body: JSON.stringify({ jsonrpc: "2.0", id, method, params }),
        });
        return res.json();
      };
      const invalid = (id: number, message: string): unknown => ({ jsonrpc: "2.0", id, error: { code: -32602, message } });
      expect(await rpc(1, "tools/call", {})).toEqual(
        invalid(1, "invalid params of tools/call: 'params.name': expected string, received undefined"),
      );
      expect(await rpc(2, "tools/call", { name: "init", arguments: 5 })).toEqual(
        invalid(2, "invalid params of tools/call: 'params.arguments': expected record, received number"),
      );
      expect(await rpc(3, "tools/list", { cursor: 5 })).toEqual(
        invalid(3, "invalid params of tools/list: 'params.cursor': expected string, received number"),
      );
      expect(await rpc(4, "initialize", {})).toEqual(
        invalid(4, "invalid params of initialize: 'params.protocolVersion': expected string, received undefined"),
      );
      // Valid params still reach the tools.
      expect(await rpc(5, "tools/call", { name: "close", arguments: { connection_id: "nope" } })).toEqual({
        jsonrpc: "2.0",
        id: 5,
        result: {
          content: [
            {
              type: "text",
              text: JSON.stringify(
                jsonError("unknown connection_id 'nope' (never created, or expired after being idle)", "UNKNOWN_CONNECTION"),
              ),
            },
          ],
          isError: true,
        },
      });
    } finally {
      await f.close();
    }
  });
});

describe("SIGTERM under keep-alive load", () => {
  it("finishes the request in flight, closes the idle kept-alive connection, and exits well before the 10 s force-close", async () => {
    const server = await startStrand();
    const idle = connect(server.port, "127.0.0.1");
    const busy = connect(server.port, "127.0.0.1");
    try {
      // A kept-alive connection with no request in flight.
      const idleClosed = new Promise<void>((resolve) => idle.once("close", () => resolve()));
      const first = nextResponse(idle);
      idle.write("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n");
      expect((await first).status).toBe(200);
      // A request in flight: headers and half its body sent.
      const answer = nextResponse(busy);
      const busyClosed = new Promise<void>((resolve) => busy.once("close", () => resolve()));
      busy.write("POST /mcp/init HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{");
      await new Promise((r) => setTimeout(r, 200));
      const started = Date.now();
      const exited = new Promise<number | null>((resolve) => server.child.once("exit", (code) => resolve(code)));
      server.child.kill("SIGTERM");
      await idleClosed;
      await new Promise((r) => setTimeout(r, 200));
      busy.write("}");
      const reply = await answer;
      expect(reply.status).toBe(200);
      expect(reply.headers.connection).toBe("close");
      expect(typeof JSON.parse(reply.body)).toBe("string");
      await busyClosed;
      expect(await exited).toBe(0);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      idle.destroy();
      busy.destroy();
      await server.stop();
    }
  }, 30_000);
});
