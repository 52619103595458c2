// The search tools over HTTP: search_vector over held vectors (exact scores) and over the store
// (one type, or every type of a fitting dimension), the state-table row "load → out_step to
// vectors → search_vector → in_step back → collect", search_vector_text with an injected
// embedder, and search_keyword against the store's own BM25 ranking.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StrandError } from "../core/errors.js";
import { createApp } from "../server/index.js";
import { BUILTIN_TOOLS } from "../server/mcp/input-schemas.js";
import type { NodeItem } from "../core/items.js";
import type { ScalarName, SchemaDescriptor, ValueType } from "../core/schema.js";
import { topDocs } from "../runtime/search/bm25-score.js";
import { GraphStore } from "../runtime/graph-store.js";
import { err, ok, type Reply } from "./support/mcp-fixture.js";

const s = (name: ScalarName): ValueType => ({ kind: "scalar", name });

const schema: SchemaDescriptor = {
  nodes: [
    { name: "User", fields: [{ name: "name", type: s("String"), index: "none", default: null }] },
    {
      name: "Article",
      fields: [
        { name: "title", type: s("String"), index: "none", default: null },
        { name: "body", type: s("String"), index: "none", default: null },
      ],
    },
  ],
  vectors: [
    { name: "Doc", fields: [{ name: "title", type: s("String"), index: "none", default: null }] },
    {
      name: "Img",
      fields: [
        { name: "caption", type: s("String"), index: "none", default: null },
        { name: "embedding", type: { kind: "array", element: s("F64") }, index: "none", default: null },
      ],
    },
  ],
  edges: [{ name: "Likes", from: "User", to: "Doc", unique: false, fields: [] }],
};

/** A deterministic stand-in for an embedding model: known words map to fixed directions. */
const WORDS: Record<string, number[]> = { east: [1, 0, 0], north: [0, 1, 0], up: [0, 0, 1] };
const embedder = {
  embed: (texts: string[]): Promise<number[][]> => Promise.resolve(texts.map((t) => WORDS[t] ?? [1, 1, 1])),
};

interface Data {
  ann: NodeItem;
  ben: NodeItem;
  d1: NodeItem;
  d2: NodeItem;
  d3: NodeItem;
  d4: NodeItem;
  i1: NodeItem;
  i2: NodeItem;
  articles: NodeItem[];
}

let dir: string;
let store: GraphStore;
let app: Hono;
let noEmbedder: Hono;
let d: Data;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "strand-mcp-search-"));
  store = GraphStore.open({ path: dir, schema });
  d = await store.write((db) => {
    const ann = db.addNode("User", { name: "ann" });
    const ben = db.addNode("User", { name: "ben" });
    const d1 = db.addVector("Doc", [1, 0, 0], { title: "east" });
    const d2 = db.addVector("Doc", [1, 1, 0], { title: "north-east" });
    const d3 = db.addVector("Doc", [0, 0, 1], { title: "up" });
    const d4 = db.addVector("Doc", [0, 1, 0], { title: "north" });
    const i1 = db.addVector("Img", [1, 0], { caption: "right" });
    const i2 = db.addVector("Img", [0, 1], { caption: "top" });
    db.addEdge("Likes", {}, ann.id, d1.id);
    db.addEdge("Likes", {}, ann.id, d2.id);
    db.addEdge("Likes", {}, ben.id, d2.id);
    db.addEdge("Likes", {}, ben.id, d3.id);
    const articles = [
      db.addNode("Article", { title: "Graph databases", body: "nodes and edges and graph traversals" }),
      db.addNode("Article", { title: "Vector search", body: "nearest neighbours in a graph of vectors" }),
      db.addNode("Article", { title: "Cooking", body: "bread and butter" }),
    ];
    return { ann, ben, d1, d2, d3, d4, i1, i2, articles };
  });
  app = createApp({ store, schema, queries: [], embedders: () => embedder });
  noEmbedder = createApp({ store, schema, queries: [] });
});

afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function tool(name: string, body: unknown, target: Hono = app): Promise<Reply> {
  const res = await target.request(`/mcp/${name}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as unknown };
}

async function init(target: Hono = app): Promise<string> {
  return (await tool("init", {}, target)).body as string;
}

const scored = (item: NodeItem, score: number): NodeItem => ({ ...item, score });
const held = (id: string, count: number) => ok({ connection_id: id, count });
const SQRT_HALF = 1 / Math.sqrt(2);

describe("search_vector", () => {
  it("load → out_step to vectors → search_vector → in_step back → collect", async () => {
    const id = await init();
    expect(await tool("n_from_type", { connection_id: id, data: { node_type: "User" } })).toEqual(held(id, 2));
    expect(await tool("out_step", { connection_id: id, data: { edge_type: "vec", edge_label: "Likes" } })).toEqual(held(id, 3));
    // Exact scores over the held vectors (d2, liked twice, is held once: steps yield sets); d3 scores 0 and passes min_score 0.
    expect(await tool("search_vector", { connection_id: id, data: { vector: [1, 0, 0], k: 5 } })).toEqual(
      ok([scored(d.d1, 1), scored(d.d2, SQRT_HALF), scored(d.d3, 0)]),
    );
    expect(await tool("search_vector", { connection_id: id, data: { vector: [1, 0, 0], k: 2 } })).toEqual(
      ok([scored(d.d1, 1), scored(d.d2, SQRT_HALF)]),
    );
    expect(await tool("in_step", { connection_id: id, data: { edge_type: "Likes", edge_label: "vec" } })).toEqual(
      err(400, "INVALID_PARAMETER", "'data.edge_label': in_step over Likes arrives at User, a node type, so the kind is 'node'"),
    );
    expect(await tool("in_step", { connection_id: id, data: { edge_type: "Likes", edge_label: "node" } })).toEqual(held(id, 2));
    expect(await tool("collect", { connection_id: id })).toEqual(ok([d.ann, d.ben]));
  });

  it("over the store: one type by label, or every type whose dimension fits", async () => {
    const id = await init();
    expect(await tool("search_vector", { connection_id: id, data: { vector: [0, 1, 0], k: 2, label: "Doc" } })).toEqual(
      ok([scored(d.d4, 1), scored(d.d2, SQRT_HALF)]),
    );
    // The traversal continues from the results: a second search scores them exactly.
    expect(await tool("search_vector", { connection_id: id, data: { vector: [1, 0, 0], k: 2 } })).toEqual(
      ok([scored(d.d2, SQRT_HALF), scored(d.d4, 0)]),
    );
    const other = await init();
    expect(await tool("search_vector", { connection_id: other, data: { vector: [0, 1], k: 5 } })).toEqual(
      ok([scored(d.i2, 1), scored(d.i1, 0)]),
    );
    expect(await tool("collect", { connection_id: other })).toEqual(ok([scored(d.i2, 1), scored(d.i1, 0)]));
    expect(await tool("search_vector", { connection_id: other, data: { vector: [1, 1, 0], k: 1 } })).toEqual(ok([scored(d.d2, 1)]));
    // ef sets the HNSW breadth of a store search (SearchV's `ef: n`); results stay the k nearest.
    const third = await init();
    expect(await tool("search_vector", { connection_id: third, data: { vector: [0, 1, 0], k: 2, label: "Doc", ef: 1 } })).toEqual(
      ok([scored(d.d4, 1), scored(d.d2, SQRT_HALF)]),
    );
    expect(await tool("search_vector", { connection_id: await init(), data: { vector: [0, 1], k: 5, ef: 500 } })).toEqual(
      ok([scored(d.i2, 1), scored(d.i1, 0)]),
    );
  });

  it("min_score drops weaker results", async () => {
    const id = await init();
    expect(await tool("search_vector", { connection_id: id, data: { vector: [1, 0, 0], k: 10, label: "Doc", min_score: 0.5 } })).toEqual(
      ok([scored(d.d1, 1), scored(d.d2, SQRT_HALF)]),
    );
    expect(await tool("next", { connection_id: id })).toEqual(ok(scored(d.d1, 1)));
  });

  it("filters and orders the held vectors by their fields and score", async () => {
    const id = await init();
    expect(await tool("n_from_type", { connection_id: id, data: { node_type: "Doc" } })).toEqual(held(id, 4));
    await tool("search_vector", { connection_id: id, data: { vector: [1, 1, 0], k: 4 } });
    const filter = { properties: [[{ key: "score", operator: ">", value: "0.5" }]] };
    expect(await tool("filter_items", { connection_id: id, data: { filter } })).toEqual(held(id, 3));
    expect(await tool("order_by", { connection_id: id, data: { properties: "title", order: "asc" } })).toEqual(ok(scored(d.d1, SQRT_HALF)));
    expect(await tool("collect", { connection_id: id })).toEqual(ok([scored(d.d1, SQRT_HALF), scored(d.d4, SQRT_HALF), scored(d.d2, 1)]));
  });

  it("names what is wrong", async () => {
    const id = await init();
    const search = (data: unknown) => tool("search_vector", { connection_id: id, data });
    expect(await search({ k: 1 })).toEqual(err(400, "MISSING_PARAMETER", "missing 'data.vector' (an array of numbers)"));
    expect(await search({ vector: [], k: 1 })).toEqual(err(400, "INVALID_VALUE", "data.vector must not be empty"));
    expect(await search({ vector: [1, "x"], k: 1 })).toEqual(err(400, "INVALID_VALUE", 'data.vector[1] must be a finite number, got "x"'));
    expect(await search({ vector: [1, 0, 0], k: 0 })).toEqual(err(400, "INVALID_PARAMETER", "'data.k' must be an integer >= 1, got 0"));
    expect(await search({ vector: [1, 0, 0], k: 1, min_score: "high" })).toEqual(
      err(400, "INVALID_PARAMETER", `'data.min_score' must be a number, got "high"`),
    );
    expect(await search({ vector: [1, 0, 0], k: 1, ef: 0 })).toEqual(
      err(400, "INVALID_PARAMETER", "'data.ef' must be an integer >= 1, got 0"),
    );
    expect(await search({ vector: [1, 0, 0], k: 1, ef: 2.5 })).toEqual(
      err(400, "INVALID_PARAMETER", "'data.ef' must be an integer >= 1, got 2.5"),
    );
    expect(await search({ vector: [null, 0, 0], k: 1 })).toEqual(
      err(400, "INVALID_VALUE", "data.vector[0] must be a finite number, got null"),
    );
    expect(await search({ vector: [1e39, 0, 0], k: 1 })).toEqual(
      err(
        400,
        "INVALID_VALUE",
        "data.vector[0] must fit in F32 (magnitude at most 3.4028235e38, the range of the vector index), got 1e+39",
      ),
    );
    expect(await search({ vector: [1, 0, 0], k: 1, label: "User" })).toEqual(
      err(400, "INVALID_PARAMETER", "'data.label': unknown vector type 'User' ('User' is a node type)"),
    );
    expect(await search({ vector: [1, 0, 0, 0], k: 1 })).toEqual(
      err(400, "DIMENSION_MISMATCH", "V::Doc vectors have 3 dimensions, got a vector of 4"),
    );
    await tool("n_from_type", { connection_id: id, data: { node_type: "User" } });
    expect(await search({ vector: [1, 0, 0], k: 1 })).toEqual(
      err(400, "INVALID_VALUE", "search_vector over the held items needs vectors, but the traversal holds User"),
    );
    await tool("out_step", { connection_id: id, data: { edge_label: "Likes" } });
    expect(await search({ vector: [1, 0, 0], k: 1, label: "Doc" })).toEqual(
      err(400, "INVALID_PARAMETER", "'data.label' applies only to a search over every vector: the traversal holds items (reset it first)"),
    );
    expect(await search({ vector: [1, 0], k: 1 })).toEqual(
      err(400, "DIMENSION_MISMATCH", "V::Doc vectors have 3 dimensions, got a vector of 2"),
    );
    // Vectors reached by a step, not a search: score 2, as on every wire (core/vector-score.ts).
    expect(await tool("collect", { connection_id: id })).toEqual(ok([scored(d.d1, 2), scored(d.d2, 2), scored(d.d3, 2)]));
  });
});

describe("search_vector_text", () => {
  it("embeds the text and returns the 5 nearest vectors of the type", async () => {
    const id = await init();
    expect(await tool("search_vector_text", { connection_id: id, data: { query: "north", label: "Doc" } })).toEqual(
      ok([scored(d.d4, 1), scored(d.d2, SQRT_HALF), scored(d.d1, 0), scored(d.d3, 0)]),
    );
    expect(await tool("in_step", { connection_id: id, data: { edge_label: "Likes" } })).toEqual(held(id, 2));
    expect(await tool("search_vector_text", { connection_id: await init(), data: { query: "north", label: "Doc", ef: 200 } })).toEqual(
      ok([scored(d.d4, 1), scored(d.d2, SQRT_HALF), scored(d.d1, 0), scored(d.d3, 0)]),
    );
    expect(await tool("search_vector_text", { connection_id: await init(), data: { query: "north", label: "Doc", ef: "wide" } })).toEqual(
      err(400, "INVALID_PARAMETER", `'data.ef' must be an integer >= 1, got "wide"`),
    );
  });

  it("needs a configured model, a known vector type and a text", async () => {
    const id = await init(noEmbedder);
    expect(await tool("search_vector_text", { connection_id: id, data: { query: "north", label: "Doc" } }, noEmbedder)).toEqual(
      err(400, "INVALID_VALUE", "search_vector_text needs an embedding model, and none is configured (embedding_model in strand.toml)"),
    );
    const other = await init();
    expect(await tool("search_vector_text", { connection_id: other, data: { query: "north", label: "Dog" } })).toEqual(
      err(400, "INVALID_PARAMETER", "'data.label': unknown vector type 'Dog'; did you mean 'Doc'?"),
    );
    expect(await tool("search_vector_text", { connection_id: other, data: { label: "Doc" } })).toEqual(
      err(400, "MISSING_PARAMETER", "missing 'data.query' (the text to search for)"),
    );
    // The embedding has 3 dimensions; Img vectors have 2.
    expect(await tool("search_vector_text", { connection_id: other, data: { query: "north", label: "Img" } })).toEqual(
      err(400, "DIMENSION_MISMATCH", "V::Img vectors have 2 dimensions, got a vector of 3"),
    );
  });
});

describe("search_keyword", () => {
  it("returns the store's BM25 ranking and continues from it", async () => {
    const id = await init();
    const expected = store.read((db) => db.searchBM25("Article", "graph", 5));
    expect(expected.map((a) => a.id)).toEqual([d.articles[0]!.id, d.articles[1]!.id]);
    expect(await tool("search_keyword", { connection_id: id, data: { query: "graph", label: "Article", limit: 5 } })).toEqual(ok(expected));
    expect(await tool("collect", { connection_id: id, range: { start: 1 } })).toEqual(ok([expected[1]]));
    const one = await init();
    expect(await tool("search_keyword", { connection_id: one, data: { query: "graph", label: "Article", limit: 1 } })).toEqual(
      ok([expected[0]]),
    );
  });

  it("searches the vectors of a vector type too, and says so in its description (audit 6 L2)", async () => {
    const id = await init();
    const expected = store.read((db) => db.searchBM25("Doc", "north", 5));
    expect(expected.map((v) => v.id)).toEqual([d.d4.id, d.d2.id]);
    expect(await tool("search_keyword", { connection_id: id, data: { query: "north", label: "Doc", limit: 5 } })).toEqual(ok(expected));
    const keyword = BUILTIN_TOOLS.search_keyword!;
    expect(keyword.description).toBe(
      "BM25 keyword search over the nodes (or vectors) of the type, best first; the traversal continues from them.",
    );
    expect(keyword.input.shape.data.shape.label.description).toBe("a node or vector type");
  });

  it("with bm25 = false, SearchBM25 and search_keyword are 400 BM25_DISABLED saying how to enable them (audit D3)", async () => {
    const offDir = mkdtempSync(join(tmpdir(), "strand-mcp-search-off-"));
    const off = GraphStore.open({ path: offDir, schema, bm25: false });
    try {
      const how =
        "needs the BM25 keyword index, which this project disables (bm25 = false): set bm25 = true in strand.toml (or helix.toml) and restart to build it";
      expect(() => off.read((db) => db.searchBM25("Article", "graph", 5))).toThrow(
        new StrandError("BM25_DISABLED", `SearchBM25<Article> ${how}`),
      );
      const offApp = createApp({ store: off, schema, queries: [], bm25: false });
      const id = await init(offApp);
      expect(await tool("search_keyword", { connection_id: id, data: { query: "graph", label: "Article", limit: 5 } }, offApp)).toEqual(
        err(400, "BM25_DISABLED", `search_keyword ${how}`),
      );
      // The unknown connection is still reported first.
      expect((await tool("search_keyword", { connection_id: "nope", data: {} }, offApp)).status).toBe(404);
    } finally {
      await off.close();
      rmSync(offDir, { recursive: true, force: true });
    }
  });

  it("any limit up to 2^53 - 1 is served, allocating by the documents, not the limit (audit D4)", async () => {
    for (const limit of [3, 4, 100_000_000, 4294967295, Number.MAX_SAFE_INTEGER]) {
      const id = await init();
      expect(await tool("search_keyword", { connection_id: id, data: { query: "graph", label: "Article", limit } }), String(limit)).toEqual(
        ok(store.read((db) => db.searchBM25("Article", "graph", 5))),
      );
    }
    expect(store.read((db) => db.searchBM25("Article", "graph butter", Number.MAX_SAFE_INTEGER)).map((a) => a.id)).toEqual([
      d.articles[2]!.id,
      d.articles[0]!.id,
      d.articles[1]!.id,
    ]);
    expect(topDocs(new Float64Array([0, 2, 1, 2]), Number.MAX_SAFE_INTEGER)).toEqual([1, 2, 3]);
    expect(topDocs(new Float64Array([0, 2, 1, 2]), 1)).toEqual([1, 3]);
    expect(topDocs(new Float64Array(0), 10)).toEqual([]);
    const id = await init();
    expect(await tool("search_vector", { connection_id: id, data: { vector: [1, 0], k: Number.MAX_SAFE_INTEGER, label: "Img" } })).toEqual(
      ok([scored(d.i1, 1), scored(d.i2, 0)]),
    );
  });

  it("names what is wrong", async () => {
    const id = await init();
    const search = (data: unknown) => tool("search_keyword", { connection_id: id, data });
    expect(await search({ query: "graph", label: "Likes", limit: 5 })).toEqual(
      err(400, "INVALID_PARAMETER", "'data.label': unknown node or vector type 'Likes' ('Likes' is an edge type)"),
    );
    // Vector types are searched too, so they are listed (audit 6 L2).
    expect(await search({ query: "graph", label: "Zzzzzz", limit: 5 })).toEqual(
      err(400, "INVALID_PARAMETER", "'data.label': unknown node or vector type 'Zzzzzz' (known: User, Article, Doc, Img)"),
    );
    expect(await search({ query: "graph", label: "Img2", limit: 5 })).toEqual(
      err(400, "INVALID_PARAMETER", "'data.label': unknown node or vector type 'Img2'; did you mean 'Img'?"),
    );
    expect(await search({ query: "graph", label: "Article" })).toEqual(
      err(400, "MISSING_PARAMETER", "missing 'data.limit' (how many results)"),
    );
    expect(await search({ query: "graph", label: "Article", limit: 0 })).toEqual(
      err(400, "INVALID_PARAMETER", "'data.limit' must be an integer >= 1, got 0"),
    );
    expect(await search({ query: "", label: "Article", limit: 1 })).toEqual(
      err(400, "INVALID_PARAMETER", `'data.query' must be a non-empty string (the words to search for), got ""`),
    );
  });
});
