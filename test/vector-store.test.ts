// Vectors through the store: records, validation, search semantics, deletes, updates, edges.
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { StrandError } from "../core/errors.js";
import type { NodeItem } from "../core/items.js";
import { GraphStore } from "../runtime/graph-store.js";
import { similarity } from "../runtime/vector/metric.js";
import { f32Vector } from "../runtime/store/vector-encoding.js";
import { removeDir, tempDir } from "./support/store-fixtures.js";
import { exactTopK, gaussian, rng, unitVector, vectorSchema } from "./support/vector-fixtures.js";
import { httpStatus } from "../server/http/status.js";

let dir = "";
let store: GraphStore;

beforeEach(() => {
  dir = tempDir("strand-vec-");
  store = GraphStore.open({ path: dir, schema: vectorSchema });
});

afterEach(async () => {
  await store.close();
  removeDir(dir);
});

function strandError(fn: () => unknown): { code: string; status: number; message: string } {
  try {
    fn();
  } catch (error) {
    if (error instanceof StrandError) return { code: error.code, status: httpStatus(error.code), message: error.message };
    throw error;
  }
  throw new Error("expected a StrandError");
}

async function writeError(fn: Parameters<GraphStore["write"]>[0]): Promise<{ code: string; status: number; message: string }> {
  try {
    await store.write(fn);
  } catch (error) {
    if (error instanceof StrandError) return { code: error.code, status: httpStatus(error.code), message: error.message };
    throw error;
  }
  throw new Error("expected a StrandError");
}

describe("records", () => {
  test("AddV stores {id, label, data, ...fields} with defaults; V reads and node reads see it", async () => {
    const doc = await store.write((db) => db.addVector("Doc", [1, 0, 0.5], { title: "a", topic: "t", slug: "s-a" }));
    expect(doc).toEqual({ id: doc.id, label: "Doc", data: [1, 0, 0.5], title: "a", topic: "t", slug: "s-a", rank: 0 });
    expect(Object.keys(doc)).toEqual(["id", "label", "data", "title", "topic", "slug", "rank"]);
    store.read((db) => {
      expect(db.vectorById("Doc", doc.id)).toEqual(doc);
      expect(db.nodeById("Doc", doc.id)).toEqual(doc);
      expect(db.vectorsByLabel("Doc")).toEqual([doc]);
      expect(db.nodesByIndex("Doc", "topic", "t")).toEqual([doc]);
      expect(db.nodesByIndex("Doc", "slug", "s-a")).toEqual([doc]);
      expect(strandError(() => db.vectorById("Doc", "0193aaaa-0000-7000-8000-000000000000"))).toEqual({
        code: "NOT_FOUND",
        status: 404,
        message: "V::Doc with id '0193aaaa-0000-7000-8000-000000000000' not found",
      });
    });
  });

  test("an embedding: [F64] field holds the vector and there is no data member", async () => {
    const chunk = await store.write((db) => db.addVector("Chunk", [0, 2], { text: "hello" }));
    expect(chunk).toEqual({ id: chunk.id, label: "Chunk", text: "hello", embedding: [0, 2] });
    const found = store.read((db) => db.searchVectors("Chunk", [0, 1], 5));
    expect(found).toEqual([{ id: chunk.id, label: "Chunk", score: 1, text: "hello", embedding: [0, 2] }]);
    expect(await writeError((db) => db.addVector("Chunk", [1, 2], { embedding: [1, 2] }))).toEqual({
      code: "INVALID_VALUE",
      status: 400,
      message: "V::Chunk.embedding is the vector itself: pass it as the vector, not as a property",
    });
  });

  test("UNIQUE INDEX on a vector field is enforced and a failed AddV leaves no trace", async () => {
    await store.write((db) => db.addVector("Doc", [1, 0], { slug: "x" }));
    expect(await writeError((db) => db.addVector("Doc", [0, 1], { slug: "x" }))).toMatchObject({ code: "UNIQUE_VIOLATION", status: 409 });
    store.read((db) => {
      expect(db.vectorsByLabel("Doc").length).toBe(1);
      expect(db.searchVectors("Doc", [0, 1], 10).map((d) => d.slug)).toEqual(["x"]);
    });
    expect(store.vectorIndexStatus("Doc")).toMatchObject({ live: 1, generation: 1 });
  });

  test("edges from and to vectors check their endpoints and traverse", async () => {
    const { author, doc, other, chunk } = await store.write((db) => {
      const author = db.addNode("Author", { name: "ada" });
      const doc = db.addVector("Doc", [1, 0], { title: "d" });
      const other = db.addVector("Doc", [0, 1], { title: "o" });
      const chunk = db.addVector("Chunk", [1, 1], { text: "c" });
      db.addEdge("Wrote", {}, author.id, doc.id);
      db.addEdge("Cites", {}, doc.id, other.id);
      db.addEdge("HasChunk", {}, doc.id, chunk.id);
      return { author, doc, other, chunk };
    });
    store.read((db) => {
      expect(db.out([author], "Wrote")).toEqual([doc]);
      expect(db.out([doc], "Cites")).toEqual([other]);
      expect(db.in(db.searchVectors("Chunk", [1, 1], 1), "HasChunk")).toEqual([doc]);
      expect(db.toN(db.outE([doc], "HasChunk"))).toEqual([chunk]);
    });
    expect(await writeError((db) => db.addEdge("Wrote", {}, author.id, chunk.id))).toEqual({
      code: "EDGE_TYPE_MISMATCH",
      status: 400,
      message: `E::Wrote must go to a Doc node, but node '${chunk.id}' is a Chunk`,
    });
    expect(await writeError((db) => db.addEdge("Cites", {}, author.id, doc.id))).toEqual({
      code: "EDGE_TYPE_MISMATCH",
      status: 400,
      message: `E::Cites must go from a Doc node, but node '${author.id}' is a Author`,
    });
  });
});

