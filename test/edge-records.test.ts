// Edges without field values have no record (runtime/records/edge-records.ts): one `edge_ends`
// entry and their two list entries. Every way of reading, changing and dropping an edge treats
// both forms alike, and verify stays clean through the moves between them.
import { afterEach, describe, expect, it } from "vitest";
import type { EdgeItem, NodeItem } from "../core/items.js";
import type { GraphStore } from "../runtime/graph-store.js";
import type { StoreDbs } from "../runtime/store/dbs.js";
import { bareEdgeFrom } from "../runtime/records/edge-ends.js";
import { openTempStore } from "./support/store-fixtures.js";
import { itemKey } from "../runtime/store/keys.js";

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups) await c();
  cleanups = [];
});

function open(): GraphStore {
  const { store, cleanup } = openTempStore();
  cleanups.push(cleanup);
  return store;
}

const dbsOf = (store: GraphStore) => (store as unknown as { dbs: StoreDbs }).dbs;

/** Where the edge is stored: "record", "ends" (edge_ends), "both" or "none". */
function form(store: GraphStore, e: EdgeItem): string {
  const dbs = dbsOf(store);
  const record = dbs.edges.get(itemKey(e.label, e.id)) !== undefined;
  const ends = bareEdgeFrom(dbs.edgeEnds, e.label, e.id, undefined) !== undefined;
  return record && ends ? "both" : record ? "record" : ends ? "ends" : "none";
}

function clean(store: GraphStore): void {
  expect(store.verify().disagreements).toEqual([]);
}

async function users(store: GraphStore): Promise<[NodeItem, NodeItem]> {
  return store.write(
    (db) => [db.addNode("User", { name: "a", age: 1 }), db.addNode("User", { name: "b", age: 2 })] as [NodeItem, NodeItem],
  );
}

describe("edges without field values", () => {
  it("are edge_ends entries, read back as the same record by id, by label, by kind and by step", async () => {
    const store = open();
    const [a, b] = await users(store);
    const [plain, coded, later] = await store.write((db) => [
      db.addEdge("Knows", {}, a.id, b.id),
      db.addEdge("Knows", { code: "c1" }, b.id, a.id),
      db.addEdge("Knows", {}, a.id, a.id),
    ]);
    expect([form(store, plain!), form(store, coded!), form(store, later!)]).toEqual(["ends", "record", "ends"]);
    expect(plain).toEqual({ id: plain!.id, label: "Knows", from_node: a.id, to_node: b.id });
    store.read((db) => {
      expect(db.edgeById("Knows", plain!.id)).toEqual(plain);
      expect(db.itemOfKindById("E", later!.id)).toEqual(later);
      // Id order across both forms.
      expect(db.edgesByLabel("Knows")).toEqual([plain, coded, later]);
      expect(db.itemsOfKind("E")).toEqual([plain, coded, later]);
      expect(db.outE([a], "Knows")).toEqual([plain, later]);
      expect(db.inE([a], "Knows")).toEqual([coded, later]);
      expect(() => db.edgeById("Wrote", plain!.id)).toThrow(expect.objectContaining({ code: "NOT_FOUND" }));
    });
    expect(store.stats().records.filter((r) => r.type === "Knows")).toEqual([{ kind: "E", type: "Knows", count: 3 }]);
    clean(store);
  });

  it("read in the write that adds them, move to a record when an UPDATE gives them a value, and drop by id", async () => {
    const store = open();
    const [a, b] = await users(store);
    const edge = await store.write((db) => {
      const e = db.addEdge("Knows", {}, a.id, b.id);
      expect(db.edgeById("Knows", e.id)).toEqual(e);
      expect(db.edgesByLabel("Knows")).toEqual([e]);
      return e;
    });
    const updated = await store.write((db) => db.updateEdges([db.edgeById("Knows", edge.id)], { code: "x" }));
    expect(updated).toEqual([{ ...edge, code: "x" }]);
    expect(form(store, edge)).toBe("record");
    expect(store.read((db) => db.edgesByIndex("Knows", "code", "x"))).toEqual(updated);
    clean(store);
    // An UPDATE that gives no value leaves a bare edge bare.
    const bare = await store.write((db) => db.addEdge("Knows", {}, b.id, a.id));
    await store.write((db) => db.updateEdges([bare], {}));
    expect(form(store, bare)).toBe("ends");
    await store.write((db) => db.drop([db.edgeById("Knows", bare.id)]));
    expect(form(store, bare)).toBe("none");
    expect(store.read((db) => db.outE([b], "Knows"))).toEqual([]);
    clean(store);
  });

  it("held back while a write appends them (edge-ends-writes.ts), yet every read, UPDATE, UPSERT and DROP in that write sees them", async () => {
    const store = open();
    const [a, b] = await users(store);
    const { kept, updated, upserted, dropped } = await store.write((db) => {
      // 40 edges: two full blocks and one still growing, not yet written.
      const added = Array.from({ length: 40 }, (_, i) => db.addEdge("Knows", {}, i % 2 === 0 ? a.id : b.id, a.id));
      for (const e of added) expect(db.edgeById("Knows", e.id)).toEqual(e);
      expect(db.edgesByLabel("Knows")).toEqual(added);
      const updated = db.updateEdges([added[35]!], { code: "u" })[0]!;
      const upserted = db.upsertEdge("Knows", [added[38]!], { code: "v" }, b.id, a.id);
      db.drop([added[39]!]);
      const more = db.addEdge("Knows", {}, a.id, b.id);
      expect(() => db.edgeById("Knows", added[39]!.id)).toThrow(`E::Knows with id '${added[39]!.id}' not found`);
      expect(db.edgeById("Knows", more.id)).toEqual(more);
      const kept = [...added.slice(0, 35), added[36]!, added[37]!, more];
      return { kept, updated, upserted, dropped: added[39]! };
    });
    expect(kept.map((e) => form(store, e))).toEqual(kept.map(() => "ends"));
    expect([form(store, updated), form(store, upserted), form(store, dropped)]).toEqual(["record", "record", "none"]);
    expect(store.read((db) => db.edgesByLabel("Knows").length)).toBe(40);
    clean(store);
  });

  it("go with their node when it is dropped, in both directions", async () => {
    const store = open();
    const [a, b] = await users(store);
    const post = await store.write((db) => db.addNode("Post", { title: "t" }));
    const edges = await store.write((db) => [
      db.addEdge("Wrote", {}, a.id, post.id),
      db.addEdge("Knows", {}, b.id, a.id),
      db.addEdge("Knows", {}, a.id, a.id),
    ]);
    await store.write((db) => db.drop([a]));
    expect(edges.map((e) => form(store, e))).toEqual(["none", "none", "none"]);
    expect(store.read((db) => db.itemsOfKind("E"))).toEqual([]);
    clean(store);
  });

  it("upserts find a bare edge and update it", async () => {
    const store = open();
    const [a, b] = await users(store);
    const edge = await store.write((db) => db.addEdge("Knows", {}, a.id, b.id));
    const up = await store.write((db) => db.upsertEdge("Knows", [edge], { code: "u" }, a.id, b.id));
    expect(up).toEqual({ ...edge, code: "u" });
    expect(form(store, edge)).toBe("record");
    clean(store);
  });
});
