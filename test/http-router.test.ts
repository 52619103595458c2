// Which of Hono's routers serves the app. Its default SmartRouter takes the fast RegExpRouter only
// when that can compile every route, else the TrieRouter, for every request: the app keeps the
// routes it can compile (server/app.ts), on a default local server (explorer on) as with the
// explorer off, with metrics, the backup and the replication endpoints as `strand serve` has them.
import type { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp, type AppOptions } from "../server/app.js";
import { ServerMetrics } from "../server/observe/metrics.js";
import type { ReplicationNode } from "../server/replication/node.js";
import { type McpFixture, openFixture, queries, schema } from "./support/mcp-fixture.js";

let f: McpFixture;
beforeAll(async () => {
  f = await openFixture();
});
afterAll(() => f.close());

/** The router's name after it has served `POST /CountUsers`, and that request's status. */
async function routerServingQueries(options: Partial<AppOptions>, headers: Record<string, string> = {}) {
  const app: Hono = createApp({ store: f.store, schema, queries, ...options });
  const res = await app.request("/CountUsers", {
    method: "POST",
    headers: { "content-type": "application/json", host: "127.0.0.1:6969", ...headers },
    body: "{}",
  });
  return { router: app.router.name, status: res.status };
}

const node: ReplicationNode = {
  log: () => ({ committed: 0, oldest: () => null, timeOf: () => null, read: () => "gone", waitFor: () => Promise.resolve(true) }),
  backup: () => Promise.reject(new Error("no backup here")),
  identity: { format: 2, schemaVersion: null, fingerprint: "0123456789abcdef", strand: "test" },
  following: () => null,
  key: undefined,
  afterTimeoutMs: 1000,
};

describe("POST /<query> is served by Hono's RegExpRouter", () => {
  const fast = { router: "SmartRouter + RegExpRouter", status: 200 };

  it("on a default local server: explorer on, no api key, loopback hosts only", async () => {
    expect(await routerServingQueries({ explorer: true, loopbackHostsOnly: true })).toEqual(fast);
  });

  it("with the explorer off", async () => {
    expect(await routerServingQueries({ explorer: false })).toEqual(fast);
  });

  it("with every route strand serve adds: metrics, backup, replication, and an api key", async () => {
    const all: Partial<AppOptions> = {
      explorer: true,
      metrics: new ServerMetrics(),
      backup: { backup: () => Promise.reject(new Error("no backup here")) },
      replication: node,
      apiKey: "k",
    };
    expect(await routerServingQueries(all, { "x-api-key": "k" })).toEqual(fast);
  });
});