describe("validation", () => {
  test("the first vector fixes the dimension; other sizes are DIMENSION_MISMATCH naming both", async () => {
    await store.write((db) => db.addVector("Doc", [1, 2, 3], {}));
    expect(await writeError((db) => db.addVector("Doc", [1, 2, 3, 4], {}))).toEqual({
      code: "DIMENSION_MISMATCH",
      status: 400,
      message: "V::Doc vectors have 3 dimensions, got a vector of 4",
    });
    store.read((db) => {
      expect(strandError(() => db.searchVectors("Doc", [1, 2], 1))).toEqual({
        code: "DIMENSION_MISMATCH",
        status: 400,
        message: "V::Doc vectors have 3 dimensions, got a vector of 2",
      });
    });
    // Each type has its own dimension.
    await store.write((db) => db.addVector("Chunk", [1, 2], {}));
  });

  test("empty vectors, non-numbers and non-finite numbers are INVALID_VALUE", async () => {
    expect(await writeError((db) => db.addVector("Doc", [], {}))).toEqual({
      code: "INVALID_VALUE",
      status: 400,
      message: "vector for V::Doc must not be empty",
    });
    expect(await writeError((db) => db.addVector("Doc", [1, Number.NaN], {}))).toEqual({
      code: "INVALID_VALUE",
      status: 400,
      message: "vector for V::Doc[1] must be a finite number, got NaN",
    });
    expect(await writeError((db) => db.addVector("Doc", [Infinity], {}))).toEqual({
      code: "INVALID_VALUE",
      status: 400,
      message: "vector for V::Doc[0] must be a finite number, got a number beyond the F64 range (magnitude above 1.7976931348623157e308)",
    });
    expect(await writeError((db) => db.addVector("Doc", [1, -1e39], {}))).toEqual({
      code: "INVALID_VALUE",
      status: 400,
      message: "vector for V::Doc[1] must fit in F32 (magnitude at most 3.4028235e38, the range of the vector index), got -1e+39",
    });
    expect(await writeError((db) => db.addVector("Doc", ["1"] as unknown as number[], {}))).toEqual({
      code: "INVALID_VALUE",
      status: 400,
      message: 'vector for V::Doc[0] must be a finite number, got "1"',
    });
    expect(await writeError((db) => db.addVector("Doc", "1,2" as unknown as number[], {}))).toMatchObject({ code: "INVALID_VALUE" });
    await store.write((db) => db.addVector("Doc", [1, 2], {}));
    store.read((db) => {
      expect(strandError(() => db.searchVectors("Doc", [1, Number.POSITIVE_INFINITY], 1))).toMatchObject({ code: "INVALID_VALUE" });
      expect(strandError(() => db.searchVectors("Doc", [1e300, 1], 1))).toEqual({
        code: "INVALID_VALUE",
        status: 400,
        message: "query vector for V::Doc[0] must fit in F32 (magnitude at most 3.4028235e38, the range of the vector index), got 1e+300",
      });
      expect(strandError(() => db.searchVectors("Doc", [1, 2], -1))).toEqual({
        code: "INVALID_VALUE",
        status: 400,
        message: "k must be an integer >= 0, got -1",
      });
      expect(strandError(() => db.searchVectors("Doc", [1, 2], 1.5))).toMatchObject({ code: "INVALID_VALUE" });
      expect(strandError(() => db.searchVectors("Doc", [1, 2], 1, 0))).toEqual({
        code: "INVALID_VALUE",
        status: 400,
        message: "ef must be an integer >= 1, got 0",
      });
      expect(db.searchVectors("Doc", [1, 2], 0)).toEqual([]);
    });
    expect(store.vectorIndexStatus("Doc")).toMatchObject({ live: 1 });
  });

  test("searching a type without vectors finds nothing", () => {
    store.read((db) => expect(db.searchVectors("Doc", [1, 2, 3], 5)).toEqual([]));
  });
});

