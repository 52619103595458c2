// The query time limit (runtime/query/query-deadline.ts, GraphStoreOptions.queryTimeoutMs): a read or
// write that runs past it stops with QUERY_TIMEOUT at its next record, list or write; a write's
// changes are rolled back and the store goes on serving. Over HTTP it is 503 with the JSON error.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { StrandError } from "../core/errors.js";
import type { QueryModule } from "../core/query-module.js";
import { GraphStore } from "../runtime/graph-store.js";
import { QueryDeadline } from "../runtime/query/query-deadline.js";
import { createApp } from "../server/index.js";
import { removeDir, tempDir } from "./support/store-fixtures.js";
import { vectorSchema } from "./support/vector-fixtures.js";

const LIMIT = "The limit is set by query_timeout_ms under [server] in strand.toml, strand serve --query-timeout or STRAND_QUERY_TIMEOUT";
const MESSAGE = `the query ran longer than the time limit of 100 ms and was stopped. ${LIMIT}`;
const WRITE_MESSAGE = `the query ran longer than the time limit of 100 ms and was stopped; nothing it wrote was kept. ${LIMIT}`;

describe("QueryDeadline", () => {
  it("looks at the clock every 64 ticks and throws once the limit has passed", () => {
    let now = 1_000;
    const deadline = new QueryDeadline(100, false, () => now);
    now = 1_101;
    for (let i = 0; i < 63; i++) deadline.tick();
    let thrown: unknown;
    try {
      deadline.tick();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(StrandError);
    expect((thrown as StrandError).toJSON()).toEqual({ code: "QUERY_TIMEOUT", error: MESSAGE });
  });

  it("lets a query run up to the limit", () => {
    let now = 0;
    const deadline = new QueryDeadline(100, true, () => now);
    now = 100;
    for (let i = 0; i < 1_000; i++) deadline.tick();
  });
});

describe("a store with queryTimeoutMs", () => {
  let dir: string;
  let store: GraphStore;
  beforeAll(async () => {
    dir = tempDir("strand-deadline-");
    store = GraphStore.open({ path: dir, schema: vectorSchema, queryTimeoutMs: 100 });
    await store.write((db) => {
      for (let i = 0; i < 100; i++) db.addNode("Author", { name: `a${i}` });
    });
  });
  afterAll(async () => {
    await store.close();
    removeDir(dir);
  });

  const authors = () => store.read((db) => db.nodesByLabel("Author").length);

  it("stops a read that goes on past the limit", () => {
    expect(() =>
      store.read((db) => {
        for (;;) db.nodesByLabel("Author");
      }),
    ).toThrow(MESSAGE);
    expect(authors()).toBe(100);
  });

  it("stops a write past the limit and keeps nothing of it; the next write goes through", async () => {
    await expect(
      store.write((db) => {
        for (;;) db.addNode("Author", { name: "endless" });
      }),
    ).rejects.toThrow(WRITE_MESSAGE);
    expect(authors()).toBe(100);
    await store.write((db) => db.addNode("Author", { name: "after" }));
    expect(authors()).toBe(101);
    await store.write((db) => db.drop(db.nodesByLabel("Author").filter((a) => a.name === "after")));
  });

  it("ticks inside a keyword search, at its postings blocks and hits, not only at the records read after it", () => {
    // A clock that moves a second at every look: the first look at it stops the query. The 40
    // records read after the search tick 40 times, fewer than one look; the search's own ticks
    // (postings blocks, accumulating them, its 40 hits) make the difference.
    let clock = 0;
    const now = vi.spyOn(performance, "now").mockImplementation(() => (clock += 1_000));
    try {
      // 40 terms, each the name of one author: 40 hits.
      const names = Array.from({ length: 40 }, (_, i) => `a${i}`).join(" ");
      expect(() => store.read((db) => db.searchBM25("Author", names, 40))).toThrow(MESSAGE);
    } finally {
      now.mockRestore();
    }
    expect(store.read((db) => db.searchBM25("Author", "a1 a2", 40).length)).toBe(2);
  });

  it("answers 503 QUERY_TIMEOUT over HTTP", async () => {
    const endless: QueryModule = {
      name: "Endless",
      params: [],
      writes: false,
      mcp: false,
      returns: ["n"],
      run: (db) => {
        for (;;) db.nodesByLabel("Author");
      },
    };
    const app = createApp({ store, queries: [endless], schema: vectorSchema });
    const res = await app.request("/Endless", { method: "POST", body: "{}", headers: { "content-type": "application/json" } });
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ error: MESSAGE, code: "QUERY_TIMEOUT" });
  });

  it("refuses a limit that is not a whole number of ms", () => {
    expect(() => GraphStore.open({ path: `${dir}/never-made`, schema: vectorSchema, queryTimeoutMs: -1 })).toThrow(
      "queryTimeoutMs must be a whole number of ms, 0 for no limit, got -1",
    );
  });
});
