// The integrity check (runtime/verify/): clean on stores built by normal operation, and for each
// invariant, a store corrupted in exactly one way (through LMDB, on the closed store) reports
// exactly that disagreement.
import { asBinary } from "lmdb";
import { afterEach, describe, expect, test } from "vitest";
import type { NodeItem } from "../core/items.js";
import { GraphStore } from "../runtime/graph-store.js";
import { adjacencyEntry, chunkKey, joinEntries, listKey, tailValue } from "../runtime/adjacency/lists.js";
import type { VectorIndex } from "../runtime/vector/vector-index.js";
import { verifyDataDir } from "../runtime/verify/verify-dir.js";
import type { VerifyReport } from "../runtime/store/integrity.js";
import { schemaOf } from "./support/compile-schema.js";
import { removeDir, tempDir } from "./support/store-fixtures.js";
import { corrupt, smallGraph, verifySchema, type SmallGraph } from "./support/verify-fixtures.js";
import { edgeUniqueKey, idValue, indexKey, itemKey } from "../runtime/store/keys.js";

const TAIL = 2 ** 32;
const dirs: string[] = [];
const stores: GraphStore[] = [];

afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  for (const d of dirs.splice(0)) removeDir(d);
});

function open(dir: string, options: { bm25?: boolean } = {}): GraphStore {
  const store = GraphStore.open({ path: dir, schema: verifySchema, ...options });
  stores.push(store);
  return store;
}

async function closed(store: GraphStore): Promise<void> {
  stores.splice(stores.indexOf(store), 1);
  await store.close();
}

function newDir(): string {
  const dir = tempDir("strand-verify-");
  dirs.push(dir);
  return dir;
}

/** The disagreements of a closed data directory. */
async function disagreementsOf(dir: string): Promise<VerifyReport["disagreements"]> {
  const outcome = await verifyDataDir(dir);
  if (!outcome.ok) throw new Error(outcome.message);
  return outcome.report.disagreements;
}

/** The small graph in a closed store. */
async function smallStore(): Promise<{ dir: string; g: SmallGraph }> {
  const dir = newDir();
  const store = open(dir);
  const g = await smallGraph(store);
  expect(store.verify().disagreements).toEqual([]);
  // The corruptions below edit stored lists: every incoming entry in its list, none pending.
  await store.foldPendingIn();
  expect(store.verify().disagreements).toEqual([]);
  await closed(store);
  return { dir, g };
}

/** A type's in-memory HNSW index (private state: the test corrupts it on purpose). */
function vectorIndex(store: GraphStore, label: string): VectorIndex {
  return (store as unknown as { vectors: { indexes: Map<string, VectorIndex> } }).vectors.indexes.get(label)!;
}