describe("search", () => {
  test("k larger than the count returns every vector, by score then id, with exact scores", async () => {
    const vs = [
      [1, 0],
      [0, 1],
      [1, 1],
      [-1, 0],
      [2, 0],
    ];
    const docs = await store.write((db) => vs.map((v, i) => db.addVector("Doc", v, { title: `d${i}` })));
    const q = [1, 0.5];
    const got = store.read((db) => db.searchVectors("Doc", q, 50));
    const expected = docs
      .map((d, i): NodeItem => ({ ...d, score: similarity("cosine", q, vs[i]!) }))
      .sort((a, b) => (b.score as number) - (a.score as number) || (a.id < b.id ? -1 : 1))
      .map(({ id, label, data, score, ...fields }) => ({ id, label, data, score, ...fields }));
    expect(got).toEqual(expected);
    // [1,0] and [2,0] tie exactly: the older id comes first.
    expect(got.map((d) => d.title)).toEqual(["d2", "d0", "d4", "d1", "d3"]);
    expect(Object.keys(got[0]!)).toEqual(["id", "label", "data", "score", "title", "rank"]);
  });

  test("a small type is exact: results equal brute force", async () => {
    const normal = gaussian(rng(7));
    // Stored at f32 precision: the exact answer is computed on the vectors as stored.
    const points = Array.from({ length: 3000 }, () => f32Vector(unitVector(normal, 32)));
    const ids = await store.write((db) => points.map((p) => db.addVector("Doc", p, {}).id));
    const queries = Array.from({ length: 40 }, () => unitVector(normal, 32));
    store.read((db) => {
      for (const q of queries) {
        const got = db.searchVectors("Doc", q, 10);
        expect(got.map((d) => d.id)).toEqual(exactTopK(points, q, 10).map((i) => ids[i]));
        expect(got.map((d) => d.score)).toEqual(exactTopK(points, q, 10).map((i) => similarity("cosine", q, points[i]!)));
      }
    });
  });

  test("searching in the write transaction sees its own vectors; a failed write's vectors never appear", async () => {
    const seen = await store.write((db) => {
      db.addVector("Doc", [1, 0], { title: "first" });
      db.addVector("Doc", [0, 1], { title: "second" });
      return db.searchVectors("Doc", [0, 1], 1).map((d) => d.title);
    });
    expect(seen).toEqual(["second"]);
    await expect(
      store.write((db) => {
        db.addVector("Doc", [0.1, 1], { title: "rolled back" });
        throw new StrandError("INVALID_VALUE", "abort");
      }),
    ).rejects.toThrow("abort");
    store.read((db) => expect(db.searchVectors("Doc", [0.1, 1], 5).map((d) => d.title)).toEqual(["second", "first"]));
    expect(store.vectorIndexStatus("Doc")).toMatchObject({ live: 2, generation: 2 });
  });
});

