// A small social graph for the /mcp tests: a schema, hand-written query modules (two of them
// #[mcp]), deterministic seed data written through a real GraphStore in a temp dir, and helpers
// that POST to an in-process app and return status + parsed JSON.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Hono } from "hono";
import { expect } from "vitest";
import { createApp, type AppOptions } from "../../server/index.js";
import type { EdgeItem, NodeItem } from "../../core/items.js";
import type { QueryModule } from "../../core/query-module.js";
import type { ScalarName, SchemaDescriptor, ValueType } from "../../core/schema.js";
import { GraphStore } from "../../runtime/graph-store.js";

const s = (name: ScalarName): ValueType => ({ kind: "scalar", name });

export const schema: SchemaDescriptor = {
  nodes: [
    {
      name: "User",
      fields: [
        { name: "name", type: s("String"), index: "unique", default: null },
        { name: "age", type: s("U32"), index: "none", default: null },
        { name: "city", type: s("String"), index: "index", default: null },
        { name: "tags", type: { kind: "array", element: s("String") }, index: "none", default: null },
        { name: "joined", type: s("Date"), index: "none", default: null },
      ],
    },
    {
      name: "Post",
      fields: [
        { name: "title", type: s("String"), index: "none", default: null },
        { name: "published", type: s("Date"), index: "none", default: null },
      ],
    },
  ],
  vectors: [],
  edges: [
    {
      name: "Follows",
      from: "User",
      to: "User",
      unique: false,
      fields: [{ name: "since", type: s("Date"), index: "none", default: null }],
    },
    { name: "Wrote", from: "User", to: "Post", unique: false, fields: [] },
  ],
};

export const queries: QueryModule[] = [
  {
    name: "UsersInCity",
    params: [{ name: "city", type: s("String"), optional: false }],
    writes: false,
    mcp: true,
    returns: ["users"],
    run: (db, p) => ({ users: db.nodesByIndex("User", "city", p.city as string) }),
  },
  {
    name: "AddPost",
    params: [
      { name: "title", type: s("String"), optional: false },
      { name: "published", type: s("Date"), optional: true },
    ],
    writes: true,
    mcp: true,
    returns: ["post"],
    run: (db, p) => ({
      post: db.addNode(
        "Post",
        p.published === undefined ? { title: p.title as string } : { title: p.title as string, published: p.published as string },
      ),
    }),
  },
  {
    name: "CountUsers",
    params: [],
    writes: false,
    mcp: false,
    returns: ["total"],
    run: (db) => ({ total: db.count(db.nodesByLabel("User")) }),
  },
];

export interface Seeded {
  ada: NodeItem;
  bob: NodeItem;
  cyd: NodeItem;
  dee: NodeItem;
  notes: NodeItem;
  engines: NodeItem;
  looms: NodeItem;
  /** ada→bob, ada→cyd, bob→cyd, dee→ada (creation order). */
  follows: EdgeItem[];
  wrote: EdgeItem[];
}

/**
 * Users in id order: ada (36, London), bob (17, Paris), cyd (52, London), dee (29, Berlin).
 * Posts: Notes (by ada), Engines and Looms (by cyd).
 */
export async function seed(store: GraphStore): Promise<Seeded> {
  return store.write((db) => {
    const user = (name: string, age: number, city: string, tags: string[], joined: string): NodeItem =>
      db.addNode("User", { name, age, city, tags, joined });
    const ada = user("ada", 36, "London", ["math", "poetry"], "2020-01-01T00:00:00.000Z");
    const bob = user("bob", 17, "Paris", ["art"], "2021-06-15T12:00:00.000Z");
    const cyd = user("cyd", 52, "London", [], "2019-03-10T08:30:00.000Z");
    const dee = user("dee", 29, "Berlin", ["math"], "2022-11-30T23:00:00.000Z");
    const follows = [
      db.addEdge("Follows", { since: "2021-07-01T00:00:00.000Z" }, ada.id, bob.id),
      db.addEdge("Follows", { since: "2019-05-01T00:00:00.000Z" }, ada.id, cyd.id),
      db.addEdge("Follows", { since: "2022-01-01T00:00:00.000Z" }, bob.id, cyd.id),
      db.addEdge("Follows", { since: "2023-01-01T00:00:00.000Z" }, dee.id, ada.id),
    ];
    const notes = db.addNode("Post", { title: "Notes", published: "2020-02-01T00:00:00.000Z" });
    const engines = db.addNode("Post", { title: "Engines", published: "2019-04-01T00:00:00.000Z" });
    const looms = db.addNode("Post", { title: "Looms", published: "2021-09-09T09:09:09.000Z" });
    const wrote = [
      db.addEdge("Wrote", {}, ada.id, notes.id),
      db.addEdge("Wrote", {}, cyd.id, engines.id),
      db.addEdge("Wrote", {}, cyd.id, looms.id),
    ];
    return { ada, bob, cyd, dee, notes, engines, looms, follows, wrote };
  });
}

export interface Reply {
  status: number;
  body: unknown;
}

export interface McpFixture {
  app: Hono;
  store: GraphStore;
  data: Seeded;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Reply>;
  /** POST /mcp/<tool>. */
  tool(name: string, body?: unknown): Promise<Reply>;
  /** init, returning the new connection id (asserting 200). */
  init(): Promise<string>;
  close(): Promise<void>;
}

export async function openFixture(options: Partial<AppOptions> = {}): Promise<McpFixture> {
  const dir = mkdtempSync(join(tmpdir(), "strand-mcp-"));
  const store = GraphStore.open({ path: dir, schema });
  const data = await seed(store);
  const app = createApp({ store, schema, queries, ...options });
  const post = async (
    path: string,
    body: unknown,
    headers: Record<string, string> = { "content-type": "application/json" },
  ): Promise<Reply> => {
    const text = typeof body === "string" ? body : JSON.stringify(body);
    const res = await app.request(path, { method: "POST", headers, body: new TextEncoder().encode(text) });
    expect(res.headers.get("content-type")).toBe("application/json");
    return { status: res.status, body: JSON.parse(await res.text()) as unknown };
  };
  const tool = (name: string, body: unknown = {}): Promise<Reply> => post(`/mcp/${name}`, body);
  return {
    app,
    store,
    data,
    post,
    tool,
    async init() {
      const reply = await tool("init", {});
      expect(reply.status).toBe(200);
      return reply.body as string;
    },
    async close() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function ok(body: unknown): Reply {
  return { status: 200, body };
}

export function err(status: number, code: string, error: string): Reply {
  return { status, body: { error, code } };
}
