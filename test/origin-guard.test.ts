// Issue #13 item 6: a web page of another origin cannot call a local Strand (no CSRF, no DNS
// rebinding), unless the operator allows that origin with --cors, which then gets proper CORS answers.
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isLoopbackHost, normalOrigin } from "../server/http/origin-guard.js";
import { type RunningServer, startServer } from "../server/server.js";
import { type McpFixture, openFixture, queries, schema } from "./support/mcp-fixture.js";
import { startStrand } from "./support/server.js";

interface Answer {
  status: number;
  headers: Record<string, string | undefined>;
  body: unknown;
  /** access-control-expose-headers */
  exposed?: string | undefined;
}

function call(port: number, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method, path, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8").on("data", (d: string) => (text += d));
      res.on("end", () => {
        const h: Record<string, string | undefined> = {};
        for (const name of ["access-control-allow-origin", "access-control-allow-methods", "access-control-allow-headers", "vary"]) {
          const v = res.headers[name];
          h[name] = Array.isArray(v) ? v.join(", ") : v;
        }
        const exposed = res.headers["access-control-expose-headers"];
        resolve({ status: res.statusCode ?? 0, headers: h, body: text === "" ? null : (JSON.parse(text) as unknown), exposed });
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}

const JSON_TYPE = { "content-type": "application/json" };
const COUNT = "/mcp/init";

describe("a loopback server without an api key", () => {
  let f: McpFixture;
  let server: RunningServer;
  beforeAll(async () => {
    f = await openFixture();
    server = await startServer({ store: f.store, schema, queries, port: 0 });
  });
  afterAll(async () => {
    await server.close();
    await f.close();
  });

  it("answers clients that send no Origin (curl, helix-ts, helix-py) and same-origin pages", async () => {
    const host = `localhost:${server.port}`;
    expect((await call(server.port, "POST", COUNT, { ...JSON_TYPE, host }, "{}")).status).toBe(200);
    const same = await call(server.port, "POST", COUNT, { ...JSON_TYPE, host, origin: `http://${host}` }, "{}");
    expect(same.status).toBe(200);
    expect(same.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("refuses a page of another origin, naming it and the flag that allows it", async () => {
    const answer = await call(
      server.port,
      "POST",
      COUNT,
      { ...JSON_TYPE, host: `127.0.0.1:${server.port}`, origin: "https://evil.example" },
      "{}",
    );
    expect(answer).toEqual({
      status: 403,
      headers: {
        "access-control-allow-origin": undefined,
        "access-control-allow-methods": undefined,
        "access-control-allow-headers": undefined,
        vary: "Origin",
      },
      body: {
        error: "requests from the web page at https://evil.example are refused; allow that origin with --cors https://evil.example",
        code: "FORBIDDEN_ORIGIN",
      },
    });
    // A preflight from it gets no CORS headers either, so the browser never sends the real request.
    const preflight = await call(server.port, "OPTIONS", COUNT, {
      host: `localhost:${server.port}`,
      origin: "https://evil.example",
      "access-control-request-method": "POST",
    });
    expect(preflight.status).toBe(403);
    expect(preflight.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("refuses a Host that is not a loopback name (DNS rebinding), even same-origin", async () => {
    const host = `rebind.evil.example:${server.port}`;
    const answer = await call(server.port, "POST", COUNT, { ...JSON_TYPE, host, origin: `http://${host}` }, "{}");
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({
      error: `Host "${host}" is not a loopback name: a server on a loopback address without an api key answers only localhost names (a guard against DNS rebinding); set --api-key or bind with --host`,
      code: "FORBIDDEN_HOST",
    });
  });
});

describe("--cors", () => {
  let f: McpFixture;
  let server: RunningServer;
  beforeAll(async () => {
    f = await openFixture();
    server = await startServer({ store: f.store, schema, queries, port: 0, corsOrigins: ["https://app.example"] });
  });
  afterAll(async () => {
    await server.close();
    await f.close();
  });

  it("answers an allowed origin's preflight and marks its responses", async () => {
    const headers = { host: `localhost:${server.port}`, origin: "https://app.example" };
    const preflight = await call(server.port, "OPTIONS", COUNT, {
      ...headers,
      "access-control-request-method": "POST",
      "access-control-request-headers": "content-type",
    });
    expect(preflight).toEqual({
      status: 204,
      headers: {
        "access-control-allow-origin": "https://app.example",
        "access-control-allow-methods": "GET, HEAD, POST, OPTIONS",
        "access-control-allow-headers": "content-type, x-api-key, authorization, strand-after, idempotency-key",
        vary: "Origin",
      },
      body: null,
    });
    const post = await call(server.port, "POST", COUNT, { ...JSON_TYPE, ...headers }, "{}");
    expect(post.status).toBe(200);
    expect(post.headers["access-control-allow-origin"]).toBe("https://app.example");
    expect(post.exposed).toBe("strand-commit, idempotent-replayed");
    // Errors carry the header too, so the page can read why.
    const bad = await call(server.port, "POST", "/NoSuchQuery", { ...JSON_TYPE, ...headers }, "{}");
    expect(bad.status).toBe(404);
    expect(bad.headers["access-control-allow-origin"]).toBe("https://app.example");
  });

  it("still refuses origins not in the list", async () => {
    const answer = await call(
      server.port,
      "POST",
      COUNT,
      { ...JSON_TYPE, host: `localhost:${server.port}`, origin: "https://other.example" },
      "{}",
    );
    expect(answer.status).toBe(403);
  });
});

describe("origin helpers", () => {
  it("normalise origins and recognise loopback host names", () => {
    expect(normalOrigin("https://App.Example:443/")).toBe("https://app.example");
    expect(normalOrigin("null")).toBeUndefined();
    expect(normalOrigin("file:///x")).toBeUndefined();
    expect(["localhost:6969", "127.0.0.1", "127.9.9.9:1", "[::1]:6969", "a.localhost"].map(isLoopbackHost)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(["example.com", "127.0.0.1.evil.com", "0.0.0.0:6969", "", "10.0.0.1"].map(isLoopbackHost)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe("strand serve --cors", () => {
  it("passes the origins to the server (comma-separated)", async () => {
    const s = await startStrand({ extraArgs: ["--cors", "https://a.example,https://b.example"] });
    try {
      const port = s.port;
      for (const origin of ["https://a.example", "https://b.example"]) {
        const post = await call(port, "POST", "/CountUsers", { ...JSON_TYPE, host: `localhost:${port}`, origin }, "{}");
        expect(post.headers["access-control-allow-origin"]).toBe(origin);
      }
      const refused = await call(
        port,
        "POST",
        "/CountUsers",
        { ...JSON_TYPE, host: `localhost:${port}`, origin: "https://c.example" },
        "{}",
      );
      expect(refused.status).toBe(403);
    } finally {
      await s.stop();
    }
  }, 60_000);
});