describe("verify is clean after normal operation", () => {
  test("nodes, edges, indexes, UNIQUE, text, vectors, updates, upserts and drops", async () => {
    const dir = newDir();
    const store = open(dir);
    const users = await store.write((db) =>
      Array.from({ length: 40 }, (_, i) =>
        db.addNode("User", { name: `user ${i} shared`, email: `u${i}@x`, age: i % 7, tags: ["t", `g${i % 3}`] }),
      ),
    );
    // A hub with more than two chunks of edges each way, parallel edges, a self-loop.
    await store.write((db) => {
      for (const u of users.slice(1)) db.addEdge("Follows", { weight: 2 }, users[0]!.id, u.id);
      for (const u of users.slice(1)) db.addEdge("Knows", { code: `k${u.id}` }, u.id, users[0]!.id);
      db.addEdge("Knows", {}, users[1]!.id, users[0]!.id);
      db.addEdge("Knows", {}, users[2]!.id, users[2]!.id);
    });
    // Over 128 documents share a term, so its postings have sealed blocks.
    const posts = await store.write((db) =>
      Array.from({ length: 300 }, (_, i) => db.addNode("Post", { title: `post ${i} shared words`, score: i })),
    );
    await store.write((db) => {
      for (const p of posts.slice(0, 50)) db.addEdge("Wrote", {}, users[(p.score as number) % 40]!.id, p.id);
    });
    const docs = await store.write((db) =>
      Array.from({ length: 20 }, (_, i) => db.addVector("Doc", [1, i, 0], { slug: `d${i}`, topic: `t${i % 2}`, title: `doc ${i}` })),
    );
    const chunk = await store.write((db) => {
      const added = db.addVector("Chunk", [0, 1], { text: "a chunk" });
      db.addEdge("HasChunk", {}, docs[0]!.id, added.id);
      db.addEdge("About", {}, users[3]!.id, docs[1]!.id);
      return added;
    });
    // Updates: indexed, unique and text fields change; vectors move to new slots.
    await store.write((db) => {
      db.updateNodes(users.slice(0, 10), (u) => ({
        age: ((u.age as number) + 1) % 7,
        email: `new-${u.email as string}`,
        name: `renamed ${u.name as string} and longer`,
      }));
      db.updateNodes(posts.slice(100, 140), { title: "retitled" });
      db.upsertVector("Doc", [docs[2]!], [0, 0, 1], { title: "moved" });
      db.updateNodes([docs[3]!], { topic: "t9" });
      db.updateNodes([chunk], { embedding: [1, 0], text: "a moved chunk" });
    });
    // Drops: a node with edges (the hub), single edges, posts in sealed blocks, vectors.
    await store.write((db) => {
      db.drop([users[0]!]);
      db.drop(db.outE([users[5]!], "Wrote"));
      db.drop(posts.slice(0, 150).filter((_, i) => i % 3 === 0));
      db.drop([docs[4]!, docs[5]!]);
    });
    // A UNIQUE value freed by a drop and taken again; a DROP that finds nothing left to drop.
    await store.write((db) => {
      db.addNode("User", { name: "again", email: "u0@x", age: 1 });
      db.drop(db.outE([users[1]!], "Knows"));
    });

    const report = store.verify();
    expect(report.disagreements).toEqual([]);
    expect(report.skipped).toEqual([]);
    // 40 users (the hub dropped, one added); 250 posts. Edges: 31 Wrote (of 50: 2 went with the hub,
    // 2 from users[5], 15 with their posts), the Knows self-loop, HasChunk, About; every other
    // Follows and Knows went with the hub. Unique claims: 40 emails and 18 slugs. Index entries:
    // 40 ages, 250 titles, 18 topics.
    expect(report.counts).toEqual({
      nodes: 40 + 250,
      edges: 31 + 1 + 1 + 1,
      vectors: 18 + 1,
      indexEntries: 40 + 250 + 18,
      uniqueClaims: 40 + 18,
      adjacencyEntries: 2 * 34,
      bm25Documents: 40 + 250 + 19,
      bm25Postings: 1305,
      vectorIndexes: 2,
    });
    // Clean after a reopen (the vector indexes load from their files) and as a closed directory.
    await closed(store);
    expect(open(dir).verify().disagreements).toEqual([]);
    await closed(stores[0]!);
    const outcome = await verifyDataDir(dir);
    expect(outcome).toMatchObject({ ok: true, report: { disagreements: [], skipped: [], counts: { ...report.counts } } });
  });

  test("a store with BM25 off skips the keyword index, and turning it on rebuilds a clean one", async () => {
    const dir = newDir();
    const off = open(dir, { bm25: false });
    await smallGraph(off);
    expect(off.verify()).toMatchObject({
      disagreements: [],
      skipped: ["bm25: no index is built (BM25 is off, or it is rebuilt at the next open)"],
    });
    await closed(off);
    const on = open(dir);
    expect(on.verify()).toMatchObject({ disagreements: [], skipped: [] });
  });

  test("a migration that changes indexed and text fields leaves a clean store", async () => {
    const dir = newDir();
    const store = open(dir);
    await smallGraph(store);
    await closed(store);
    // age becomes UNIQUE, Post.title loses its INDEX, City gains a text field with a default.
    // Afterwards: unique claims 2 age + 2 email + Follows + Knows.code + Doc.slug; index entries Doc.topic.
    const changed = structuredClone(verifySchema);
    changed.nodes[0]!.fields.find((f) => f.name === "age")!.index = "unique";
    changed.nodes[1]!.fields.find((f) => f.name === "title")!.index = "none";
    changed.nodes[2]!.fields.push({
      name: "motto",
      type: { kind: "scalar", name: "String" },
      index: "index",
      default: { kind: "literal", value: "hi there" },
    });
    const migrated = GraphStore.open({ path: dir, schema: changed });
    try {
      expect(migrated.schemaUpdate.revalidated).toEqual({ "N::User": 2, "N::Post": 1, "N::City": 0 });
      expect(migrated.verify()).toMatchObject({ disagreements: [], skipped: [] });
    } finally {
      await migrated.close();
    }
    // verify of the directory uses the migrated definitions the data recorded.
    expect(await verifyDataDir(dir)).toMatchObject({
      ok: true,
      report: { disagreements: [], counts: { uniqueClaims: 7, indexEntries: 1 } },
    });
  });
});

