// Issue #13 items 4 and 5: one structured log line per request (with its id and client; /health
// at debug), and GET /metrics in the Prometheus text format with the build, request counts per
// route, status and error code and latencies per route and status, store figures, /mcp
// connections and the process's own memory and CPU. Each answer carries its x-request-id.
// Embedding and replication metrics: observe-embedding.test.ts, observe-replication.test.ts.
import { readFileSync } from "node:fs";
import { request } from "node:http";
import { connect, type Socket } from "node:net";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger, prettyLine } from "../server/observe/logger.js";
import { ServerMetrics } from "../server/observe/metrics.js";
import { requestId } from "../server/observe/request-id.js";
import { errorCodeOfBody, type RequestRecord, requestRecorder } from "../server/observe/request-observer.js";
import { routeLabel } from "../server/observe/route-label.js";
import { type RunningServer, startServer } from "../server/server.js";
import { parseCommand } from "../cli/commands/args.js";
import { type McpFixture, openFixture, queries, schema } from "./support/mcp-fixture.js";
import { samples } from "./support/metrics-text.js";
import { startStrand } from "./support/server.js";

function collect(): { stream: PassThrough; lines: () => Record<string, unknown>[] } {
  const stream = new PassThrough();
  let text = "";
  stream.on("data", (d: Buffer) => {
    text += d.toString("utf8");
  });
  return {
    stream,
    lines: () =>
      text
        .split("\n")
        .filter((l) => l !== "")
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

async function post(server: RunningServer, path: string, body: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`http://127.0.0.1:${server.port}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("request logs and metrics of a running server", () => {
  let f: McpFixture;
  let server: RunningServer;
  const log = collect();
  /** The x-request-id of each answer, in the order of the requests. */
  const ids: string[] = [];

  beforeAll(async () => {
    f = await openFixture();
    // At debug: /health's line is there, at its level.
    const logger = createLogger({ level: "debug", pretty: false, stream: log.stream });
    server = await startServer({ store: f.store, schema, queries, port: 0, logger });
    const answered = async (res: Response): Promise<void> => {
      await res.text();
      ids.push(res.headers.get("x-request-id") ?? "(none)");
    };
    await answered(await post(server, "/UsersInCity", '{"city":"London"}', { "x-request-id": "trace-1.a:b/c+d=e@f~g_h" }));
    await answered(await post(server, "/UsersInCity", '{"city":"Paris"}'));
    await answered(await post(server, "/UsersInCity", "{}", { "x-request-id": "has spaces" }));
    await answered(await post(server, "/mcp/init", "{}", { "x-request-id": "x".repeat(129) }));
    await answered(await post(server, "/no/such/path", "{}", { "x-request-id": "x".repeat(128) }));
    await answered(await post(server, "/NoSuchQuery", "{}"));
    await answered(await fetch(`http://127.0.0.1:${server.port}/health`, { headers: { "x-request-id": "probe-7" } }));
    // Answered by the front door itself (a Host header it cannot use).
    await new Promise<void>((resolve, reject) => {
      const headers = { host: "bad host", "x-request-id": "bad-host-1" };
      const req = request({ port: server.port, path: "/CountUsers", method: "POST", headers }, (res) => {
        ids.push(String(res.headers["x-request-id"]));
        res.resume();
        res.on("end", resolve);
      });
      req.on("error", reject);
      req.end("{}");
    });
  });

  afterAll(async () => {
    await server.close();
    await f.close();
  });

  it("answers with the client's x-request-id when plausible, a fresh UUID otherwise", () => {
    expect(ids.slice(0, 2)).toEqual(["trace-1.a:b/c+d=e@f~g_h", expect.stringMatching(UUID)]);
    // Spaces, and 129 characters: replaced. 128 characters pass.
    expect(ids.slice(2, 4)).toEqual([expect.stringMatching(UUID), expect.stringMatching(UUID)]);
    expect(ids.slice(4)).toEqual(["x".repeat(128), expect.stringMatching(UUID), "probe-7", "bad-host-1"]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("writes one JSON line per request: method, path, route, status, duration, bytes, id and client; /health at debug", async () => {
    await new Promise((r) => setTimeout(r, 50));
    const requests = log.lines().map(({ time, ms, ...rest }) => {
      expect(typeof time).toBe("string");
      expect(typeof ms).toBe("number");
      return rest;
    });
    const body400 = JSON.stringify({ error: "missing required parameter 'city'", code: "MISSING_PARAMETER" });
    const client = "127.0.0.1";
    expect(requests).toEqual([
      {
        level: "info",
        method: "POST",
        path: "/UsersInCity",
        route: "UsersInCity",
        status: 200,
        bytes: expect.any(Number),
        reqId: ids[0],
        client,
        msg: "request",
      },
      {
        level: "info",
        method: "POST",
        path: "/UsersInCity",
        route: "UsersInCity",
        status: 200,
        bytes: expect.any(Number),
        reqId: ids[1],
        client,
        msg: "request",
      },
      {
        level: "info",
        method: "POST",
        path: "/UsersInCity",
        route: "UsersInCity",
        status: 400,
        code: "MISSING_PARAMETER",
        bytes: Buffer.byteLength(body400),
        reqId: ids[2],
        client,
        msg: "request",
      },
      {
        level: "info",
        method: "POST",
        path: "/mcp/init",
        route: "/mcp/init",
        status: 200,
        bytes: expect.any(Number),
        reqId: ids[3],
        client,
        msg: "request",
      },
      {
        level: "info",
        method: "POST",
        path: "/no/such/path",
        route: "unmatched",
        status: 404,
        code: "NOT_FOUND",
        bytes: expect.any(Number),
        reqId: ids[4],
        client,
        msg: "request",
      },
      {
        level: "info",
        method: "POST",
        path: "/NoSuchQuery",
        route: "unmatched",
        status: 404,
        code: "UNKNOWN_QUERY",
        bytes: expect.any(Number),
        reqId: ids[5],
        client,
        msg: "request",
      },
      {
        level: "debug",
        method: "GET",
        path: "/health",
        route: "/health",
        status: 200,
        bytes: 15,
        reqId: "probe-7",
        client,
        msg: "request",
      },
      {
        level: "info",
        method: "POST",
        path: "/CountUsers",
        route: "CountUsers",
        status: 400,
        code: "BAD_REQUEST",
        bytes: expect.any(Number),
        reqId: "bad-host-1",
        client,
        msg: "request",
      },
    ]);
  });

  it("counts requests per route and status, and reports the store and /mcp", async () => {
    const res = await fetch(`http://127.0.0.1:${server.port}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    const text = await res.text();
    const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };
    // This checkout's package.json has no gitHead (npm writes one into a packed package): no commit label.
    expect(samples(text, "strand_build_info")).toEqual([`strand_build_info{version="${version}",node="${process.version}"} 1`]);
    expect(samples(text, "strand_http_requests_total")).toEqual([
      'strand_http_requests_total{route="UsersInCity",status="200",code="none"} 2',
      'strand_http_requests_total{route="UsersInCity",status="400",code="MISSING_PARAMETER"} 1',
      'strand_http_requests_total{route="/mcp/init",status="200",code="none"} 1',
      'strand_http_requests_total{route="unmatched",status="404",code="NOT_FOUND"} 1',
      'strand_http_requests_total{route="unmatched",status="404",code="UNKNOWN_QUERY"} 1',
      'strand_http_requests_total{route="/health",status="200",code="none"} 1',
      'strand_http_requests_total{route="CountUsers",status="400",code="BAD_REQUEST"} 1',
    ]);
    expect(samples(text, "strand_http_request_duration_seconds_count")).toEqual([
      'strand_http_request_duration_seconds_count{route="UsersInCity",status="200"} 2',
      'strand_http_request_duration_seconds_count{route="UsersInCity",status="400"} 1',
      'strand_http_request_duration_seconds_count{route="/mcp/init",status="200"} 1',
      'strand_http_request_duration_seconds_count{route="unmatched",status="404"} 2',
      'strand_http_request_duration_seconds_count{route="/health",status="200"} 1',
      'strand_http_request_duration_seconds_count{route="CountUsers",status="400"} 1',
    ]);
    expect(samples(text, "strand_records")).toEqual([
      'strand_records{kind="N",type="User"} 4',
      'strand_records{kind="N",type="Post"} 3',
      'strand_records{kind="E",type="Follows"} 4',
      'strand_records{kind="E",type="Wrote"} 3',
    ]);
    expect(samples(text, "strand_mcp_connections")).toEqual(["strand_mcp_connections 1"]);
    expect(samples(text, "strand_store_file_bytes")[0]).toMatch(/^strand_store_file_bytes \d+$/);
    expect(text).toContain("\nprocess_resident_memory_bytes ");
    expect(text).toContain("\nprocess_cpu_seconds_total ");
  });
});

describe("/metrics behind an api key", () => {
  it("needs the key, as x-api-key or Authorization: Bearer (what Prometheus sends)", async () => {
    const f = await openFixture();
    const server = await startServer({ store: f.store, schema, queries, port: 0, apiKey: "k3y" });
    try {
      const url = `http://127.0.0.1:${server.port}/metrics`;
      expect((await fetch(url)).status).toBe(401);
      expect((await fetch(url, { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
      expect((await fetch(url, { headers: { authorization: "Bearer k3y" } })).status).toBe(200);
      expect((await fetch(url, { headers: { "x-api-key": "k3y" } })).status).toBe(200);
    } finally {
      await server.close();
      await f.close();
    }
  });

  it("is a 404 when the server keeps no metrics", async () => {
    const f = await openFixture();
    const server = await startServer({ store: f.store, schema, queries, port: 0, keepMetrics: false });
    try {
      expect((await fetch(`http://127.0.0.1:${server.port}/metrics`)).status).toBe(404);
    } finally {
      await server.close();
      await f.close();
    }
  });
});

describe("log and route helpers", () => {
  it("labels routes by query name, built-in path or tool, and one bucket for the rest", () => {
    const names = { queries: new Set(["AddUser"]), mcpTools: new Set(["init"]) };
    expect(
      [
        "/AddUser",
        "/AddUser?x=1",
        "/health",
        "/metrics",
        "/mcp/init",
        "/mcp/nope",
        "/Nope",
        "/a/b",
        "/replication/log?after=3&wait=5000",
      ].map((u) => routeLabel(u, names)),
    ).toEqual(["AddUser", "AddUser", "/health", "/metrics", "/mcp/init", "unmatched", "unmatched", "unmatched", "/replication/log"]);
  });

  it("takes a plausible x-request-id as the request's id and replaces anything else with a UUID", () => {
    const kept = ["abc-123", "0af7651916cd43dd8448eb211c80319c", "Root=1-5759e988:bd86/2e3f+x=@~_.", "x".repeat(128)];
    expect(kept.map(requestId)).toEqual(kept);
    // Absent, empty, a space, two headers (Node joins them with ", "), non-ASCII, quotes, too long.
    const replaced = [undefined, "", "a b", "a, b", ["a", "b"], "é", 'a"b', "a;b", "x".repeat(129)];
    expect(replaced.map(requestId)).toEqual(replaced.map(() => expect.stringMatching(UUID)));
  });

  it("renders a readable line on a terminal", () => {
    const line = JSON.stringify({
      level: "info",
      time: "2026-11-26T04:48:45.103Z",
      method: "POST",
      path: "/AddUser",
      status: 200,
      msg: "request",
    });
    expect(prettyLine(line)).toBe("04:48:45.103 INFO  request method=POST path=/AddUser status=200");
  });

  it("drops request lines below the level", async () => {
    const out = collect();
    const logger = createLogger({ level: "warn", pretty: false, stream: out.stream });
    logger.info({ a: 1 }, "hidden");
    logger.warn({ a: 2 }, "shown");
    await new Promise((r) => setTimeout(r, 10));
    expect(out.lines().map(({ time: _t, ...rest }) => rest)).toEqual([{ level: "warn", a: 2, msg: "shown" }]);
  });
});

describe("the level of a request's line", () => {
  const answered = (status: number, code: string | null, url = "/CountUsers"): RequestRecord => ({
    method: "POST",
    url,
    status,
    seconds: 0.0015,
    bytes: 40,
    code,
    reqId: "r-1",
    client: "::1",
  });
  const names = { queries: new Set(["CountUsers"]), mcpTools: new Set<string>() };

  it("is warn for a server shedding load or waiting, error for a failure, info below 500", async () => {
    const out = collect();
    const record = requestRecorder({ logger: createLogger({ level: "info", pretty: false, stream: out.stream }), metrics: null, names });
    record(answered(200, null));
    record(answered(404, "NOT_FOUND"));
    record(answered(503, "SERVER_BUSY"));
    record(answered(503, "QUERY_TIMEOUT"));
    record(answered(503, "REPLICA_BEHIND"));
    record(answered(503, "ENGINE_STALLED"));
    record(answered(503, "STORAGE_ERROR"));
    record(answered(500, "INTERNAL"));
    record(answered(502, null));
    await new Promise((r) => setTimeout(r, 10));
    expect(out.lines().map(({ level, status, code }) => [level, status, code])).toEqual([
      ["info", 200, undefined],
      ["info", 404, "NOT_FOUND"],
      ["warn", 503, "SERVER_BUSY"],
      ["warn", 503, "QUERY_TIMEOUT"],
      ["warn", 503, "REPLICA_BEHIND"],
      ["warn", 503, "ENGINE_STALLED"],
      ["error", 503, "STORAGE_ERROR"],
      ["error", 500, "INTERNAL"],
      ["error", 502, undefined],
    ]);
    expect(out.lines()[2]).toEqual({
      level: "warn",
      time: expect.any(String),
      method: "POST",
      path: "/CountUsers",
      route: "CountUsers",
      status: 503,
      code: "SERVER_BUSY",
      ms: 1.5,
      bytes: 40,
      reqId: "r-1",
      client: "::1",
      msg: "request",
    });
  });

  it("is debug for /health below 400 (probes), so --log-level info leaves probes out", async () => {
    const lines = async (level: "debug" | "info"): Promise<unknown[][]> => {
      const out = collect();
      const record = requestRecorder({ logger: createLogger({ level, pretty: false, stream: out.stream }), metrics: null, names });
      record(answered(200, null, "/health"));
      record(answered(200, null, "/health?deep=1"));
      record(answered(403, "FORBIDDEN_HOST", "/health"));
      record(answered(503, "ENGINE_STALLED", "/health"));
      record(answered(200, null));
      await new Promise((r) => setTimeout(r, 10));
      return out.lines().map(({ level, route, status }) => [level, route, status]);
    };
    expect(await lines("debug")).toEqual([
      ["debug", "/health", 200],
      ["debug", "/health", 200],
      ["info", "/health", 403],
      ["warn", "/health", 503],
      ["info", "CountUsers", 200],
    ]);
    expect(await lines("info")).toEqual([
      ["info", "/health", 403],
      ["warn", "/health", 503],
      ["info", "CountUsers", 200],
    ]);
  });

  it("labels each count with its error code, none without one, other for a code no server answers with", async () => {
    const metrics = new ServerMetrics({ build: { version: "9.9.9", node: "v20.0.0", commit: "0123abc" } });
    const record = requestRecorder({ logger: createLogger({ level: "silent" }), metrics, names });
    record(answered(200, null));
    record(answered(503, "SERVER_BUSY"));
    record(answered(503, "SERVER_BUSY"));
    record(answered(418, "TEAPOT"));
    record(answered(502, null));
    const text = await metrics.render();
    expect(samples(text, "strand_http_requests_total")).toEqual([
      'strand_http_requests_total{route="CountUsers",status="200",code="none"} 1',
      'strand_http_requests_total{route="CountUsers",status="503",code="SERVER_BUSY"} 2',
      'strand_http_requests_total{route="CountUsers",status="418",code="other"} 1',
      'strand_http_requests_total{route="CountUsers",status="502",code="none"} 1',
    ]);
    expect(samples(text, "strand_build_info")).toEqual(['strand_build_info{version="9.9.9",node="v20.0.0",commit="0123abc"} 1']);
  });

  it("keeps busy answers out at --log-level error, and failures in", async () => {
    const out = collect();
    const record = requestRecorder({ logger: createLogger({ level: "error", pretty: false, stream: out.stream }), metrics: null, names });
    record(answered(503, "SERVER_BUSY"));
    record(answered(503, "STORAGE_ERROR"));
    await new Promise((r) => setTimeout(r, 10));
    expect(out.lines().map(({ level, code }) => [level, code])).toEqual([["error", "STORAGE_ERROR"]]);
  });

  it("reads the code of an error body, in one piece or several", () => {
    const body = new TextEncoder().encode(JSON.stringify({ error: "a limit of 1 MiB … would be passed", code: "SERVER_BUSY" }));
    expect(errorCodeOfBody([body])).toBe("SERVER_BUSY");
    // Split inside the multi-byte "…".
    const cut = body.indexOf(0xe2) + 1;
    expect(errorCodeOfBody([body.subarray(0, cut), body.subarray(cut)])).toBe("SERVER_BUSY");
    expect(errorCodeOfBody([])).toBeNull();
    expect(errorCodeOfBody([new TextEncoder().encode("not json")])).toBeNull();
    expect(errorCodeOfBody([new TextEncoder().encode('{"code":7}')])).toBeNull();
    expect(errorCodeOfBody([new TextEncoder().encode('["SERVER_BUSY"]')])).toBeNull();
    expect(errorCodeOfBody([new Uint8Array(16 * 1024 + 1).fill(0x20)])).toBeNull();
  });
});

describe("strand serve logs", () => {
  it("says what it opened and logs each request as JSON on stderr", async () => {
    const s = await startStrand();
    try {
      await fetch(`${s.url}/CountUsers`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
      await new Promise((r) => setTimeout(r, 200));
      const lines = s
        .output()
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines.find((l) => l.msg === "opened store")).toMatchObject({ level: "info", nodes: 0, vectors: 0, edges: 0 });
      expect(lines.find((l) => l.msg === "listening")).toMatchObject({ level: "info", queries: 22 });
      expect(lines.find((l) => l.route === "CountUsers")).toMatchObject({ method: "POST", path: "/CountUsers", status: 200, bytes: 11 });
    } finally {
      await s.stop();
    }
  }, 60_000);

  it("--log-level warn keeps request lines out", async () => {
    const quiet = await startStrand({ extraArgs: ["--log-level", "warn"] });
    try {
      await fetch(`${quiet.url}/CountUsers`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
      await new Promise((r) => setTimeout(r, 200));
      expect(quiet.output()).not.toContain('"msg":"request"');
    } finally {
      await quiet.stop();
    }
  }, 60_000);

  it("writes the front door's own lines (a refused connection) as JSON at warn, and drops them at --log-level error", async () => {
    /** The lines of a server allowing one connection per client, after a second connection was refused. */
    const linesAfterRefusal = async (level: string): Promise<Record<string, unknown>[]> => {
      const s = await startStrand({ extraArgs: ["--log-level", level, "--max-connections-per-client", "1"] });
      const { port } = new URL(s.url);
      const held = await openSocket(Number(port));
      try {
        const refused = await openSocket(Number(port));
        const answer = await new Promise<string>((resolve) => {
          let text = "";
          refused.setEncoding("utf8").on("data", (d: string) => (text += d));
          refused.on("close", () => resolve(text));
        });
        expect(answer.split("\r\n")[0]).toBe("HTTP/1.1 429 Too Many Requests");
        await new Promise((r) => setTimeout(r, 200));
        return s
          .output()
          .split("\n")
          .filter((l) => l.startsWith("{"))
          .map((l) => JSON.parse(l) as Record<string, unknown>);
      } finally {
        held.destroy();
        await s.stop();
      }
    };
    const warned = (await linesAfterRefusal("warn")).filter((l) => String(l.msg).startsWith("refused a connection"));
    expect(warned.map(({ level, msg }) => ({ level, msg }))).toEqual([
      { level: "warn", msg: "refused a connection from 127.0.0.1: it holds 1 open, its limit (max_connections_per_client)" },
    ]);
    expect((await linesAfterRefusal("error")).filter((l) => String(l.msg).startsWith("refused a connection"))).toEqual([]);
  }, 60_000);

  it("refuses a log level or origin it does not know", () => {
    expect(() => parseCommand(["serve", "--log-level", "loud"], {})).toThrow(
      '--log-level must be one of fatal, error, warn, info, debug, trace, silent, got "loud"',
    );
    expect(() => parseCommand(["serve", "--cors", "app.example"], {})).toThrow(
      '--cors takes comma-separated origins like https://app.example:8443 (scheme, host, optional port) or *, got "app.example"',
    );
    expect(parseCommand(["serve"], { STRAND_LOG_LEVEL: "debug", STRAND_CORS: "https://a.example" })).toMatchObject({
      flags: { server: { logLevel: "debug", corsOrigins: ["https://a.example"] } },
    });
  });
});

/** A TCP connection to the server on 127.0.0.1, once it is open. */
function openSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => resolve(socket));
    socket.on("error", reject);
  });
}
