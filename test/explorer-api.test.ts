// The explorer's read-only API (server/explorer/api.ts) and how /explorer is served: assets public,
// data behind the api key, off unless enabled.
import type { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../server/app.js";
import { type McpFixture, openFixture, queries, schema } from "./support/mcp-fixture.js";

let f: McpFixture;
let app: Hono;
beforeAll(async () => {
  f = await openFixture();
  app = createApp({ store: f.store, schema, queries, explorer: true });
});
afterAll(() => f.close());

async function post(path: string, body: unknown, target: Hono = app, headers: Record<string, string> = {}) {
  const res = await target.request(path, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as unknown };
}

const names = (items: { name?: unknown; title?: unknown }[]) => items.map((i) => i.name ?? i.title);

describe("POST /explorer/api/nodes", () => {
  it("pages a type in id order and says whether more follow", async () => {
    const first = (await post("/explorer/api/nodes", { label: "User", limit: 3 })).body as { items: { name: string }[]; more: boolean };
    expect({ names: names(first.items), more: first.more }).toEqual({ names: ["ada", "bob", "cyd"], more: true });
    const second = (await post("/explorer/api/nodes", { label: "User", offset: 3, limit: 3 })).body as {
      items: { name: string }[];
      more: boolean;
    };
    expect({ names: names(second.items), more: second.more }).toEqual({ names: ["dee"], more: false });
    expect((await post("/explorer/api/nodes", { label: "User" })).body).toEqual({
      items: [f.data.ada, f.data.bob, f.data.cyd, f.data.dee],
      more: false,
    });
  });

  it("filters by a field (or any field) containing the text, case-insensitively", async () => {
    const inLondon = (await post("/explorer/api/nodes", { label: "User", field: "city", contains: "lon" })).body as {
      items: { name: string }[];
    };
    expect(names(inLondon.items)).toEqual(["ada", "cyd"]);
    const anyField = (await post("/explorer/api/nodes", { label: "User", contains: "POETRY" })).body as { items: { name: string }[] };
    expect(names(anyField.items)).toEqual(["ada"]);
    const byNumber = (await post("/explorer/api/nodes", { label: "User", field: "age", contains: "52" })).body as {
      items: { name: string }[];
    };
    expect(names(byNumber.items)).toEqual(["cyd"]);
  });

  it("names what is wrong", async () => {
    expect(await post("/explorer/api/nodes", { label: "Nope" })).toEqual({
      status: 400,
      body: { error: 'label: no node or vector type "Nope" in the schema', code: "INVALID_PARAMETER" },
    });
    expect(await post("/explorer/api/nodes", { label: "User", limit: 0 })).toEqual({
      status: 400,
      body: { error: "limit: expected an integer from 1 to 1000", code: "INVALID_PARAMETER" },
    });
    expect(await post("/explorer/api/nodes", {})).toEqual({
      status: 400,
      body: { error: "label: expected a non-empty string", code: "INVALID_PARAMETER" },
    });
    expect(await post("/explorer/api/nodes", [1])).toEqual({
      status: 400,
      body: { error: "request body must be a JSON object", code: "INVALID_BODY" },
    });
  });
});

describe("POST /explorer/api/neighbours", () => {
  it("answers the node, the edges at it of every edge type, and the items at their other ends", async () => {
    const { ada, bob, cyd, dee, notes, follows, wrote } = f.data;
    expect((await post("/explorer/api/neighbours", { id: ada.id })).body).toEqual({
      center: ada,
      nodes: [bob, cyd, dee, notes],
      edges: [follows[0], follows[1], follows[3], wrote[0]],
    });
    expect((await post("/explorer/api/neighbours", { id: notes.id })).body).toEqual({ center: notes, nodes: [ada], edges: [wrote[0]] });
  });

  it("answers a hub's first `limit` edges: 150,000 edges at one node no longer overflow the stack (a 500)", async () => {
    const hub = await openFixture();
    try {
      const { ada, notes } = hub.data;
      const edges = await hub.store.write((db) => {
        const made = [];
        for (let i = 0; i < 150_000; i++) made.push(db.addEdge("Wrote", {}, ada.id, notes.id));
        return made;
      });
      const hubApp = createApp({ store: hub.store, schema, queries, explorer: true });
      const answer = await post("/explorer/api/neighbours", { id: notes.id, limit: 3 }, hubApp);
      expect(answer).toEqual({ status: 200, body: { center: notes, nodes: [ada], edges: [hub.data.wrote[0], edges[0], edges[1]] } });
    } finally {
      await hub.close();
    }
  }, 60_000);

  it("is a 404 for an unknown id", async () => {
    expect(await post("/explorer/api/neighbours", { id: "00000000-0000-7000-8000-000000000000" })).toEqual({
      status: 404,
      body: { error: 'no node or vector with id "00000000-0000-7000-8000-000000000000"', code: "NOT_FOUND" },
    });
  });
});

describe("serving /explorer", () => {
  it("serves the page, script and style without the key, and data only with it", async () => {
    const keyed = createApp({ store: f.store, schema, queries, explorer: true, apiKey: "k" });
    const page = await keyed.request("/explorer");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    // The page runs writes: no other site may frame it (clickjacking).
    expect([page.headers.get("x-frame-options"), page.headers.get("content-security-policy")]).toEqual(["DENY", "frame-ancestors 'none'"]);
    expect(await page.text()).toContain('<script type="module" src="/explorer/app.js"></script>');
    expect((await keyed.request("/explorer/app.js")).headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect((await keyed.request("/explorer/style.css")).status).toBe(200);
    expect((await post("/explorer/api/nodes", { label: "User" }, keyed)).status).toBe(401);
    expect((await post("/explorer/api/nodes", { label: "User" }, keyed, { "x-api-key": "k" })).status).toBe(200);
  });

  it("is a 404 when not enabled", async () => {
    const plain = createApp({ store: f.store, schema, queries });
    expect((await plain.request("/explorer")).status).toBe(404);
    expect((await post("/explorer/api/nodes", { label: "User" }, plain)).status).toBe(404);
  });
});