describe("verify is clean after a versioned MIGRATION", () => {
  const V1 = `schema::1 {
  N::User { name: String, UNIQUE INDEX handle: String, INDEX age: String }
  E::Knows UNIQUE { From: User, To: User, Properties: { since: String } }
  V::Doc { title: String, INDEX topic: String }
}`;
  const V2 = `${V1}
schema::2 {
  N::User { fullName: String, UNIQUE INDEX handle: String, INDEX age: U32, INDEX city: String DEFAULT "Oslo" }
  E::Knows UNIQUE { From: User, To: User, Properties: { since: I64 } }
  V::Doc { title: String, UNIQUE INDEX topic: String }
}
MIGRATION schema::1 => schema::2 {
  N::User => _::{ fullName: name, age: age AS U32 }
  E::Knows => _::{ since: since AS I64 }
  V::Doc => _::{ title: title, topic: topic }
}`;

  test("records rewritten, fields renamed and retyped, indexes rebuilt, text reindexed", async () => {
    const dir = newDir();
    const v1 = GraphStore.open({ path: dir, schema: schemaOf(V1) });
    await v1.write((db) => {
      const users = ["31", "42", "7"].map((age, i) => db.addNode("User", { name: `old name ${i}`, handle: `h${i}`, age }));
      db.addEdge("Knows", { since: "2020" }, users[0]!.id, users[1]!.id);
      db.addEdge("Knows", { since: "2021" }, users[1]!.id, users[0]!.id);
      db.addVector("Doc", [1, 0], { title: "first doc", topic: "a" });
      db.addVector("Doc", [0, 1], { title: "second doc", topic: "b" });
    });
    await v1.close();
    const v2 = GraphStore.open({ path: dir, schema: schemaOf(V2) });
    try {
      expect(v2.schemaUpdate).toMatchObject({ from: 1, to: 2, rewritten: { "N::User": 3, "E::Knows": 2, "V::Doc": 2 } });
      // 3 age and 3 city entries; 3 handle, 2 topic and 2 Knows claims.
      expect(v2.verify()).toMatchObject({
        disagreements: [],
        skipped: [],
        counts: { nodes: 3, edges: 2, vectors: 2, indexEntries: 6, uniqueClaims: 7, bm25Documents: 5 },
      });
      expect(v2.read((db) => db.searchBM25("User", "old", 5).length)).toBe(3);
    } finally {
      await v2.close();
    }
    expect(await verifyDataDir(dir)).toMatchObject({ ok: true, report: { disagreements: [], skipped: [] } });
  });
});

