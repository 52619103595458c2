// The bulk path's fast lane for edges without fields (runtime/data/interchange.ts
// bareEdgeLabelEnd, RecordLoader.loadBareEdge) and its adjacency buffer (adjacency/bulk-lists.ts):
// a line in the export's own shape is read straight from its text, and must leave exactly what
// the same record written in any other shape leaves, fail with exactly the same message, and
// apply nothing of a bad file. The lists come out as the layout requires whether they are new
// or extend lists already stored, and a load leaves no stale entry in the read cache.
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { seededRandom } from "../bench/random.js";
import type { EdgeItem, NodeItem } from "../core/items.js";
import { silentProgress } from "../core/progress.js";
import { ImportError, importFileOf, importFiles } from "../runtime/data/import.js";
import { GraphStore } from "../runtime/graph-store.js";
import { uuidv7 } from "../runtime/store/ids.js";
import { RecordLoader } from "../runtime/load/bulk-loader.js";
import { schemaOf } from "./support/compile-schema.js";
import { dumpStore, expectedDump, staleCacheEntries } from "./support/store-dump.js";
import { removeDir, tempDir } from "./support/store-fixtures.js";

// Follows and FollowsBack: one label a prefix of the other, so a node's lists of both sort by label bytes.
const schema = schemaOf(`
N::User { name: String }
N::Post { title: String }
E::Follows { From: User, To: User }
E::FollowsBack { From: User, To: User }
E::Likes { From: User, To: Post }
E::Rated { From: User, To: Post, Properties: { stars: U8 } }
`);

let dir = "";
const stores: GraphStore[] = [];
beforeEach(() => {
  dir = tempDir("strand-bare-");
});
afterEach(async () => {
  vi.restoreAllMocks();
  for (const store of stores.splice(0)) await store.close();
  removeDir(dir);
});

function openStore(name: string): GraphStore {
  const store = GraphStore.open({ path: path.join(dir, name), schema });
  stores.push(store);
  return store;
}

function writeFile(name: string, lines: readonly string[]): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

async function load(store: GraphStore, files: readonly string[], skipBad = false) {
  return importFiles(
    store,
    files.map((f) => importFileOf(f)),
    { skipBad, progress: silentProgress, ...(skipBad ? { rejectsPath: path.join(dir, "rejects.jsonl") } : {}) },
  );
}

/** A UUID from the PRNG; `seq` leads it when given, so ids made in order sort in that order. */
function makeId(random: () => number, seq?: number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16)).join("");
  const lead = seq === undefined ? hex.slice(0, 8) : seq.toString(16).padStart(8, "0");
  return `${lead}-${hex.slice(8, 12)}-7${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20)}`;
}

/** Users and posts in random id order; edges of every type in id order, a few hubs past one chunk. */
function graph(seed: number): { nodes: NodeItem[]; edges: EdgeItem[] } {
  const random = seededRandom(seed);
  const users = Array.from({ length: 60 }, (_, i): NodeItem => ({ id: makeId(random), label: "User", name: `user ${i}` }));
  const posts = Array.from({ length: 12 }, (_, i): NodeItem => ({ id: makeId(random), label: "Post", title: `post ${i}` }));
  const pick = <T>(list: readonly T[]): T => list[random() < 0.3 ? Math.floor(random() * 2) : Math.floor(random() * list.length)]!;
  const edges: EdgeItem[] = [];
  for (let i = 0; i < 1500; i++) {
    const r = random();
    const label = r < 0.4 ? "Follows" : r < 0.6 ? "FollowsBack" : r < 0.85 ? "Likes" : "Rated";
    const to = label === "Likes" || label === "Rated" ? pick(posts) : pick(users);
    const edge: EdgeItem = { id: makeId(random, i + 1), label, from_node: pick(users).id, to_node: to.id };
    if (label === "Rated" && random() < 0.7) edge.stars = Math.floor(random() * 5);
    edges.push(edge);
  }
  return { nodes: [...users, ...posts], edges };
}

