// A schema edited without a migration (audit 5, D2 and D3): when the store opens with a type
// whose definition differs from the one its records were stored under, every record of that
// type is revalidated in one transaction (defaults filled, INDEX / UNIQUE INDEX entries built,
// BM25 and vectors kept consistent), or the open is refused naming the type, record, field and
// value — and then nothing has changed: the previous project still opens the data.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { open } from "lmdb";
import { afterEach, describe, expect, test } from "vitest";
import { compileProject } from "../compiler/index.js";
import type { NodeItem } from "../core/items.js";
import { GraphStore } from "../runtime/graph-store.js";
import { DB_NAMES } from "../runtime/store/keys.js";
import { SCHEMA_TYPES_KEY, SCHEMA_VERSION_KEY } from "../runtime/migrate/migrate.js";
import { call, CLI, REPO_ROOT, startStrand } from "./support/server.js";
import { schemaOf } from "./support/compile-schema.js";
import { removeDir, tempDir } from "./support/store-fixtures.js";
import { indexBound } from "../runtime/store/keys.js";

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) removeDir(d);
  dirs = [];
});

function newDir(): string {
  const dir = tempDir();
  dirs.push(dir);
  return dir;
}

const NOTHING_CHANGED = "nothing was changed (the data still opens with the previous project)";
const DECLARE_VERSIONS =
  "To convert stored records, declare versions: put the schema the data was written with in schema::1 { .. } and the new one in schema::2 { .. }, and add a migration, e.g. MIGRATION schema::1 => schema::2";

/** Every byte the store holds: each LMDB database's entries and the HNSW files (a refused open writes none). */
function rawContents(dir: string): Record<string, string[]> {
  const env = open({ path: dir, readOnly: true, maxDbs: DB_NAMES.length + 4 });
  const out: Record<string, string[]> = {};
  for (const name of DB_NAMES) {
    const db = env.openDB<Buffer, Buffer>({ name, keyEncoding: "binary", encoding: "binary" });
    out[name] = [...db.getRange()].map(({ key, value }) => `${Buffer.from(key).toString("hex")}=${Buffer.from(value).toString("hex")}`);
  }
  void env.close();
  const vectors = join(dir, "vectors");
  out["vectors/"] = existsSync(vectors)
    ? readdirSync(vectors)
        .sort()
        .map((f) => `${f}=${readFileSync(join(vectors, f)).toString("hex")}`)
    : [];
  return out;
}

/** Everything stored, to compare before and after a refused open. */
function snapshot(store: GraphStore, labels: string[]): Record<string, NodeItem[]> {
  return store.read((db) => Object.fromEntries(labels.map((l) => [l, db.nodesByLabel(l)])));
}

// The auditor's project: two users named "ann", then a schema edit with no schema:: blocks.
const OLD = "N::User { name: String, age: U32 }";

async function seedUsers(dir: string): Promise<string[]> {
  const store = GraphStore.open({ path: dir, schema: schemaOf(OLD) });
  const ids = await store.write((db) => [db.addNode("User", { name: "ann", age: 3 }).id, db.addNode("User", { name: "ann", age: 4 }).id]);
  await store.close();
  return ids;
}

async function refusedAndUntouched(dir: string, newSchema: string, message: string, old = OLD, labels = ["User"]): Promise<void> {
  const before = GraphStore.open({ path: dir, schema: schemaOf(old) });
  const data = snapshot(before, labels);
  await before.close();
  expect(() => GraphStore.open({ path: dir, schema: schemaOf(newSchema) })).toThrow(message);
  const after = GraphStore.open({ path: dir, schema: schemaOf(old) });
  expect(snapshot(after, labels)).toEqual(data);
  expect(after.schemaUpdate.revalidated).toEqual({});
  await after.close();
}

