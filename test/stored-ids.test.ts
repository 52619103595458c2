// An import's first load into a store that holds records reads the store's ids into its id table
// (runtime/load/stored-ids.ts), each with its type's tag: node records, vectors, edge records
// and the edges without fields in `edge_ends` blocks; unless the store holds many more records
// than the import expects to load, when the loader asks LMDB per record instead.
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { estimateLines } from "../runtime/data/import.js";
import { GraphStore } from "../runtime/graph-store.js";
import { LoadedIds } from "../runtime/load/loaded-ids.js";
import { readUuidWords, uuidWords } from "../runtime/store/id-words.js";
import { idBytes } from "../runtime/store/id-bytes.js";
import { schemaOf } from "./support/compile-schema.js";
import { removeDir, tempDir } from "./support/store-fixtures.js";

const schema = schemaOf(`
N::User { handle: String }
V::Doc { title: String }
E::Follows { From: User, To: User, Properties: { weight: F64 } }
`);
// Tags: node types, then vector types, then edge types, in schema order, from 1.
const USER = 1;
const DOC = 2;
const FOLLOWS = 3;

let dir = "";
let store: GraphStore;

beforeEach(() => {
  dir = tempDir("strand-stored-ids-");
  store = GraphStore.open({ path: path.join(dir, "data"), schema });
});

afterEach(async () => {
  await store.close();
  removeDir(dir);
});

test("readUuidWords reads an id's 16 stored bytes as the words uuidWords reads from its text", () => {
  const id = "0190a5c1-ffff-7000-8000-00000000000a";
  const fromText = new Int32Array(4);
  uuidWords(id, fromText);
  const bytes = new Uint8Array(20);
  bytes.set(idBytes(id), 3);
  const fromBytes = new Int32Array(4);
  readUuidWords(bytes, 3, fromBytes, 0);
  expect([...fromBytes]).toEqual([...fromText]);
});

test("the first load into a store that holds records takes every stored id with its type's tag", async () => {
  const ids = await store.write((db) => {
    const a = db.addNode("User", { handle: "a" }).id;
    const b = db.addNode("User", { handle: "b" }).id;
    const doc = db.addVector("Doc", [1, 0], { title: "d" }).id;
    // 20 edges without fields (more than one edge_ends block of 16) and one with a field.
    const bare = Array.from({ length: 20 }, () => db.addEdge("Follows", {}, a, b).id);
    const weighted = db.addEdge("Follows", { weight: 2 }, b, a).id;
    return { a, b, doc, bare, weighted };
  });
  const loaded = new LoadedIds();
  loaded.reserve(10);
  await store.load(() => {}, loaded);
  expect(loaded.size).toBe(24);
  expect([ids.a, ids.b, ids.doc, ids.weighted, ...ids.bare].map((id) => loaded.get(id))).toEqual([
    USER,
    USER,
    DOC,
    FOLLOWS,
    ...ids.bare.map(() => FOLLOWS),
  ]);
  expect(loaded.get("0190a5c1-0000-7000-8000-00000000000a")).toBe(0);
});

test("a store holding more than 8 records per id the import expects is asked per record instead", async () => {
  await store.write((db) => {
    for (let i = 0; i < 9; i++) db.addNode("User", { handle: `u${i}` });
  });
  const few = new LoadedIds();
  few.reserve(1);
  await store.load(() => {}, few);
  expect(few.size).toBe(0);
  const enough = new LoadedIds();
  enough.reserve(2);
  await store.load(() => {}, enough);
  expect(enough.size).toBe(9);
});

test("an import sizes its id table by the lines its files hold: counted in a small file, scaled from the first MiB in a large one", () => {
  const small = path.join(dir, "small.jsonl");
  fs.writeFileSync(small, "a\nb\nc");
  expect(estimateLines(small)).toBe(3);
  fs.writeFileSync(small, "a\nb\nc\n");
  expect(estimateLines(small)).toBe(3);
  fs.writeFileSync(small, "");
  expect(estimateLines(small)).toBe(0);
  // 3 MiB of 100-byte lines, then 20 KB ones would be a much smaller count: the sample scales.
  const large = path.join(dir, "large.jsonl");
  const within = (estimate: number, lines: number) => Math.abs(estimate - lines) / lines;
  fs.writeFileSync(large, `${"x".repeat(99)}\n`.repeat(3 * 10_486));
  expect(within(estimateLines(large), 3 * 10_486)).toBeLessThan(0.001);
  fs.writeFileSync(large, `${"v".repeat(19_999)}\n`.repeat(200));
  expect(within(estimateLines(large), 200)).toBeLessThan(0.01);
  expect(estimateLines(path.join(dir, "missing.jsonl"))).toBe(0);
});