/** The record's line in the export's shape (what JSON.stringify gives for the member order the format uses). */
function exportShape(rec: NodeItem | EdgeItem, upper = false): string {
  const u = (id: string) => (upper ? id.toUpperCase() : id);
  if (rec.from_node === undefined) {
    const { id, label, ...fields } = rec;
    return JSON.stringify({ kind: "N", label, id, ...fields });
  }
  const { id, label, from_node, to_node, ...fields } = rec as EdgeItem;
  return JSON.stringify({ kind: "E", label, id: u(id), from: u(from_node), to: u(to_node), ...fields });
}

/** The same record in another member order: JSON.parse reads it the same, the fast lane does not take it. */
function otherShape(rec: NodeItem | EdgeItem, upper = false): string {
  const parsed = JSON.parse(exportShape(rec, upper)) as Record<string, unknown>;
  const { label, kind, ...rest } = parsed;
  return JSON.stringify({ label, kind, ...rest });
}

test("edges in the export's shape load straight from their text and leave exactly what the same records in another shape leave", async () => {
  const { nodes, edges } = graph(5);
  // Every seventh edge with upper-case ids: stored lower-cased either way.
  const fastLines = (list: readonly EdgeItem[]) => list.map((e, i) => exportShape(e, i % 7 === 0));
  const nodeLines = nodes.map((n) => exportShape(n));
  const half = Math.floor(edges.length / 2);
  const calls = vi.spyOn(RecordLoader.prototype, "load");
  const fast = openStore("fast");
  // Two files: the second one's lists extend those the first one wrote.
  const fastFiles = [
    writeFile("fast-1.jsonl", [...nodeLines, ...fastLines(edges.slice(0, half))]),
    writeFile("fast-2.jsonl", fastLines(edges.slice(half))),
  ];
  const fastOutcome = await load(fast, fastFiles);
  expect(fastOutcome.map((o) => o.loaded)).toEqual([nodes.length + half, edges.length - half]);
  const rated = edges.filter((e) => e.label === "Rated").length;
  expect(calls.mock.calls.length).toBe(nodes.length + rated); // only nodes and edges with fields take load()

  calls.mockClear();
  const slow = openStore("slow");
  await load(slow, [writeFile("slow.jsonl", [...nodes.map((n) => otherShape(n)), ...edges.map((e, i) => otherShape(e, i % 7 === 0))])]);
  expect(calls.mock.calls.length).toBe(nodes.length + edges.length);

  const expected = expectedDump(fast, nodes, edges);
  expect(Object.keys(expected.out).length).toBeGreaterThan(100);
  expect(dumpStore(fast)).toEqual(expected);
  expect(dumpStore(slow)).toEqual(expected);
  expect(fast.verify().disagreements).toEqual([]);
}, 60_000);