describe("each corruption is reported as exactly that disagreement", () => {
  test("an INDEX entry deleted", async () => {
    const { dir, g } = await smallStore();
    await corrupt(dir, (dbs) => dbs.index.removeSync(indexKey("N", "User", "age", 30, g.alice.id)));
    expect(await disagreementsOf(dir)).toEqual([
      {
        check: "index",
        key: `index ["N","User","age",30,"${g.alice.id}"]`,
        message: `N::User '${g.alice.id}' has age 30 but no index entry`,
      },
    ]);
    // The same through an opened store.
    expect(open(dir).verify().disagreements).toEqual([
      {
        check: "index",
        key: `index ["N","User","age",30,"${g.alice.id}"]`,
        message: `N::User '${g.alice.id}' has age 30 but no index entry`,
      },
    ]);
  });

  test("a record whose bytes do not decode (a bit flip): named, and the check goes on", async () => {
    const { dir, g } = await smallStore();
    // A map of five members that ends in its first key: the record cannot be decoded.
    await corrupt(dir, (dbs) =>
      dbs.nodes.putSync(itemKey("User", g.alice.id), asBinary(Buffer.from([0x85, 0xa2, 0x69])) as unknown as NodeItem),
    );
    const found = await disagreementsOf(dir);
    expect(found).toContainEqual({
      check: "record",
      key: `nodes ["User","${g.alice.id}"]`,
      message: expect.stringMatching(/^a value that does not decode \(.+\): its bytes are damaged$/),
    });
    // What names her record (her index entries) is reported too, as naming a record that is not there.
    expect(found.some((d) => d.check === "index" && d.message.includes(`'${g.alice.id}', which does not exist`))).toBe(true);
  });

  test("a stray INDEX entry", async () => {
    const { dir, g } = await smallStore();
    await corrupt(dir, (dbs) => dbs.index.putSync(indexKey("N", "User", "age", 31, g.alice.id), null));
    expect(await disagreementsOf(dir)).toEqual([
      {
        check: "index",
        key: `index ["N","User","age",31,"${g.alice.id}"]`,
        message: `the entry names N::User '${g.alice.id}', whose age is 30`,
      },
    ]);
  });

  test("a UNIQUE claim deleted", async () => {
    const { dir, g } = await smallStore();
    await corrupt(dir, (dbs) => dbs.unique.removeSync(["N", "User", "email", "a@x"]));
    expect(await disagreementsOf(dir)).toEqual([
      {
        check: "unique",
        key: `unique ["N","User","email","a@x"]`,
        message: `N::User '${g.alice.id}' has email "a@x" but the value has no claim`,
      },
    ]);
  });

  test("a UNIQUE claim taken by another record", async () => {
    const { dir, g } = await smallStore();
    await corrupt(dir, (dbs) => dbs.unique.putSync(["E", "Knows", "code", "k1"], idValue(g.follows.id)));
    expect(await disagreementsOf(dir)).toEqual([
      {
        check: "unique",
        key: `unique ["E","Knows","code","k1"]`,
        message: `E::Knows '${g.knows.id}' has code "k1" but the value has the claim of '${g.follows.id}'`,
      },
      {
        check: "unique",
        key: `unique ["E","Knows","code","k1"]`,
        message: `the claim names E::Knows '${g.follows.id}', which does not exist`,
      },
    ]);
  });

  test("a UNIQUE edge's (from, to) claim deleted", async () => {
    const { dir, g } = await smallStore();
    await corrupt(dir, (dbs) => dbs.edgeUnique.removeSync(edgeUniqueKey("Follows", g.alice.id, g.bob.id)));
    expect(await disagreementsOf(dir)).toEqual([
      {
        check: "edge-unique",
        key: `edge_unique ["Follows","${g.alice.id}","${g.bob.id}"]`,
        message: `E::Follows '${g.follows.id}' is not the claim of its (from, to), which is unclaimed`,
      },
    ]);
  });

  test("an edge whose end node is gone", async () => {
    const { dir, g } = await smallStore();
    await corrupt(dir, (dbs) => dbs.nodes.removeSync(itemKey("Tag", g.tag.id)));
    expect(await disagreementsOf(dir)).toEqual([
      { check: "endpoint", key: `edge_ends ["Tagged","${g.tagged.id}"]`, message: `its to node Tag '${g.tag.id}' does not exist` },
    ]);
  });

  test("a stray adjacency entry", async () => {
    const { dir, g } = await smallStore();
    const ghost = "0192aaaa-0000-7000-8000-000000000000";
    await corrupt(dir, (dbs) => dbs.out.putSync(listKey(g.bob.id, "Follows"), tailValue(0, adjacencyEntry(ghost, g.alice.id))));
    expect(await disagreementsOf(dir)).toEqual([
      {
        check: "adjacency",
        key: `out ["${g.bob.id}","Follows"]`,
        message: `the entry '${ghost}' → '${g.alice.id}' names no E::Follows from this node`,
      },
    ]);
  });

  test("an adjacency list deleted", async () => {
    const { dir, g } = await smallStore();
    await corrupt(dir, (dbs) => dbs.in.removeSync(listKey(g.bob.id, "Knows")));
    expect(await disagreementsOf(dir)).toEqual([
      {
        check: "adjacency",
        key: `in ["${g.bob.id}","Knows"]`,
        message: `E::Knows '${g.knows.id}' from '${g.alice.id}' to '${g.bob.id}' is missing from the list`,
      },
    ]);
  });

  test("an adjacency chunk beyond its list's count", async () => {
    const { dir, g } = await smallStore();
    await corrupt(dir, (dbs) =>
      dbs.out.putSync(chunkKey(g.alice.id, "Follows", 0), joinEntries(Array(32).fill(adjacencyEntry(g.follows.id, g.bob.id)))),
    );
    expect(await disagreementsOf(dir)).toEqual([
      {
        check: "adjacency",
        key: `out ["${g.alice.id}","Follows",0]`,
        message: "a chunk of no list (beyond its tail's count, or without a tail)",
      },
    ]);
  });

  test("an adjacency entry pointing at the wrong node", async () => {
    const { dir, g } = await smallStore();
    // Knows has a field, so the edge has a record saying where it goes.
    await corrupt(dir, (dbs) => dbs.out.putSync(listKey(g.alice.id, "Knows"), tailValue(0, adjacencyEntry(g.knows.id, g.alice.id))));
    expect(await disagreementsOf(dir)).toEqual([
      {
        check: "adjacency",
        key: `out ["${g.alice.id}","Knows"]`,
        message: `the entry '${g.knows.id}' → '${g.alice.id}' has the wrong node (the edge's is '${g.bob.id}')`,
      },
    ]);
  });

  test("the out entry of an edge without a record pointing at another node", async () => {
    const { dir, g } = await smallStore();
    // Wrote has no fields: its out entry is where the edge goes, so it now goes to a User.
    await corrupt(dir, (dbs) => dbs.out.putSync(listKey(g.alice.id, "Wrote"), tailValue(0, adjacencyEntry(g.wrote.id, g.bob.id))));
    expect(await disagreementsOf(dir)).toEqual([
      { check: "endpoint", key: `edge_ends ["Wrote","${g.wrote.id}"]`, message: `its to node Post '${g.bob.id}' does not exist` },
      {
        check: "adjacency",
        key: `in ["${g.post.id}","Wrote"]`,
        message: `the entry '${g.wrote.id}' → '${g.alice.id}' names no E::Wrote to this node`,
      },
      {
        check: "adjacency",
        key: `in ["${g.bob.id}","Wrote"]`,
        message: `E::Wrote '${g.wrote.id}' from '${g.alice.id}' to '${g.bob.id}' is missing from the list`,
      },
    ]);
  });

  test("an edge without a record missing from its from node's out list", async () => {
    const { dir, g } = await smallStore();
    await corrupt(dir, (dbs) => dbs.out.removeSync(listKey(g.alice.id, "Wrote")));
    expect(await disagreementsOf(dir)).toEqual([
      {
        check: "adjacency",
        key: `edge_ends ["Wrote","${g.wrote.id}"]`,
        message: `E::Wrote '${g.wrote.id}' is not in the out list of its from node '${g.alice.id}', so it has no to node`,
      },
      {
        check: "adjacency",
        key: `in ["${g.post.id}","Wrote"]`,
        message: `the entry '${g.wrote.id}' → '${g.alice.id}' names no E::Wrote to this node`,
      },
    ]);
  });

  test("a BM25 document count changed", async () => {
    const { dir } = await smallStore();
    await corrupt(dir, (dbs) => dbs.bm25Stats.putSync(["User"], { ...dbs.bm25Stats.get(["User"])!, docs: 3 }));
    expect(await disagreementsOf(dir)).toEqual([
      { check: "bm25-stats", key: `bm25_stats ["User"]`, message: "docs is 3, the type has 2 documents" },
    ]);
  });

  test("a BM25 total length changed", async () => {
    const { dir } = await smallStore();
    await corrupt(dir, (dbs) => dbs.bm25Stats.putSync(["User"], { ...dbs.bm25Stats.get(["User"])!, tokens: 99 }));
    expect(await disagreementsOf(dir)).toEqual([
      { check: "bm25-stats", key: `bm25_stats ["User"]`, message: "tokens is 99, the documents' lengths add up to 7" },
    ]);
  });

  test("a BM25 posting deleted", async () => {
    const { dir, g } = await smallStore();
    // "smith" occurs only in Alice's name: its list is one tail block.
    await corrupt(dir, (dbs) => dbs.bm25Post.removeSync(["User", "smith", TAIL]));
    expect(await disagreementsOf(dir)).toEqual([
      {
        check: "bm25-posting",
        key: `bm25_post ["User","smith"]`,
        message: `document 0 ('${g.alice.id}') has the term 1 times but no posting`,
      },
    ]);
  });

  test("a BM25 document length changed", async () => {
    const { dir, g } = await smallStore();
    await corrupt(dir, (dbs) => dbs.bm25Docs.putSync(itemKey("Post", g.post.id), [0, 5]));
    expect(await disagreementsOf(dir)).toEqual([
      { check: "bm25-doc", key: `bm25_docs ["Post","${g.post.id}"]`, message: "length 5 is stored, the text has 2 terms" },
    ]);
  });

  test("a vector's slot deleted", async () => {
    const { dir, g } = await smallStore();
    await corrupt(dir, (dbs) => dbs.vectorIds.removeSync(itemKey("Doc", g.doc.id)));
    expect(await disagreementsOf(dir)).toEqual([
      { check: "vector-slot", key: `vector_ids ["Doc","${g.doc.id}"]`, message: `V::Doc '${g.doc.id}' has no slot` },
      { check: "vector-slot", key: `vector_types ["Doc"]`, message: "live is 1, vector_ids holds 0 slots" },
      {
        check: "vector-index",
        key: `vector_types ["Doc"]`,
        message: "the index of V::Doc holds slot 0 as live, which LMDB does not hold (a dropped vector still searchable)",
      },
    ]);
  });

  test("a live vector missing from its HNSW index", async () => {
    const { dir, g } = await smallStore();
    const store = open(dir);
    vectorIndex(store, "Doc").remove(0);
    const missing = [
      { check: "vector-index", key: `vector_ids ["Doc","${g.doc.id}"]`, message: "the index of V::Doc maps slot 0 to nothing" },
      { check: "vector-index", key: `vector_ids ["Doc","${g.doc.id}"]`, message: "the index of V::Doc has no live point for slot 0" },
    ];
    expect(store.verify().disagreements).toEqual(missing);
  });

  test("dropVector of a vector with edges takes its edges, as DROP does", async () => {
    const { dir, g } = await smallStore();
    const store = open(dir);
    await store.write((db) => db.addEdge("About", {}, g.alice.id, g.doc.id));
    expect(store.read((db) => db.outE([g.alice], "About").length)).toBe(1);
    await store.write((db) => db.dropVector(g.doc));
    expect(store.read((db) => ({ about: db.edgesByLabel("About"), out: db.outE([g.alice], "About") }))).toEqual({ about: [], out: [] });
    expect(store.verify().disagreements).toEqual([]);
  });

  test("a dropped vector still in its HNSW index", async () => {
    const { dir, g } = await smallStore();
    const store = open(dir);
    await store.write((db) => db.dropVector(g.doc));
    expect(store.verify().disagreements).toEqual([]);
    vectorIndex(store, "Doc").add(0, g.doc.id, [1, 0, 0]);
    expect(store.verify().disagreements).toEqual([
      {
        check: "vector-index",
        key: `vector_ids ["Doc","${g.doc.id}"]`,
        message: `the index of V::Doc maps slot 0, which LMDB does not hold, to '${g.doc.id}'`,
      },
      {
        check: "vector-index",
        key: `vector_types ["Doc"]`,
        message: "the index of V::Doc holds slot 0 as live, which LMDB does not hold (a dropped vector still searchable)",
      },
    ]);
  });

  test("a record value that does not fit its type", async () => {
    const { dir, g } = await smallStore();
    await corrupt(dir, (dbs) => dbs.nodes.putSync(itemKey("Tag", g.tag.id), { ...g.tag, weight: "heavy" }));
    expect(await disagreementsOf(dir)).toEqual([
      { check: "record", key: `nodes ["Tag","${g.tag.id}"]`, message: `'weight' must be a finite number (F64), got "heavy"` },
    ]);
  });

  test("a record member the type does not declare", async () => {
    const { dir, g } = await smallStore();
    await corrupt(dir, (dbs) => dbs.edges.putSync(itemKey("Tagged", g.tagged.id), { ...g.tagged, colour: "red" }));
    expect(await disagreementsOf(dir)).toEqual([
      { check: "record", key: `edges ["Tagged","${g.tagged.id}"]`, message: "a member 'colour', which E::Tagged does not declare" },
      // Tagged declares no fields: the edge is an edge_ends entry, and now has a record too.
      { check: "record", key: `edge_ends ["Tagged","${g.tagged.id}"]`, message: "the edge also has a record" },
    ]);
  });

  test("a record under another record's key", async () => {
    const { dir, g } = await smallStore();
    const city: NodeItem = { id: "0192bbbb-0000-7000-8000-000000000000", label: "City" };
    await corrupt(dir, (dbs) => dbs.nodes.putSync(itemKey("City", g.bob.id), city));
    expect(await disagreementsOf(dir)).toEqual([
      { check: "record", key: `nodes ["City","${g.bob.id}"]`, message: `the record says label 'City' and id '${city.id}'` },
    ]);
  });
});

describe("verifyDataDir refusals", () => {
  test("a missing directory, a directory without data, a store held open", async () => {
    const dir = newDir();
    expect(await verifyDataDir(`${dir}/nope`)).toEqual({ ok: false, code: "NOT_A_STORE", message: `${dir}/nope is not a directory` });
    expect(await verifyDataDir(dir)).toEqual({ ok: false, code: "NOT_A_STORE", message: `${dir} holds no Strand data (no data.mdb)` });
    open(dir);
    expect(await verifyDataDir(dir)).toMatchObject({
      ok: false,
      code: "LOCKED",
      message: expect.stringMatching(/is in use by process \d+; stop that server first/),
    });
  });
});
