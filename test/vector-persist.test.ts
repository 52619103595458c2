// The HNSW index files: loaded when they match LMDB, rebuilt when missing, stale, corrupt or
// built with other parameters, and searches answer the same either way.
import fs from "node:fs";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { GraphStoreOptions } from "../runtime/graph-store.js";
import { GraphStore } from "../runtime/graph-store.js";
import { f32Vector } from "../runtime/store/vector-encoding.js";
import { indexPaths } from "../runtime/vector/index-files.js";
import { removeDir, tempDir } from "./support/store-fixtures.js";
import { gaussian, rng, unitVector, vectorSchema } from "./support/vector-fixtures.js";

const DIM = 8;
const COUNT = 5000; // above the exact-search limit: searches go through the HNSW index
let dir = "";
let queries: number[][] = [];
let before: string[][] = [];

function open(options: Partial<GraphStoreOptions> = {}): GraphStore {
  return GraphStore.open({ path: dir, schema: vectorSchema, ...options });
}

function searchAll(store: GraphStore): string[][] {
  return store.read((db) => queries.map((q) => db.searchVectors("Doc", q, 10).map((d) => d.id)));
}

async function reopenAndCompare(options: Partial<GraphStoreOptions> = {}): Promise<ReturnType<GraphStore["vectorIndexStatus"]>> {
  const store = open(options);
  try {
    expect(searchAll(store)).toEqual(before);
    return store.vectorIndexStatus("Doc");
  } finally {
    await store.close();
  }
}

beforeEach(async () => {
  dir = tempDir("strand-vpersist-");
  const normal = gaussian(rng(21));
  queries = Array.from({ length: 20 }, () => unitVector(normal, DIM));
  const store = open();
  await store.write((db) => {
    for (let i = 0; i < COUNT; i++) db.addVector("Doc", unitVector(normal, DIM), {});
  });
  await store.write((db) => db.addVector("Chunk", [1, 2, 3], { text: "c" }));
  before = searchAll(store);
  expect(store.vectorIndexStatus("Doc")).toEqual({
    label: "Doc",
    source: "empty",
    reason: null,
    live: COUNT,
    generation: COUNT,
    replayed: 0,
  });
  await store.close();
});

afterEach(() => removeDir(dir));