describe("an unversioned schema edited without a migration (D2)", () => {
  test("a value that no longer fits its field refuses the open, names type, record, field and value, and suggests a migration", async () => {
    const dir = newDir();
    const [ann] = await seedUsers(dir);
    await refusedAndUntouched(
      dir,
      "N::User { UNIQUE INDEX name: String, age: String, INDEX tier: U32 DEFAULT 5 }",
      `N::User ${ann}: 'age' must be a string (String), got 3. The definition of N::User changed since this record was stored, and stored records must fit it; ${NOTHING_CHANGED}. ${DECLARE_VERSIONS} { N::User => _::{ age: age AS String } }`,
    );
  });

  test("a new UNIQUE INDEX over duplicate values refuses the open, naming the field, the value and both records", async () => {
    const dir = newDir();
    const [a, b] = await seedUsers(dir);
    await refusedAndUntouched(
      dir,
      "N::User { UNIQUE INDEX name: String, age: U32 }",
      `N::User field 'name' is now a UNIQUE INDEX, but records ${a} and ${b} both hold "ann"; ${NOTHING_CHANGED}. Make the values distinct with the previous project, or declare the field INDEX instead of UNIQUE INDEX`,
    );
  });

  test("a removed field that records still hold refuses the open: values are never dropped silently", async () => {
    const dir = newDir();
    const [a] = await seedUsers(dir);
    await refusedAndUntouched(
      dir,
      "N::User { name: String }",
      `N::User ${a}: holds field 'age' (3), which N::User no longer declares; stored values are never dropped silently, so ${NOTHING_CHANGED}. ` +
        `Declare the field again, or drop or rename it with a migration. ${DECLARE_VERSIONS} { N::User => _::{} }: a MIGRATION item drops the fields the new type does not declare, and newName: age renames one`,
    );
  });

  test("new fields get their DEFAULT, new INDEX and UNIQUE INDEX entries are built and enforced; the next open checks nothing", async () => {
    const dir = newDir();
    const store0 = GraphStore.open({ path: dir, schema: schemaOf(OLD) });
    const [ann, bob] = await store0.write((db) => [
      db.addNode("User", { name: "ann", age: 3 }).id,
      db.addNode("User", { name: "bob", age: 4 }).id,
    ]);
    await store0.close();
    const NEW = 'N::User { UNIQUE INDEX name: String, INDEX age: U32, INDEX tier: U32 DEFAULT 5, note: String DEFAULT "n/a" }';
    const store = GraphStore.open({ path: dir, schema: schemaOf(NEW) });
    expect(store.schemaUpdate).toEqual({ from: null, to: null, rewritten: {}, revalidated: { "N::User": 2 } });
    expect(
      store.read((db) => ({
        all: db.nodesByLabel("User"),
        byName: db.nodesByIndex("User", "name", "ann").map((u) => u.id),
        byTier: db.nodesByIndex("User", "tier", 5).map((u) => u.id),
        byAge: db.nodesByIndex("User", "age", 4).map((u) => u.id),
      })),
    ).toEqual({
      all: [
        { id: ann, label: "User", name: "ann", age: 3, tier: 5, note: "n/a" },
        { id: bob, label: "User", name: "bob", age: 4, tier: 5, note: "n/a" },
      ],
      byName: [ann],
      byTier: [ann, bob],
      byAge: [bob],
    });
    await expect(store.write((db) => db.addNode("User", { name: "ann", age: 9 }))).rejects.toThrow(
      `UNIQUE INDEX violated: N::User field 'name' already has value "ann"`,
    );
    await store.close();
    const again = GraphStore.open({ path: dir, schema: schemaOf(NEW) });
    expect(again.schemaUpdate.revalidated).toEqual({});
    await again.close();
  });

  test("dropping an INDEX removes its entries; a changed edge type is revalidated (defaults, new UNIQUE over its (from, to) pairs)", async () => {
    const OLD_G = "N::P { INDEX name: String }\nE::Knows { From: P, To: P, Properties: { since: I32 } }";
    const dir = newDir();
    const s0 = GraphStore.open({ path: dir, schema: schemaOf(OLD_G) });
    const { a, b, e1, e2 } = await s0.write((db) => {
      const a = db.addNode("P", { name: "a" }).id;
      const b = db.addNode("P", { name: "b" }).id;
      return { a, b, e1: db.addEdge("Knows", { since: 1 }, a, b).id, e2: db.addEdge("Knows", { since: 2 }, a, b).id };
    });
    await s0.close();
    await refusedAndUntouched(
      dir,
      "N::P { name: String }\nE::Knows UNIQUE { From: P, To: P, Properties: { since: I32 } }",
      `E::Knows is UNIQUE, but edges ${e1} and ${e2} both go from ${a} to ${b}; ${NOTHING_CHANGED}. Drop one of them with the previous project, or declare E::Knows without UNIQUE`,
      OLD_G,
      ["P"],
    );
    const s1 = GraphStore.open({
      path: dir,
      schema: schemaOf("N::P { name: String }\nE::Knows { From: P, To: P, Properties: { since: I32, w: F64 DEFAULT 1.5 } }"),
    });
    expect(s1.schemaUpdate.revalidated).toEqual({ "N::P": 2, "E::Knows": 2 });
    expect(s1.read((db) => db.edgesByLabel("Knows").map((e) => [e.since, e.w]))).toEqual([
      [1, 1.5],
      [2, 1.5],
    ]);
    await s1.close();
    const env = open({ path: dir });
    const index = env.openDB<null, Uint8Array>({ name: "index", keyEncoding: "binary" });
    expect([...index.getKeys({ start: indexBound(["N", "P"]), end: indexBound(["N", "P"], true) })]).toEqual([]);
    await env.close();
  });

  test("BM25 follows revalidated records: a DEFAULT given to a text field is searchable in the records that lacked it", async () => {
    const dir = newDir();
    const s0 = GraphStore.open({ path: dir, schema: schemaOf("N::Doc { title: String, status: String }") });
    const id = await s0.write((db) => db.addNode("Doc", { title: "graph" }).id);
    expect(s0.read((db) => db.searchBM25("Doc", "draft", 5))).toEqual([]);
    await s0.close();
    const s1 = GraphStore.open({ path: dir, schema: schemaOf('N::Doc { title: String, status: String DEFAULT "draft" }') });
    expect(s1.read((db) => db.searchBM25("Doc", "draft", 5).map((d) => [d.id, d.status]))).toEqual([[id, "draft"]]);
    await s1.close();
  });

  test("an edge whose end is no longer of its type's From/To, and a vector moved between data and embedding, refuse the open", async () => {
    const OLD_G = "N::P { name: String }\nN::Q { name: String }\nE::Knows { From: P, To: P }\nV::Doc { title: String }";
    const dir = newDir();
    const s0 = GraphStore.open({ path: dir, schema: schemaOf(OLD_G) });
    const { a, e, d } = await s0.write((db) => {
      const a = db.addNode("P", { name: "a" }).id;
      return { a, e: db.addEdge("Knows", {}, a, a).id, d: db.addVector("Doc", [1, 2], { title: "t" }).id };
    });
    await s0.close();
    await refusedAndUntouched(
      dir,
      OLD_G.replace("From: P", "From: Q"),
      `E::Knows ${e}: its From node ${a} is of type P, not Q, but E::Knows is now declared From: Q; ${NOTHING_CHANGED}. Drop or re-create those edges with the previous project, or keep From: P`,
      OLD_G,
      ["P", "Doc"],
    );
    await refusedAndUntouched(
      dir,
      OLD_G.replace("V::Doc { title: String }", "V::Doc { title: String, embedding: [F64] }"),
      `V::Doc ${d}: its vector is stored in 'data', but V::Doc now keeps it in its 'embedding' field; moving a stored vector is not supported: ${NOTHING_CHANGED}. ` +
        "Keep the vector in 'data' (declare no 'embedding' field in V::Doc), or drop the vectors with the previous project and re-add them with the new one",
      OLD_G,
      ["P", "Doc"],
    );
  });

  test("a store written before definitions were recorded has every type revalidated once", async () => {
    const dir = newDir();
    const [a, b] = await seedUsers(dir);
    // What an older Strand left behind: records, no "schema_types".
    const env = open({ path: dir });
    const meta = env.openDB<unknown, string>({ name: "meta" });
    await meta.remove(SCHEMA_TYPES_KEY);
    await env.close();
    const s1 = GraphStore.open({ path: dir, schema: schemaOf("N::User { INDEX name: String, age: U32 }") });
    expect(s1.schemaUpdate.revalidated).toEqual({ "N::User": 2 });
    expect(s1.read((db) => db.nodesByIndex("User", "name", "ann").map((u) => u.id))).toEqual([a, b]);
    await s1.close();
  });
});

