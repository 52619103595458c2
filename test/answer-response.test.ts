// The engine's Response (server/front-door/answer-response.ts): an answer with a text or bytes body
// reaches the front door as those bytes, and everything Hono and our routes do with a Response
// gives what the real Response gives. Differential: the same Hono app answers each request once
// with the real Response installed and once with the engine's; status, headers and bytes agree.
import { Hono } from "hono";
import { afterEach, describe, expect, it } from "vitest";
import { answerParts, EngineResponse } from "../server/front-door/answer-response.js";

const RealResponse = globalThis.Response;
afterEach(() => {
  globalThis.Response = RealResponse;
});

function demoApp(): Hono {
  const app = new Hono();
  // Middleware that sets headers on the finished answer, as commit-headers.ts and origin-guard.ts do.
  app.use("*", async (c, next) => {
    await next();
    c.res.headers.set("strand-commit", "41");
  });
  app.get("/json", (c) => c.json({ a: [1, "é"], b: null }));
  app.get("/text", (c) => c.text("plain ✓"));
  app.get("/bytes", (c) => c.body(new Uint8Array([0, 1, 255]), 201, { "content-type": "application/octet-stream" }));
  app.get("/late-header", (c) => {
    c.header("content-type", "application/json");
    const res = c.body('{"x":1}');
    return res;
  });
  app.get("/after", async (c, next) => {
    await next();
    c.header("idempotent-replayed", "true");
  });
  app.get("/after", (c) => c.json({ replayed: true }, 202));
  app.get("/none", (c) => c.body(null, 204));
  app.get(
    "/raw",
    () =>
      new Response('{"raw":true}', {
        status: 404,
        headers: [
          ["Content-Type", "application/json"],
          ["X-Two", "a"],
        ],
      }),
  );
  app.get("/stream", () => new Response(new Blob(["from a blob"]).stream(), { headers: { "content-type": "text/plain" } }));
  app.get("/throws", () => {
    throw new Error("boom");
  });
  app.onError(
    () => new Response('{"error":"internal error","code":"INTERNAL"}', { status: 500, headers: { "content-type": "application/json" } }),
  );
  return app;
}

interface Seen {
  status: number;
  headers: Record<string, string>;
  body: number[];
}

async function seen(response: Response): Promise<Seen> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return { status: response.status, headers, body: [...new Uint8Array(await response.arrayBuffer())] };
}

/** What the engine sends: the parts when it can take them, else the real Response's stream. */
async function sent(response: Response): Promise<Seen & { whole: boolean }> {
  const parts = answerParts(response);
  if (parts === null) return { ...(await seen(response)), whole: false };
  const body = parts.body === null ? [] : [...(typeof parts.body === "string" ? new TextEncoder().encode(parts.body) : parts.body)];
  return { status: parts.status, headers: parts.headers, body, whole: true };
}

describe("the engine's Response", () => {
  it("answers every route of a Hono app with the real Response's status, headers and bytes", async () => {
    const paths = ["/json", "/text", "/bytes", "/late-header", "/after", "/none", "/raw", "/stream", "/throws"];
    const real: Seen[] = [];
    for (const path of paths) real.push(await seen(await demoApp().request(path)));
    globalThis.Response = EngineResponse;
    const engine: (Seen & { whole: boolean })[] = [];
    for (const path of paths) engine.push(await sent(await demoApp().request(path)));
    expect(engine.map(({ whole, ...rest }) => rest)).toEqual(real);
    // The stream's answer needed the real Response, and so did the answer Hono rebuilt from its
    // body stream for a header set after it was made (c.header after next(): our routes set
    // headers before the answer, or on c.res.headers).
    expect(engine.map((e) => e.whole)).toEqual([true, true, true, true, false, true, true, false, true]);
    expect(real[0]).toEqual({
      status: 200,
      headers: { "content-type": "application/json", "strand-commit": "41" },
      body: [...new TextEncoder().encode('{"a":[1,"é"],"b":null}')],
    });
  });

  it("is a Response, and a real Response is one of it", async () => {
    const answer = new EngineResponse("hi", { status: 201 });
    expect([answer instanceof RealResponse, answer instanceof EngineResponse, new RealResponse("x") instanceof EngineResponse]).toEqual([
      true,
      true,
      true,
    ]);
    expect([answer.status, answer.ok, answer.headers.get("content-type")]).toEqual([201, true, "text/plain;charset=UTF-8"]);
    expect(await answer.text()).toBe("hi");
    expect(answer.bodyUsed).toBe(true);
    // Once the real Response is built (its body read), the engine reads it as a Response.
    expect(answerParts(answer)).toBe(null);
  });

  it("refuses what the real constructor refuses, when it is built", () => {
    expect(() => new EngineResponse("x", { status: 99 })).toThrow(RangeError);
    expect(() => new EngineResponse("x", { status: 204 })).toThrow(TypeError);
    expect(() => new RealResponse("x", { status: 204 })).toThrow(TypeError);
  });

  it("leaves a header the real Response would refuse to the real Response (no parts)", () => {
    const answer = new EngineResponse("x", { headers: { "bad name": "1" } });
    expect(answerParts(answer)).toBe(null);
    expect(() => answer.headers).toThrow(TypeError);
    expect(answerParts(new EngineResponse("x", { headers: { "x-a": " padded " } }))).toBe(null);
  });
});