test("a bad edge line in the export's shape fails with the message of the same record in another shape, and nothing of its file is applied", async () => {
  const random = seededRandom(9);
  const users = [0, 1].map((i): NodeItem => ({ id: makeId(random), label: "User", name: `u${i}` }));
  const post: NodeItem = { id: makeId(random), label: "Post", title: "p" };
  const good: EdgeItem = { id: makeId(random, 1), label: "Follows", from_node: users[0]!.id, to_node: users[1]!.id };
  const stranger = makeId(random);
  const edge = (over: Partial<EdgeItem>): EdgeItem => ({
    id: makeId(random, 2),
    label: "Follows",
    from_node: users[0]!.id,
    to_node: users[1]!.id,
    ...over,
  });
  const cases: [string, EdgeItem][] = [
    ["unknown from node", edge({ from_node: stranger })],
    ["unknown to node", edge({ to_node: stranger })],
    ["to node of another type", edge({ to_node: post.id })],
    ["from node of another type (Likes)", edge({ label: "Likes", from_node: post.id, to_node: post.id })],
    ["id of a node", edge({ id: users[1]!.id })],
    ["id of an earlier edge", edge({ id: good.id })],
    ["id no UUID", edge({ id: "0190a5c1-0000-7000-8000-00000000000z" })],
    ["from no UUID", edge({ from_node: "0190a5c1_0000-7000-8000-000000000001" })],
    ["unknown label", edge({ label: "Nope" })],
  ];
  const store = openStore("bad");
  const messages: string[] = [];
  for (const [name, bad] of cases) {
    const outcome: string[] = [];
    for (const shape of [exportShape, otherShape]) {
      const lines = [...users, post, good].map((r) => exportShape(r));
      const file = writeFile(`${shape.name}.jsonl`, [...lines, shape(bad)]);
      const error = await load(store, [file]).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error, name).toBeInstanceOf(ImportError);
      outcome.push((error as ImportError).message.replace(file, "FILE"));
      expect(store.read((db) => db.nodesByLabel("User")).length, name).toBe(0);
    }
    expect(outcome[0], name).toBe(outcome[1]);
    messages.push(outcome[0]!);
  }
  // The messages themselves are pinned by the general path's tests (data-import.test.ts); here, that each case is one.
  expect(messages.map((m) => m.slice(0, "FILE:5: ".length))).toEqual(cases.map(() => "FILE:5: "));
  expect(new Set(messages).size).toBe(cases.length);

  // --skip-bad: the bad line is left out and counted, the rest loaded.
  const file = writeFile("skip.jsonl", [...[...users, post, good].map((r) => exportShape(r)), exportShape(cases[0]![1])]);
  const firstReason = messages[0]!.slice("FILE:5: ".length).replace(/; nothing of this file was imported$/, "");
  expect(await load(store, [file], true)).toEqual([
    { path: file, loaded: 4, rejected: 1, firstRejected: { line: 5, reason: firstReason } },
  ]);
  expect(store.read((db) => db.out([users[0]!], "Follows")).map((n) => n.id)).toEqual([users[1]!.id]);
});

test("an import into a store with lists already extends them as the layout requires, and leaves no stale cache entry", async () => {
  const store = openStore("grown");
  const { users, stored } = await store.write((db) => {
    const made = Array.from({ length: 5 }, (_, i) => db.addNode("User", { name: `u${i}` }));
    // A hub past one chunk, and lists of both labels.
    const edges = [
      ...Array.from({ length: 40 }, (_, i) => db.addEdge("Follows", {}, made[0]!.id, made[1 + (i % 4)]!.id)),
      db.addEdge("FollowsBack", {}, made[2]!.id, made[0]!.id),
    ];
    return { users: made, stored: edges };
  });
  // Read (and cache) the lists the import changes.
  expect(store.read((db) => db.out([users[0]!], "Follows")).length).toBe(40);
  expect(store.read((db) => db.in([users[0]!], "FollowsBack")).length).toBe(1);
  const added: EdgeItem[] = [];
  const pairs = [
    [0, 1],
    [0, 2],
    [3, 0],
    [4, 4],
    [2, 0],
  ];
  for (let round = 0; round < 6; round++) {
    for (const [from, to] of pairs) {
      for (const label of ["Follows", "FollowsBack"]) {
        added.push({ id: uuidv7(), label, from_node: users[from!]!.id, to_node: users[to!]!.id });
      }
    }
  }
  // Upper-case ids (the general path: nothing stored before the import may be assumed absent).
  await load(store, [
    writeFile(
      "more.jsonl",
      added.map((e) => exportShape(e, true)),
    ),
  ]);
  expect(dumpStore(store)).toEqual(expectedDump(store, users, [...stored, ...added]));
  expect(store.verify().disagreements).toEqual([]);
  expect(staleCacheEntries(store)).toEqual([]);
  expect(store.read((db) => db.out([users[0]!], "Follows")).length).toBe(52);
  expect(store.read((db) => db.in([users[0]!], "FollowsBack")).length).toBe(13);
});