describe("a versioned schema whose MIGRATION leaves a changed type out (D3)", () => {
  const V1 = `
schema::1 {
    N::User { name: String, rank: F64 }
    N::Tag { label_: String }
    V::Doc { title: String, rank: F64 }
}`;
  const V2_TYPES = `
schema::2 {
    N::User { INDEX name: String, rank: I32 }
    N::Tag { label_: String, n: I32 }
    V::Doc { INDEX title: String, rank: F64 }
}`;

  async function seed(dir: string): Promise<{ user: string; doc: string }> {
    const store = GraphStore.open({ path: dir, schema: schemaOf(V1) });
    const ids = await store.write((db) => {
      db.addNode("Tag", { label_: "x" });
      return {
        user: db.addNode("User", { name: "Ada", rank: 3.9 }).id,
        doc: db.addVector("Doc", [1, 0, 0], { title: "intro", rank: 0.5 }).id,
      };
    });
    await store.close();
    return ids;
  }

  test("a value that no longer fits refuses the open and says to list the type in the MIGRATION", async () => {
    const dir = newDir();
    const { user } = await seed(dir);
    await refusedAndUntouched(
      dir,
      `${V1}${V2_TYPES}\nMIGRATION schema::1 => schema::2 { N::Tag => _::{ n: 0 } }`,
      `N::User ${user}: 'rank' must be an integer between -2147483648 and 2147483647 (I32), got 3.9. The definition of N::User changed since this record was stored, and stored records must fit it; ${NOTHING_CHANGED}. List N::User in MIGRATION schema::1 => schema::2, e.g. N::User => _::{ rank: ROUND(rank) }`,
      V1,
      ["User", "Tag", "Doc"],
    );
  });

  test("with the type listed, every changed type is converted or revalidated: indexes built, vectors still searchable", async () => {
    const dir = newDir();
    const { user, doc } = await seed(dir);
    const store = GraphStore.open({
      path: dir,
      schema: schemaOf(`${V1}${V2_TYPES}\nMIGRATION schema::1 => schema::2 { N::Tag => _::{ n: 0 } N::User => _::{ rank: ROUND(rank) } }`),
    });
    expect(store.schemaUpdate).toEqual({ from: 1, to: 2, rewritten: { "N::Tag": 1, "N::User": 1 }, revalidated: { "V::Doc": 1 } });
    expect(
      store.read((db) => ({
        user: db.nodesByIndex("User", "name", "Ada"),
        tags: db.nodesByLabel("Tag").map((t) => t.n),
        doc: db.nodesByIndex("Doc", "title", "intro").map((d) => d.id),
        near: db.searchVectors("Doc", [1, 0, 0], 1).map((d) => d.id),
      })),
    ).toEqual({ user: [{ id: user, label: "User", name: "Ada", rank: 4 }], tags: [0], doc: [doc], near: [doc] });
    await store.close();
  });

  test("a vector type retyped outside the MIGRATION is checked too", async () => {
    const dir = newDir();
    const { doc } = await seed(dir);
    await refusedAndUntouched(
      dir,
      `${V1}\nschema::2 {\n    N::User { name: String, rank: F64 }\n    N::Tag { label_: String }\n    V::Doc { title: String, rank: I32 }\n}\nMIGRATION schema::1 => schema::2 { N::Tag => _::{} }`,
      `V::Doc ${doc}: 'rank' must be an integer between -2147483648 and 2147483647 (I32), got 0.5. The definition of V::Doc changed since this record was stored, and stored records must fit it; ${NOTHING_CHANGED}. List V::Doc in MIGRATION schema::1 => schema::2, e.g. V::Doc => _::{ rank: ROUND(rank) }`,
      V1,
      ["User", "Tag", "Doc"],
    );
  });

  test("a definition changed in place (same schema::N) is revalidated, and a misfit says to declare the next version", async () => {
    const dir = newDir();
    const { user } = await seed(dir);
    const inPlace = V1.replace(
      "N::User { name: String, rank: F64 }",
      'N::User { name: String, rank: F64, INDEX team: String DEFAULT "none" }',
    );
    const s1 = GraphStore.open({ path: dir, schema: schemaOf(inPlace) });
    expect(s1.schemaUpdate).toEqual({ from: 1, to: 1, rewritten: {}, revalidated: { "N::User": 1 } });
    expect(s1.read((db) => db.nodesByIndex("User", "team", "none").map((u) => u.id))).toEqual([user]);
    await s1.close();
    await refusedAndUntouched(
      dir,
      inPlace.replace("rank: F64, INDEX team", "rank: U8, INDEX team"),
      `N::User ${user}: 'rank' must be an integer between 0 and 255 (U8), got 3.9. The definition of N::User changed since this record was stored, and stored records must fit it; ${NOTHING_CHANGED}. ` +
        "To convert stored records, keep schema::1 as the data was written, declare the new definition as schema::2, and add a migration, e.g. MIGRATION schema::1 => schema::2 { N::User => _::{ rank: ROUND(rank) } }",
      inPlace,
      ["User", "Tag", "Doc"],
    );
  });
});

