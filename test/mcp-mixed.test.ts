// Traversals that can hold items of several types (a search_vector over every vector type), and
// which vectors search_vector searches when the traversal is loaded but empty (audit D6, D7).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../server/index.js";
import type { NodeItem } from "../core/items.js";
import type { ScalarName, SchemaDescriptor, ValueType } from "../core/schema.js";
import { GraphStore } from "../runtime/graph-store.js";
import { err, ok, type Reply } from "./support/mcp-fixture.js";

const s = (name: ScalarName): ValueType => ({ kind: "scalar", name });
const field = (name: string, type: ValueType) => ({ name, type, index: "none" as const, default: null });

// Alpha and Beta have dimension 2 and a `kind` of different types; Wide has dimension 3.
const schema: SchemaDescriptor = {
  nodes: [{ name: "Person", fields: [field("name", s("String"))] }],
  vectors: [
    { name: "Alpha", fields: [field("kind", s("String")), field("born", s("Date"))] },
    { name: "Beta", fields: [field("kind", s("I32")), field("born", s("Date"))] },
    { name: "Wide", fields: [field("text", s("String"))] },
  ],
  edges: [],
};

interface Data {
  a1: NodeItem;
  a2: NodeItem;
  b1: NodeItem;
  w1: NodeItem;
  ada: NodeItem;
}

let dir: string;
let store: GraphStore;
let app: Hono;
let d: Data;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "strand-mcp-mixed-"));
  store = GraphStore.open({ path: dir, schema });
  d = await store.write((db) => ({
    a1: db.addVector("Alpha", [1, 0], { kind: "k1", born: "2024-01-01T08:00:00.000Z" }),
    a2: db.addVector("Alpha", [0, 1], { kind: "k2", born: "2024-01-02T08:00:00.000Z" }),
    b1: db.addVector("Beta", [1, 1], { kind: 7, born: "2023-06-01T00:00:00.000Z" }),
    w1: db.addVector("Wide", [1, 0, 0], { text: "wide" }),
    ada: db.addNode("Person", { name: "ada" }),
  }));
  app = createApp({ store, schema, queries: [] });
});

afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function tool(name: string, body: unknown): Promise<Reply> {
  const res = await app.request(`/mcp/${name}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as unknown };
}

async function init(): Promise<string> {
  return (await tool("init", {})).body as string;
}

const held = (id: string, count: number) => ok({ connection_id: id, count });
const where = (...conditions: Array<[string, string, unknown]>) => ({
  properties: [conditions.map(([key, operator, value]) => ({ key, operator, value }))],
});
const ids = async (id: string): Promise<string[]> =>
  ((await tool("collect", { connection_id: id, drop: false })).body as NodeItem[]).map((i) => i.id);

/** A connection holding a1, b1, a2 (a search over every vector type of dimension 2). */
async function mixed(): Promise<string> {
  const id = await init();
  const found = await tool("search_vector", { connection_id: id, data: { vector: [1, 0], k: 10, min_score: -1 } });
  expect((found.body as NodeItem[]).map((i) => i.id)).toEqual([d.a1.id, d.b1.id, d.a2.id]);
  return id;
}

describe("filters on a traversal holding several types (D6)", () => {
  it("compare each item with its own type's declared type: a value one type cannot read is false for its items", async () => {
    const id = await mixed();
    // "k1" is no I32: false for Beta items, compared as a String for Alpha items.
    expect(await tool("filter_items", { connection_id: id, data: { filter: where(["kind", "==", "k1"]) } })).toEqual(held(id, 1));
    expect(await ids(id)).toEqual([d.a1.id]);
    // "7" reads as both: the I32 7 of b1, and no Alpha is the String "7".
    const other = await mixed();
    expect(await tool("filter_items", { connection_id: other, data: { filter: where(["kind", "==", "7"]) } })).toEqual(held(other, 1));
    expect(await ids(other)).toEqual([d.b1.id]);
    // A list is read as a whole per type: ["k2", "7"] is a list of Strings, but no list of I32s.
    const list = await mixed();
    expect(await tool("filter_items", { connection_id: list, data: { filter: where(["kind", "==", ["k2", "7"]]) } })).toEqual(
      held(list, 1),
    );
    expect(await ids(list)).toEqual([d.a2.id]);
    const numbers = await mixed();
    expect(await tool("filter_items", { connection_id: numbers, data: { filter: where(["kind", "==", ["7", 8]]) } })).toEqual(
      held(numbers, 1),
    );
    expect(await ids(numbers)).toEqual([d.b1.id]);
    // Unreadable is false, also with != (b1's kind is not the String "k1", but it is no String at all).
    const not = await mixed();
    expect(await tool("filter_items", { connection_id: not, data: { filter: where(["kind", "!=", "k1"]) } })).toEqual(held(not, 1));
    expect(await ids(not)).toEqual([d.a2.id]);
  });

  it("is a 400 only when no held type that declares the key can read the value", async () => {
    const id = await mixed();
    expect(await tool("filter_items", { connection_id: id, data: { filter: where(["born", ">", "tomorrow"]) } })).toEqual(
      err(
        400,
        "INVALID_PARAMETER",
        `'data.filter.properties[0][0].value' must be a date: RFC 3339 with an offset (2024-05-01T12:00:00+02:00), YYYY-MM-DD or unix seconds, got "tomorrow"`,
      ),
    );
    expect(await tool("filter_items", { connection_id: id, data: { filter: where(["kind", "==", []]) } })).toEqual(
      err(400, "INVALID_PARAMETER", "'data.filter.properties[0][0].value' must be a value or a non-empty array of values, got []"),
    );
    expect(await ids(id)).toEqual([d.a1.id, d.b1.id, d.a2.id]);
  });

  it("after a filter, the traversal's types are the labels it holds", async () => {
    const id = await mixed();
    expect(await tool("filter_items", { connection_id: id, data: { filter: where(["label", "==", "Beta"]) } })).toEqual(held(id, 1));
    // Only Beta is held now, so a value Beta cannot read is the 400 it is for Beta.
    expect(await tool("filter_items", { connection_id: id, data: { filter: where(["kind", "==", "k1"]) } })).toEqual(
      err(400, "INVALID_PARAMETER", `'data.filter.properties[0][0].value' must be a number (the property is I32), got "k1"`),
    );
    const alpha = await mixed();
    expect(
      await tool("filter_items", { connection_id: alpha, data: { filter: where(["label", "==", "Alpha"], ["kind", "==", "k1"]) } }),
    ).toEqual(held(alpha, 1));
    expect(await tool("filter_items", { connection_id: alpha, data: { filter: where(["kind", "!=", "k2"]) } })).toEqual(held(alpha, 1));
    expect(await tool("group_by", { connection_id: alpha, properties: ["kind"] })).toEqual(ok([{ kind: "k1", count: 1 }]));
  });

  it("a filter that keeps nothing keeps the types the traversal had", async () => {
    const id = await mixed();
    expect(await tool("filter_items", { connection_id: id, data: { filter: where(["kind", "==", "none"]) } })).toEqual(held(id, 0));
    // Still Alpha and Beta: "7" reads as Beta's I32.
    expect(await tool("filter_items", { connection_id: id, data: { filter: where(["kind", "==", "7"]) } })).toEqual(held(id, 0));
  });

  it("a search over every vector type holds no type of another dimension", async () => {
    const id = await mixed();
    // Wide (3 dimensions) could not match a 2-dimensional query: its `text` is no property here.
    expect(await tool("filter_items", { connection_id: id, data: { filter: where(["text", "==", "wide"]) } })).toEqual(
      err(
        400,
        "INVALID_PARAMETER",
        "'data.filter.properties[0][0].key': Alpha, Beta has no property 'text' (properties: id, label, data, score, kind, born)",
      ),
    );
    const none = await init();
    expect(await tool("search_vector", { connection_id: none, data: { vector: [-1, -1], k: 5 } })).toEqual(ok([]));
    expect(await tool("filter_items", { connection_id: none, data: { filter: where(["text", "==", "wide"]) } })).toEqual(
      err(
        400,
        "INVALID_PARAMETER",
        "'data.filter.properties[0][0].key': Alpha, Beta has no property 'text' (properties: id, label, data, score, kind, born)",
      ),
    );
    expect(await tool("filter_items", { connection_id: none, data: { filter: where(["kind", "==", "k1"]) } })).toEqual(held(none, 0));
  });
});

describe("search_vector on a loaded traversal that holds nothing (D7)", () => {
  it("searches the held items, that is nothing; a blank traversal (init, reset, collect) searches every vector", async () => {
    const id = await init();
    expect(await tool("n_from_type", { connection_id: id, data: { node_type: "Alpha" } })).toEqual(held(id, 2));
    expect(await tool("filter_items", { connection_id: id, data: { filter: where(["kind", "==", "zzz"]) } })).toEqual(held(id, 0));
    expect(await tool("search_vector", { connection_id: id, data: { vector: [1, 0], k: 5 } })).toEqual(ok([]));
    expect(await tool("reset", { connection_id: id })).toEqual(ok(id));
    expect(
      ((await tool("search_vector", { connection_id: id, data: { vector: [1, 0], k: 5 } })).body as NodeItem[]).map((i) => i.id),
    ).toEqual([d.a1.id, d.b1.id, d.a2.id]);
    const people = await init();
    expect(await tool("n_from_type", { connection_id: people, data: { node_type: "Person" } })).toEqual(held(people, 1));
    expect(await tool("filter_items", { connection_id: people, data: { filter: where(["name", "==", "zzz"]) } })).toEqual(held(people, 0));
    expect(await tool("search_vector", { connection_id: people, data: { vector: [1, 0], k: 5 } })).toEqual(
      err(400, "INVALID_VALUE", "search_vector over the held items needs vectors, but the traversal holds Person"),
    );
    expect(await tool("collect", { connection_id: people })).toEqual(ok([]));
    expect((await tool("search_vector", { connection_id: people, data: { vector: [1, 0, 0], k: 5 } })).body).toEqual([
      { ...d.w1, score: 1 },
    ]);
  });
});