describe("deletes and updates", () => {
  test("dropped vectors are never returned and never reduce the results below k", async () => {
    const normal = gaussian(rng(11));
    const points = Array.from({ length: 300 }, () => unitVector(normal, 8));
    const docs = await store.write((db) => points.map((p, i) => db.addVector("Doc", p, { slug: `s${i}` })));
    const q = points[0]!;
    const nearest = exactTopK(points, q, 20);
    const dropped = new Set(nearest.slice(0, 15).map((i) => docs[i]!.id));
    await store.write((db) => {
      for (const d of docs) if (dropped.has(d.id)) db.dropVector(d);
    });
    const expected = exactTopK(points, q, 25)
      .map((i) => docs[i]!.id)
      .filter((id) => !dropped.has(id))
      .slice(0, 10);
    store.read((db) => {
      expect(db.searchVectors("Doc", q, 10).map((d) => d.id)).toEqual(expected);
      expect(db.vectorsByLabel("Doc").length).toBe(285);
      expect(db.nodesByIndex("Doc", "slug", "s0")).toEqual([]);
    });
    // A freed UNIQUE value can be used again; dropping twice is a no-op.
    await store.write((db) => {
      db.addVector("Doc", q, { slug: "s0" });
      db.dropVector(docs[0]!);
    });
    expect(store.vectorIndexStatus("Doc")).toMatchObject({ live: 286 });
  });

  test("an UPDATE of fields keeps the vector searchable with the new fields", async () => {
    const doc = await store.write((db) => db.addVector("Doc", [0, 1], { title: "old", topic: "a" }));
    await store.write((db) => db.addVector("Doc", [1, 0], { title: "other" }));
    const updated = await store.write((db) => db.updateNodes([doc], { title: "new", topic: "b" }));
    expect(updated).toEqual([{ id: doc.id, label: "Doc", data: [0, 1], title: "new", topic: "b", rank: 0 }]);
    store.read((db) => {
      expect(db.searchVectors("Doc", [0, 1], 1)).toEqual([
        { id: doc.id, label: "Doc", data: [0, 1], score: 1, title: "new", topic: "b", rank: 0 },
      ]);
      expect(db.nodesByIndex("Doc", "topic", "b").map((d) => d.id)).toEqual([doc.id]);
    });
    expect(store.vectorIndexStatus("Doc")).toMatchObject({ live: 2, generation: 2 });
  });

  test("updating the embedding field moves the vector; UpsertV replaces vector and fields", async () => {
    const chunk = await store.write((db) => db.addVector("Chunk", [1, 0], { text: "x" }));
    await store.write((db) => db.addVector("Chunk", [0.6, 0.8], { text: "y" }));
    await store.write((db) => db.updateNodes([chunk], { embedding: [0, 1] }));
    store.read((db) => {
      expect(db.searchVectors("Chunk", [0, 1], 1).map((c) => [c.text, c.score])).toEqual([["x", 1]]);
      expect(db.searchVectors("Chunk", [1, 0], 2).map((c) => c.text)).toEqual(["y", "x"]);
    });
    expect(await writeError((db) => db.updateNodes([chunk], { embedding: [0, 1, 0] }))).toMatchObject({ code: "DIMENSION_MISMATCH" });
    const doc = await store.write((db) => db.addVector("Doc", [1, 0], { title: "t", slug: "u" }));
    const upserted = await store.write((db) => db.upsertVector("Doc", [doc], [0, 1], { title: "t2" }));
    expect(upserted).toEqual({ id: doc.id, label: "Doc", data: [0, 1], title: "t2", slug: "u", rank: 0 });
    const created = await store.write((db) => db.upsertVector("Doc", [], [1, 1], { title: "new" }));
    store.read((db) => {
      expect(db.searchVectors("Doc", [0, 1], 1)).toEqual([
        { id: doc.id, label: "Doc", data: [0, 1], score: 1, title: "t2", slug: "u", rank: 0 },
      ]);
      expect(db.searchVectors("Doc", [1, 1], 1).map((d) => d.id)).toEqual([created.id]);
    });
    expect(store.vectorIndexStatus("Doc")).toMatchObject({ live: 2 });
    expect(store.vectorIndexStatus("Chunk")).toMatchObject({ live: 2 });
  });
});
