// Vectors are stored once, as f32 (runtime/store/vector-encoding.ts, format 4): the record holds
// the components as 4-byte floats, and every answer gives each component as the shortest decimal
// that reads back as the same f32.
import { open } from "lmdb";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { GraphStore } from "../runtime/graph-store.js";
import { f32Bytes, shortestF32, vectorOfF32Bytes } from "../runtime/store/vector-encoding.js";
import { removeDir, tempDir } from "./support/store-fixtures.js";
import { rng, vectorSchema } from "./support/vector-fixtures.js";
import { itemKey } from "../runtime/store/keys.js";

describe("shortestF32", () => {
  test("gives the shortest decimal that reads back as the same f32", () => {
    const cases = [0.1, 0.123456789, 1 / 3, -2.5, 1, 0, 1e-7, 16777217, 3.4e38, 1e-45, 2 ** -20, 1024, -0.3, 5e-324];
    expect(cases.map(shortestF32)).toEqual([
      0.1, 0.12345679, 0.33333334, -2.5, 1, 0, 1e-7, 16777216, 3.4e38, 1e-45, 9.536743e-7, 1024, -0.3, 0,
    ]);
  });

  test("agrees with trying every length of toPrecision, on 20,000 random values across 30 decades", () => {
    const random = rng(11);
    const disagree: number[] = [];
    for (let i = 0; i < 20_000; i++) {
      const x = (random() * 2 - 1) * 10 ** Math.floor(random() * 30 - 15);
      const f = Math.fround(x);
      let digits = 1;
      while (Math.fround(Number(f.toPrecision(digits))) !== f) digits++;
      const got = shortestF32(x);
      if (got !== Number(f.toPrecision(digits)) || Math.fround(got) !== f) disagree.push(x);
    }
    expect(disagree).toEqual([]);
  });

  test("f32 bytes round-trip through the shortest decimals", () => {
    const v = [0.1, -0.123456789, 1e-30, 3e38];
    expect(vectorOfF32Bytes(f32Bytes(v))).toEqual([0.1, -0.12345679, 1e-30, 3e38]);
    expect(f32Bytes(v).length).toBe(16);
  });
});

describe("vector records", () => {
  let dir = "";
  let store: GraphStore;
  beforeEach(() => {
    dir = tempDir("strand-f32-");
    store = GraphStore.open({ path: dir, schema: vectorSchema });
  });
  afterEach(async () => {
    await store.close();
    removeDir(dir);
  });

  /** The raw stored record (msgpack without Strand's decoding). */
  async function rawRecord(label: string, id: string): Promise<Record<string, unknown>> {
    await store.close();
    const env = open({ path: dir, noSubdir: false, readOnly: true, maxDbs: 32 });
    try {
      const plainMaps: object = { encoder: { useRecords: false } };
      return env
        .openDB<Record<string, unknown>, Uint8Array>({ name: "nodes", keyEncoding: "binary", ...plainMaps })
        .get(itemKey(label, id))!;
    } finally {
      await env.close();
      store = GraphStore.open({ path: dir, schema: vectorSchema });
    }
  }

  test("are stored as f32 bytes and read back as the shortest decimals, also what the write returns", async () => {
    const doc = await store.write((db) => db.addVector("Doc", [0.1, 0.123456789, 1 / 3, -2.5], { title: "a" }));
    expect(doc).toEqual({ id: doc.id, label: "Doc", data: [0.1, 0.12345679, 0.33333334, -2.5], title: "a", rank: 0 });
    expect(store.read((db) => db.vectorById("Doc", doc.id))).toEqual(doc);
    const raw = await rawRecord("Doc", doc.id);
    expect(Object.keys(raw)).toEqual(["id", "label", "data", "title", "rank"]);
    expect(raw.data instanceof Uint8Array && [...raw.data]).toEqual([...f32Bytes([0.1, 0.123456789, 1 / 3, -2.5])]);
    // Reopened: the same answer.
    expect(store.read((db) => db.vectorById("Doc", doc.id))).toEqual(doc);
    expect(store.verify().disagreements).toEqual([]);
  });

  test("a type's `embedding` field is stored the same way", async () => {
    const chunk = await store.write((db) => db.addVector("Chunk", [0.7, 1e-8], { text: "t" }));
    expect(chunk).toEqual({ id: chunk.id, label: "Chunk", text: "t", embedding: [0.7, 1e-8] });
    const raw = await rawRecord("Chunk", chunk.id);
    expect(raw.embedding instanceof Uint8Array && raw.embedding.length).toBe(8);
    expect(store.read((db) => db.vectorById("Chunk", chunk.id))).toEqual(chunk);
    expect(store.verify().disagreements).toEqual([]);
  });

  test("an N record's array field keeps full f64 precision", async () => {
    const schema = {
      ...vectorSchema,
      nodes: [
        ...vectorSchema.nodes,
        {
          name: "Reading",
          fields: [
            {
              name: "data",
              type: { kind: "array" as const, element: { kind: "scalar" as const, name: "F64" as const } },
              index: "none" as const,
              default: null,
            },
          ],
        },
      ],
    };
    await store.close();
    store = GraphStore.open({ path: dir, schema });
    const r = await store.write((db) => db.addNode("Reading", { data: [0.123456789, 1 / 3] }));
    expect(store.read((db) => db.nodeById("Reading", r.id))).toEqual({ id: r.id, label: "Reading", data: [0.123456789, 1 / 3] });
  });
});