describe("a type removed from the schema while records of it are stored (audit 6, H1)", () => {
  const OLD_T =
    "N::A { name: String, n: I64 }\nN::B { title: String }\nE::L { From: A, To: B, Properties: { w: F64 } }\nV::Vec { tag: String }";
  const WITHOUT_L = "N::A { name: String, n: I64 }\nN::B { title: String }\nV::Vec { tag: String }";
  const LABELS = ["A", "B", "Vec"];

  async function seed(dir: string, vectors = true): Promise<{ a1: string; b: string; e1: string; v: string | null }> {
    const store = GraphStore.open({ path: dir, schema: schemaOf(OLD_T) });
    const ids = await store.write((db) => {
      const a1 = db.addNode("A", { name: "a1", n: 1 }).id;
      const a2 = db.addNode("A", { name: "a2", n: 2 }).id;
      const b = db.addNode("B", { title: "b" }).id;
      const e1 = db.addEdge("L", { w: 1 }, a1, b).id;
      db.addEdge("L", { w: 2 }, a2, b);
      const v = vectors ? db.addVector("Vec", [1, 0], { tag: "t" }).id : null;
      return { a1, b, e1, v };
    });
    await store.close(); // saves the HNSW files
    return ids;
  }

  /** The open is refused with `message`; not a byte changed; the previous project opens everything. */
  async function refused(dir: string, newSchema: string, message: string, old = OLD_T): Promise<void> {
    const before = rawContents(dir);
    const s0 = GraphStore.open({ path: dir, schema: schemaOf(old) });
    const data = snapshot(s0, LABELS);
    const edges = s0.read((db) => db.edgesByLabel("L"));
    await s0.close();
    let error: unknown;
    try {
      GraphStore.open({ path: dir, schema: schemaOf(newSchema) }).close();
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: "SCHEMA_MISMATCH", message });
    expect(rawContents(dir)).toEqual(before);
    const s1 = GraphStore.open({ path: dir, schema: schemaOf(old) });
    expect(snapshot(s1, LABELS)).toEqual(data);
    expect(s1.read((db) => db.edgesByLabel("L"))).toEqual(edges);
    await s1.close();
  }

  test("a node type and its edge type removed: both named, with counts, a sample id and how to delete them", async () => {
    const dir = newDir();
    const { b, e1 } = await seed(dir);
    await refused(
      dir,
      "N::A { name: String, n: I64 }\nV::Vec { tag: String }",
      `the data holds records of types the schema no longer declares: N::B (1 record, e.g. ${b}), E::L (2 records, e.g. ${e1}); stored records are never dropped silently, so ${NOTHING_CHANGED}. ` +
        "Declare N::B and E::L again, or delete their records first with the previous project (e.g. DROP N<B>, DROP E<L>); a MIGRATION cannot remove a type",
    );
  });

  test("an edge type removed while its From and To types stay refuses the open too", async () => {
    const dir = newDir();
    const { e1 } = await seed(dir);
    await refused(
      dir,
      WITHOUT_L,
      `the data holds records of a type the schema no longer declares: E::L (2 records, e.g. ${e1}); stored records are never dropped silently, so ${NOTHING_CHANGED}. ` +
        "Declare E::L again, or delete its records first with the previous project (e.g. DROP E<L>); a MIGRATION cannot remove a type",
    );
  });

  test("a vector type removed refuses the open; its HNSW files are kept and the previous project loads them", async () => {
    const dir = newDir();
    const { v } = await seed(dir);
    await refused(
      dir,
      OLD_T.replace("\nV::Vec { tag: String }", ""),
      `the data holds records of a type the schema no longer declares: V::Vec (1 record, e.g. ${v}); stored records are never dropped silently, so ${NOTHING_CHANGED}. ` +
        "Declare V::Vec again, or delete its records first with the previous project (e.g. DROP V<Vec>); a MIGRATION cannot remove a type",
    );
    const s1 = GraphStore.open({ path: dir, schema: schemaOf(OLD_T) });
    expect(s1.vectorIndexStatus("Vec").source).toBe("loaded");
    expect(s1.read((db) => db.searchVectors("Vec", [1, 0], 1).map((x) => x.id))).toEqual([v]);
    await s1.close();
  });

  test("a MIGRATION to a version without the type is refused the same way, and the data stays at its version", async () => {
    const dir = newDir();
    const V1 = `schema::1 {\n${OLD_T}\n}`;
    const store = GraphStore.open({ path: dir, schema: schemaOf(V1) });
    const b = await store.write((db) => db.addNode("B", { title: "b" }).id);
    await store.close();
    await refused(
      dir,
      `${V1}\nschema::2 {\n${WITHOUT_L.replace("N::B { title: String }\n", "")}\n}\nMIGRATION schema::1 => schema::2 { N::A => _::{} }`,
      `the data holds records of a type the schema no longer declares: N::B (1 record, e.g. ${b}); stored records are never dropped silently, so ${NOTHING_CHANGED}. ` +
        "Declare N::B again, or delete its records first with the previous project (e.g. DROP N<B>); a MIGRATION cannot remove a type",
      V1,
    );
  });

  test("types removed after their records were dropped open normally", async () => {
    const dir = newDir();
    await seed(dir, false);
    const s0 = GraphStore.open({ path: dir, schema: schemaOf(OLD_T) });
    await s0.write((db) => db.drop(db.nodesByLabel("B")));
    await s0.close();
    const s1 = GraphStore.open({ path: dir, schema: schemaOf("N::A { name: String, n: I64 }") });
    expect(s1.read((db) => db.nodesByLabel("A").map((a) => a.name))).toEqual(["a1", "a2"]);
    await s1.close();
  });

  test("a DROP that meets adjacency of an undeclared edge type is a SCHEMA_MISMATCH, never an internal error", async () => {
    const dir = newDir();
    const { a1, e1 } = await seed(dir);
    // Inconsistent data the open's check cannot see: the edge records are gone, a1's adjacency is not.
    const env = open({ path: dir });
    const edgesDb = env.openDB<unknown, Uint8Array>({ name: "edges", keyEncoding: "binary", encoding: "msgpack" });
    for (const key of [...edgesDb.getKeys()].map((k) => Uint8Array.prototype.slice.call(k))) await edgesDb.remove(key);
    await env.close();
    const store = GraphStore.open({ path: dir, schema: schemaOf(WITHOUT_L) });
    await expect(store.write((db) => db.drop(db.nodesByLabel("A").filter((a) => a.id === a1)))).rejects.toMatchObject({
      code: "SCHEMA_MISMATCH",
      message:
        `cannot drop N::A ${a1}: it has edges of type L; the data holds records of a type the schema no longer declares: E::L; nothing was dropped. ` +
        "Declare E::L again, or delete its records first with the previous project (e.g. DROP E<L>); a MIGRATION cannot remove a type",
    });
    expect(store.read((db) => db.nodesByLabel("A").length)).toBe(2);
    await store.close();
    expect(e1).toBeTypeOf("string");
  });
});