describe("index files", () => {
  test("a clean close saves every index and the next open loads them", async () => {
    const paths = indexPaths(dir, "Doc");
    expect(fs.existsSync(paths.index)).toBe(true);
    const meta = JSON.parse(fs.readFileSync(paths.meta, "utf8")) as Record<string, unknown>;
    expect(meta).toMatchObject({
      format: 1,
      label: "Doc",
      generation: COUNT,
      dimension: DIM,
      live: COUNT,
      metric: "cosine",
      m: 16,
      efConstruction: 128,
    });
    expect(await reopenAndCompare()).toEqual({ label: "Doc", source: "loaded", reason: null, live: COUNT, generation: COUNT, replayed: 0 });
    const store = open();
    try {
      expect(store.vectorIndexStatus("Chunk")).toMatchObject({ source: "loaded", live: 1 });
    } finally {
      await store.close();
    }
  });

  test("a loaded index keeps working: writes apply to it and the next close saves it again", async () => {
    const store = open();
    const extra = await store.write((db) => db.addVector("Doc", queries[0]!, { title: "extra" }));
    await store.write((db) => db.dropVector(db.vectorById("Doc", before[1]![0]!)));
    store.read((db) => {
      // Searched with the vector as stored (f32): its own score is then exactly 1.
      expect(db.searchVectors("Doc", f32Vector(queries[0]!), 1).map((d) => [d.id, d.score])).toEqual([[extra.id, 1]]);
      expect(db.searchVectors("Doc", queries[1]!, 10).map((d) => d.id)).not.toContain(before[1]![0]);
    });
    expect(store.vectorIndexStatus("Doc")).toEqual({
      label: "Doc",
      source: "loaded",
      reason: null,
      live: COUNT,
      generation: COUNT + 2,
      replayed: 0,
    });
    await store.close();
    const again = open();
    try {
      expect(again.vectorIndexStatus("Doc")).toEqual({
        label: "Doc",
        source: "loaded",
        reason: null,
        live: COUNT,
        generation: COUNT + 2,
        replayed: 0,
      });
      again.read((db) => expect(db.searchVectors("Doc", queries[0]!, 1).map((d) => d.id)).toEqual([extra.id]));
    } finally {
      await again.close();
    }
  });

  test("a missing index file is rebuilt from LMDB", async () => {
    fs.rmSync(indexPaths(dir, "Doc").index);
    expect(await reopenAndCompare()).toMatchObject({ source: "rebuilt", reason: "missing", live: COUNT });
    // That close saved the rebuilt index.
    expect(await reopenAndCompare()).toMatchObject({ source: "loaded" });
  });

  test("flipped bytes in the index file are detected by the checksum and rebuilt", async () => {
    const file = indexPaths(dir, "Doc").index;
    const bytes = fs.readFileSync(file);
    for (const at of [40, Math.floor(bytes.length / 2), bytes.length - 3]) bytes[at]! ^= 0xff;
    fs.writeFileSync(file, bytes);
    expect(await reopenAndCompare()).toMatchObject({ source: "rebuilt", reason: "corrupt: checksum mismatch" });
  });

  test("a truncated index file and an unreadable meta file are rebuilt", async () => {
    const paths = indexPaths(dir, "Doc");
    fs.truncateSync(paths.index, 1000);
    expect(await reopenAndCompare()).toMatchObject({ source: "rebuilt", reason: "corrupt: checksum mismatch" });
    fs.writeFileSync(paths.meta, "{ not json");
    expect(await reopenAndCompare()).toMatchObject({ source: "rebuilt", reason: "corrupt meta file" });
  });

  test("files from an older state (stale generation) are rebuilt, not loaded", async () => {
    const paths = indexPaths(dir, "Doc");
    const oldIndex = fs.readFileSync(paths.index);
    const oldMeta = fs.readFileSync(paths.meta);
    const store = open();
    const added = await store.write((db) => db.addVector("Doc", queries[2]!, {}));
    await store.close();
    fs.writeFileSync(paths.index, oldIndex);
    fs.writeFileSync(paths.meta, oldMeta);
    const again = open();
    try {
      expect(again.vectorIndexStatus("Doc")).toEqual({
        label: "Doc",
        source: "rebuilt",
        reason: `stale: generation is ${COUNT} in the file, ${COUNT + 1} expected, and the vector log does not cover the difference`,
        live: COUNT + 1,
        generation: COUNT + 1,
        replayed: 0,
      });
      again.read((db) => expect(db.searchVectors("Doc", queries[2]!, 1).map((d) => d.id)).toEqual([added.id]));
    } finally {
      await again.close();
    }
  });

  test("files of another store (other epoch) are never loaded", async () => {
    const other = tempDir("strand-vpersist-other-");
    try {
      const store = GraphStore.open({ path: other, schema: vectorSchema });
      await store.close();
      fs.cpSync(`${dir}/vectors`, `${other}/vectors`, { recursive: true });
      const copy = GraphStore.open({ path: other, schema: vectorSchema });
      try {
        expect(copy.vectorIndexStatus("Doc")).toMatchObject({ source: "empty", live: 0 });
        copy.read((db) => expect(db.searchVectors("Doc", queries[0]!, 5)).toEqual([]));
        await copy.write((db) => db.addVector("Doc", queries[0]!, {}));
        copy.read((db) => expect(db.searchVectors("Doc", queries[0]!, 5).length).toBe(1));
      } finally {
        await copy.close();
      }
      // The close replaced the foreign files with this store's own; they load, with one vector.
      const again = GraphStore.open({ path: other, schema: vectorSchema });
      try {
        expect(again.vectorIndexStatus("Doc")).toMatchObject({ source: "loaded", live: 1 });
      } finally {
        await again.close();
      }
    } finally {
      removeDir(other);
    }
  });

  test("other HNSW parameters rebuild the index with them", async () => {
    const status = await reopenAndCompareLoose({ vector: { m: 8 } });
    expect(status).toMatchObject({ source: "rebuilt", reason: "different parameters: m is 16 in the file, 8 expected" });
  });
});

/** Like reopenAndCompare, for parameters that may legitimately change approximate results. */
async function reopenAndCompareLoose(options: Partial<GraphStoreOptions>): Promise<ReturnType<GraphStore["vectorIndexStatus"]>> {
  const store = open(options);
  try {
    expect(searchAll(store).every((ids) => ids.length === 10)).toBe(true);
    return store.vectorIndexStatus("Doc");
  } finally {
    await store.close();
  }
}