describe("an unversioned project over data a MIGRATION brought to schema::N (audit 6, M1)", () => {
  const V1 = "schema::1 { N::User { name: String, age: U32 } }";
  const V2 = "N::User { name: String, age: U32, tier: U32 DEFAULT 1 }";
  const NEW = "N::User { name: String, age: String, tier: U32 DEFAULT 1 }";

  test("the advice names schema::N => schema::N+1, and following it opens", async () => {
    const dir = newDir();
    const s0 = GraphStore.open({ path: dir, schema: schemaOf(V1) });
    const id = await s0.write((db) => db.addNode("User", { name: "ann", age: 3 }).id);
    await s0.close();
    const s1 = GraphStore.open({
      path: dir,
      schema: schemaOf(`${V1}\nschema::2 { ${V2} }\nMIGRATION schema::1 => schema::2 { N::User => _::{} }`),
    });
    await s1.close();
    const s2 = GraphStore.open({ path: dir, schema: schemaOf(V2) }); // unversioned, equal to schema::2
    await s2.close();
    const before = rawContents(dir);
    expect(() => GraphStore.open({ path: dir, schema: schemaOf(NEW) })).toThrow(
      `N::User ${id}: 'age' must be a string (String), got 3. The definition of N::User changed since this record was stored, and stored records must fit it; ${NOTHING_CHANGED}. ` +
        "To convert stored records, declare versions: put the schema the data was written with in schema::2 { .. } (the data is at schema::2) and the new one in schema::3 { .. }, " +
        "and add a migration, e.g. MIGRATION schema::2 => schema::3 { N::User => _::{ age: age AS String } }",
    );
    expect(rawContents(dir)).toEqual(before);
    const s3 = GraphStore.open({
      path: dir,
      schema: schemaOf(
        `schema::2 { ${V2} }\nschema::3 { ${NEW} }\nMIGRATION schema::2 => schema::3 { N::User => _::{ age: age AS String } }`,
      ),
    });
    expect(s3.schemaUpdate).toMatchObject({ from: 2, to: 3 });
    expect(s3.read((db) => db.nodesByLabel("User"))).toEqual([{ id, label: "User", name: "ann", age: "3", tier: 1 }]);
    await s3.close();
  });

  test("a removed field gets the same schema::N => schema::N+1 advice", async () => {
    const dir = newDir();
    const s0 = GraphStore.open({ path: dir, schema: schemaOf(V1) });
    const id = await s0.write((db) => db.addNode("User", { name: "ann", age: 3 }).id);
    await s0.close();
    const env = open({ path: dir });
    const meta = env.openDB<unknown, string>({ name: "meta" });
    expect(meta.get(SCHEMA_VERSION_KEY)).toBe(1);
    await env.close();
    expect(() => GraphStore.open({ path: dir, schema: schemaOf("N::User { name: String }") })).toThrow(
      `N::User ${id}: holds field 'age' (3), which N::User no longer declares; stored values are never dropped silently, so ${NOTHING_CHANGED}. ` +
        "Declare the field again, or drop or rename it with a migration. To convert stored records, declare versions: put the schema the data was written with in schema::1 { .. } (the data is at schema::1) " +
        "and the new one in schema::2 { .. }, and add a migration, e.g. MIGRATION schema::1 => schema::2 { N::User => _::{} }: a MIGRATION item drops the fields the new type does not declare, and newName: age renames one",
    );
  });
});

describe("strand serve restarted with an edited project (D2, process level)", () => {
  const V1 =
    "N::User { name: String, age: U32 }\nQUERY Add(name: String, age: U32) =>\n    u <- AddN<User>({name: name, age: age})\n    RETURN u\nQUERY All() =>\n    u <- N<User>\n    RETURN u\n";
  const BAD =
    "N::User { UNIQUE INDEX name: String, age: String, INDEX tier: U32 DEFAULT 5 }\nQUERY All() =>\n    u <- N<User>\n    RETURN u\n";
  const GOOD =
    "N::User { INDEX name: String, age: U32, INDEX tier: U32 DEFAULT 5 }\n" +
    "QUERY ByName(name: String) =>\n    u <- N<User>::WHERE(_::{name}::EQ(name))\n    RETURN u\n" +
    "QUERY ByTier(t: U32) =>\n    u <- N<User>::WHERE(_::{tier}::GTE(t))\n    RETURN u\n" +
    "QUERY FirstOfTier(t: U32) =>\n    u <- N<User>({tier: t})\n    RETURN u\n";

  // One project edited in place, as a user does (another project's directory is refused on this data).
  let projectDir = "";
  function project(text: string): string {
    if (projectDir === "") projectDir = newDir();
    writeFileSync(join(projectDir, "schema.hx"), text);
    return projectDir;
  }

  test("a project the data does not fit exits 1 naming the record; the old project still serves everything; a fitting one serves the new indexes", async () => {
    const dataDir = newDir();
    const old = project(V1);
    let server = await startStrand({ project: old, dataDir });
    const added = [await call(server, "Add", { name: "ann", age: 3 }), await call(server, "Add", { name: "ann", age: 4 })].map(
      (r) => (r.body as { u: NodeItem }).u,
    );
    expect(await server.stop()).toBe(0);

    const refused = spawnSync(process.execPath, [CLI, "serve", project(BAD), "--port", "7803", "--data", dataDir], {
      cwd: REPO_ROOT,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect({ status: refused.status, stdout: refused.stdout, stderr: refused.stderr }).toEqual({
      status: 1,
      stdout: "",
      stderr:
        `strand: cannot open the data directory ${dataDir}: N::User ${added[0]!.id}: 'age' must be a string (String), got 3. The definition of N::User changed since this record was stored, and stored records must fit it; ${NOTHING_CHANGED}. ` +
        `${DECLARE_VERSIONS} { N::User => _::{ age: age AS String } }\n`,
    });

    server = await startStrand({ project: project(V1), dataDir });
    expect(await call(server, "All")).toEqual({ status: 200, body: { u: added } });
    expect(await server.stop()).toBe(0);

    server = await startStrand({ project: project(GOOD), dataDir });
    const withTier = added.map((u) => ({ ...u, tier: 5 }));
    expect(await call(server, "ByName", { name: "ann" })).toEqual({ status: 200, body: { u: withTier } });
    expect(await call(server, "ByTier", { t: 5 })).toEqual({ status: 200, body: { u: withTier } });
    expect(await call(server, "FirstOfTier", { t: 5 })).toEqual({ status: 200, body: { u: withTier[0] } });
    expect(await server.stop()).toBe(0);
  }, 60_000);
});

describe("a chain of migrations drops a field only in the step whose item drops it (review of migrate.ts)", () => {
  const S1 = "schema::1 { N::User { name: String, email: String, nick: String } }";
  const S2 = "schema::2 { N::User { name: String, email: String, age: I64 DEFAULT 7 } }";
  const S3 = 'schema::3 { N::User { name: String, age: I64 DEFAULT 7, nick: String DEFAULT "none" } }';
  const M12 = "MIGRATION schema::1 => schema::2 { N::User => _::{ name: name } }";
  const project = (m23: string): string => `${S1}\n${S2}\n${S3}\n${M12}\nMIGRATION schema::2 => schema::3 { ${m23} }`;

  async function seedV1(dir: string): Promise<string[]> {
    const store = GraphStore.open({ path: dir, schema: schemaOf(S1) });
    const ids = await store.write((db) => [
      db.addNode("User", { name: "ann", email: "a@x", nick: "an" }).id,
      db.addNode("User", { name: "bo", email: "b@x", nick: "b" }).id,
    ]);
    await store.close();
    return ids;
  }

  test("an item in 1=>2 and schema::3 dropping a field with no item in 2=>3 refuses the open; nothing is written", async () => {
    const dir = newDir();
    const [a] = await seedV1(dir);
    const before = rawContents(dir);
    expect(() => GraphStore.open({ path: dir, schema: schemaOf(project("")) })).toThrow(
      `N::User ${a}: holds field 'email' ("a@x"), which N::User no longer declares; stored values are never dropped silently, so ${NOTHING_CHANGED}. ` +
        "Declare the field again, or drop or rename it with a migration. List N::User in MIGRATION schema::2 => schema::3, e.g. N::User => _::{}: " +
        "a MIGRATION item drops the fields the new type does not declare, and newName: email renames one",
    );
    expect(rawContents(dir)).toEqual(before);
    const old = GraphStore.open({ path: dir, schema: schemaOf(S1) });
    expect(old.read((db) => db.nodesByLabel("User").map((u) => u.email))).toEqual(["a@x", "b@x"]);
    await old.close();
  });

  test("with N::User => _::{} in 2=>3 the field is dropped; a field dropped by 1=>2 stays dropped though schema::3 declares it again", async () => {
    const dir = newDir();
    const [a, b] = await seedV1(dir);
    const store = GraphStore.open({ path: dir, schema: schemaOf(project("N::User => _::{}")) });
    expect(store.schemaUpdate).toMatchObject({ from: 1, to: 3, rewritten: { "N::User": 4 } });
    // `nick` was dropped by 1=>2 (schema::2 has none), so schema::3's nick takes its DEFAULT.
    expect(store.read((db) => db.nodesByLabel("User"))).toEqual([
      { id: a, label: "User", name: "ann", age: 7, nick: "none" },
      { id: b, label: "User", name: "bo", age: 7, nick: "none" },
    ]);
    await store.close();
  });

  test("a MIGRATION item for a type a later version removed opens when the type has no records", async () => {
    const dir = newDir();
    const T1 = "schema::1 { N::User { name: String } N::Old { x: String } }";
    const store = GraphStore.open({ path: dir, schema: schemaOf(T1) });
    await store.write((db) => db.addNode("User", { name: "ann" }));
    await store.close();
    const p =
      `${T1}\nschema::2 { N::User { name: String } N::Old { y: String } }\nschema::3 { N::User { name: String } }\n` +
      "MIGRATION schema::1 => schema::2 { N::Old => _::{ y: x } }\nMIGRATION schema::2 => schema::3 { }";
    const s3 = GraphStore.open({ path: dir, schema: schemaOf(p) });
    expect(s3.schemaUpdate).toMatchObject({ from: 1, to: 3, rewritten: { "N::Old": 0 } });
    await s3.close();
  });
});

describe("a MIGRATION never changes a stored vector (the HNSW index holds it)", () => {
  const V1 = "schema::1 { V::Doc { title: String, embedding: [F64] } }";
  const V2 = `${V1}\nschema::2 { V::Doc { title: String, embedding: [F64] } }\nMIGRATION schema::1 => schema::2 { V::Doc => _::{ title: title } }`;

  test("the compiler refuses a mapping of the vector (E314)", () => {
    const r = compileProject([{ file: "s.hx", text: V2.replace("title: title", "embedding: embedding") }], { checkOnly: true });
    expect(r.diagnostics.filter((d) => d.severity === "error").map((d) => [d.code, d.message])).toEqual([
      ["E314", "'embedding' holds the vector of Doc: vectors cannot be changed by a migration"],
    ]);
  });

  test("a descriptor whose item rewrites the vector refuses the open, and nothing is written", async () => {
    const dir = newDir();
    const s1 = GraphStore.open({ path: dir, schema: schemaOf(V1) });
    const d = await s1.write((db) => db.addVector("Doc", [1, 0, 0], { title: "t" }).id);
    await s1.close();
    const before = rawContents(dir);
    const bad = schemaOf(V2);
    bad.migrations![0]!.items[0]!.fields.push({ name: "embedding", source: { kind: "literal", value: [0, 1, 0] }, cast: null });
    expect(() => GraphStore.open({ path: dir, schema: bad })).toThrow(
      `V::Doc ${d}: MIGRATION schema::1 => schema::2 changes its vector ('embedding'), but vectors cannot be changed by a migration (the vector index holds them); ${NOTHING_CHANGED}. ` +
        "Leave 'embedding' unmapped, and re-add the vectors (drop them and add them again) to change them",
    );
    expect(rawContents(dir)).toEqual(before);
    const ok = GraphStore.open({ path: dir, schema: schemaOf(V2) });
    expect(ok.read((db) => db.nodesByLabel("Doc").map((x) => x.embedding))).toEqual([[1, 0, 0]]);
    await ok.close();
  });
});

describe("meta schema_types carries a format", () => {
  const readMeta = (dir: string): unknown => {
    const env = open({ path: dir, readOnly: true });
    const value = env.openDB<unknown, string>({ name: "meta" }).get(SCHEMA_TYPES_KEY);
    void env.close();
    return value;
  };
  const writeMeta = async (dir: string, value: unknown): Promise<void> => {
    const env = open({ path: dir });
    await env.openDB<unknown, string>({ name: "meta" }).put(SCHEMA_TYPES_KEY, value);
    await env.close();
  };

  test("it is {format: 1, types}; the unversioned form of older stores reads as format 1 (nothing revalidated); an unknown format refuses", async () => {
    const dir = newDir();
    await seedUsers(dir);
    const stored = readMeta(dir) as { format: number; types: Record<string, unknown> };
    expect(stored).toEqual({ format: 1, types: { "N::User": expect.any(Object) } });
    await writeMeta(dir, stored.types);
    const s1 = GraphStore.open({ path: dir, schema: schemaOf(OLD) });
    expect(s1.schemaUpdate.revalidated).toEqual({});
    await s1.close();
    expect(readMeta(dir)).toEqual(stored);
    await writeMeta(dir, { format: 2, types: stored.types });
    expect(() => GraphStore.open({ path: dir, schema: schemaOf(OLD) })).toThrow(
      "the data's recorded type definitions are in format 2, which this version of Strand does not read (it reads format 1)",
    );
  });

  test("a descriptor the compiler would not produce is a SCHEMA_MISMATCH StrandError, not an internal error", () => {
    const bad = schemaOf(OLD);
    bad.nodes[0]!.fields[0]!.default = { kind: "literal", value: 5 };
    expect(() => GraphStore.open({ path: newDir(), schema: bad })).toThrow(expect.objectContaining({ code: "SCHEMA_MISMATCH" }));
  });
});
