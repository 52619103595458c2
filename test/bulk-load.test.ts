// The bulk path of strand import against the record-by-record one: the same records imported from
// one file (one transaction: every list gets all its entries in one rewrite, adjacency/append-buffer.ts)
// and loaded one record per transaction (each list's tail re-read and extended every time) leave
// the graph databases equal entry for entry, and equal to what the layout says those records
// must be. And a bulk load is not logged key by key: it leaves a gap in the commit log, so a
// replica behind it is told "gone" (and re-seeds) while later writes log as before.
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { seededRandom as rng } from "../bench/random.js";
import { parseListKey } from "../runtime/adjacency/lists.js";
import type { EdgeItem, NodeItem } from "../core/items.js";
import { silentProgress } from "../core/progress.js";
import { exportDataDir } from "../runtime/data/export.js";
import { importFileOf, importFiles } from "../runtime/data/import.js";
import { GraphStore } from "../runtime/graph-store.js";
import { commitSeqOf, readLogFrames } from "../runtime/commit-log/log-entries.js";
import type { StoreDbs } from "../runtime/store/dbs.js";
import { schemaOf } from "./support/compile-schema.js";
import { dumpStore, expectedDump } from "./support/store-dump.js";
import { removeDir, tempDir } from "./support/store-fixtures.js";

/** A dump's adjacency key (hex) names a sealed chunk, not a list's tail. */
const isChunkKey = (hexKey: string): boolean => parseListKey(Buffer.from(hexKey, "hex")).length === 3;

const schema = schemaOf(`
N::User { INDEX group: String, name: String }
N::Post { title: String }
E::Follows { From: User, To: User }
E::Likes { From: User, To: Post, Properties: { weight: F64 } }
`);

let dir = "";
const stores: GraphStore[] = [];
beforeEach(() => {
  dir = tempDir("strand-bulk-");
});
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  removeDir(dir);
});

function openStore(name: string): GraphStore {
  const store = GraphStore.open({ path: path.join(dir, name), schema });
  stores.push(store);
  return store;
}

/**
 * A UUID v4-shaped id from the PRNG: node ids in random order, as a user's data has them; edge ids
 * led by their position (`seq`), so id order is input order, the order a list keeps (as with
 * UUID v7 ids) and the one expectedDump assumes.
 */
function randomId(random: () => number, seq?: number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16)).join("");
  const lead = seq === undefined ? hex.slice(0, 8) : seq.toString(16).padStart(8, "0");
  return `${lead}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20)}`;
}

/** Users and posts; Follows and Likes edges, a few hubs far past one chunk (32 entries), some parallel edges. */
function graph(seed: number): { nodes: NodeItem[]; edges: EdgeItem[] } {
  const random = rng(seed);
  const users: NodeItem[] = Array.from({ length: 150 }, (_, i) => ({
    id: randomId(random),
    label: "User",
    group: `g${i % 7}`,
    name: `user ${i}`,
  }));
  const posts: NodeItem[] = Array.from({ length: 40 }, (_, i) => ({ id: randomId(random), label: "Post", title: `post ${i}` }));
  const edges: EdgeItem[] = [];
  const pick = <T>(list: readonly T[], hubBias: number): T =>
    list[random() < hubBias ? Math.floor(random() * 3) : Math.floor(random() * list.length)]!;
  for (let i = 0; i < 1200; i++) {
    const from = pick(users, 0.2);
    if (random() < 0.7)
      edges.push({ id: randomId(random, edges.length), label: "Follows", from_node: from.id, to_node: pick(users, 0.3).id });
    else {
      const weighted = random() < 0.5;
      edges.push({
        id: randomId(random, edges.length),
        label: "Likes",
        from_node: from.id,
        to_node: pick(posts, 0.3).id,
        ...(weighted ? { weight: Math.round(random() * 1000) / 10 } : {}),
      });
    }
  }
  // Parallel edges: the same pair twice.
  edges.push({ ...edges[0]!, id: randomId(random, edges.length) });
  edges.push({ ...edges[1]!, id: randomId(random, edges.length) });
  return { nodes: [...users, ...posts], edges };
}

function lineOf(rec: NodeItem | EdgeItem): object {
  if (rec.from_node === undefined) {
    const { id, label, ...fields } = rec;
    return { kind: "N", label, id, ...fields };
  }
  const { id, label, from_node, to_node, ...fields } = rec as EdgeItem;
  return { kind: "E", label, id, from: from_node, to: to_node, ...fields };
}

test("one file in one transaction leaves exactly what one record per transaction leaves, and what the layout requires", async () => {
  const { nodes, edges } = graph(7);
  const lines = [...nodes, ...edges].map(lineOf);
  const file = path.join(dir, "all.jsonl");
  fs.writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);

  const bulk = openStore("bulk");
  const [outcome] = await importFiles(bulk, [importFileOf(file)], { skipBad: false, progress: silentProgress });
  expect(outcome!.loaded).toBe(nodes.length + edges.length);

  const single = openStore("single");
  for (const line of lines) {
    const one = path.join(dir, "one.jsonl");
    fs.writeFileSync(one, `${JSON.stringify(line)}\n`);
    await importFiles(single, [importFileOf(one)], { skipBad: false, progress: silentProgress });
  }

  const expected = expectedDump(bulk, nodes, edges);
  const hubOut = Object.keys(expected.out).filter((key) => isChunkKey(key));
  expect(hubOut.length).toBeGreaterThan(3); // lists far past one chunk are part of the test
  expect(dumpStore(bulk)).toEqual(expected);
  expect(dumpStore(single)).toEqual(expected);
  expect(bulk.verify().disagreements).toEqual([]);
  expect(single.verify().disagreements).toEqual([]);
}, 120_000);

test("a bulk load leaves a gap in the commit log: a reader behind it is told gone, later writes log as before", async () => {
  const store = openStore("log");
  const dbs = (store as unknown as { dbs: StoreDbs }).dbs;
  await store.write((db) => db.addNode("User", { group: "a", name: "before" }));
  expect(commitSeqOf(dbs)).toBe(1);
  const file = path.join(dir, "users.jsonl");
  fs.writeFileSync(file, `${JSON.stringify({ kind: "N", label: "User", group: "b", name: "loaded" })}\n`);
  await importFiles(store, [importFileOf(file)], { skipBad: false, progress: silentProgress });
  expect(commitSeqOf(dbs)).toBe(3);
  expect(readLogFrames(dbs, 1, 10, 1 << 20)).toBe("gone");
  expect(readLogFrames(dbs, 0, 10, 1 << 20)).toMatchObject({ first: 1 });
  await store.write((db) => db.addNode("User", { group: "c", name: "after" }));
  const frames = readLogFrames(dbs, 3, 10, 1 << 20);
  expect(frames).not.toBe("gone");
  expect((frames as { first: number; frames: Uint8Array[] }).first).toBe(4);
  expect((frames as { first: number; frames: Uint8Array[] }).frames.length).toBe(1);
});

test("export: lines across chunk boundaries, a line longer than a chunk, and bare and field edges merged in id order", async () => {
  const random = rng(11);
  const users: NodeItem[] = Array.from({ length: 200 }, (_, i) => ({
    id: randomId(random),
    label: "User",
    group: `g${i % 3}`,
    // One name far longer than a 1 MiB chunk, with characters of 2 and 3 UTF-8 bytes.
    name: i === 100 ? "é€".repeat(600_000) : `user ${i}`,
  }));
  const posts: NodeItem[] = [{ id: randomId(random), label: "Post", title: "only" }];
  const edges: EdgeItem[] = [];
  for (let i = 0; i < 12_000; i++) {
    const from = users[Math.floor(random() * users.length)]!.id;
    if (i % 5 === 0)
      edges.push({
        id: randomId(random, i),
        label: "Likes",
        from_node: from,
        to_node: posts[0]!.id,
        ...(i % 10 === 0 ? { weight: i / 10 } : {}),
      });
    else
      edges.push({ id: randomId(random, i), label: "Follows", from_node: from, to_node: users[Math.floor(random() * users.length)]!.id });
  }
  const file = path.join(dir, "in.jsonl");
  fs.writeFileSync(file, `${[...users, ...posts, ...edges].map((r) => JSON.stringify(lineOf(r))).join("\n")}\n`);
  const store = openStore("export");
  await importFiles(store, [importFileOf(file)], { skipBad: false, progress: silentProgress });
  await store.close();
  stores.splice(0);

  const chunks: Buffer[] = [];
  const counts = await exportDataDir(path.join(dir, "export"), async (chunk) => void chunks.push(Buffer.from(chunk)), silentProgress);
  expect(counts).toEqual({ nodes: 201, vectors: 0, edges: 12_000 });
  expect(chunks.length).toBeGreaterThan(3);
  // Every chunk is whole lines.
  for (const chunk of chunks) expect(chunk[chunk.length - 1]).toBe(10);
  const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const expected = [
    ...posts,
    ...[...users].sort(byId),
    ...edges.filter((e) => e.label === "Follows").sort(byId),
    ...edges.filter((e) => e.label === "Likes").sort(byId),
  ].map((r) => JSON.stringify(lineOf(r)));
  expect(Buffer.concat(chunks).toString("utf8")).toBe(`${expected.join("\n")}\n`);
}, 120_000);

test("the commit log of writes that seal chunks of several lists at once replays to the same adjacency bytes", async () => {
  const leader = openStore("leader");
  const follower = openStore("follower");
  const random = rng(5);
  const ids: string[] = [];
  await leader.write((db) => {
    for (let i = 0; i < 40; i++) ids.push(db.addNode("User", { group: `g${i % 2}`, name: `u${i}` }).id);
  });
  // One write: three lists past one chunk (the buffer reuses one array for every list it
  // writes), many small ones, and edges into lists the first write left with a tail.
  for (let round = 0; round < 2; round++) {
    await leader.write((db) => {
      for (let i = 0; i < (round === 0 ? 120 : 90); i++) {
        const from = ids[i % 3]!;
        db.addEdge("Follows", {}, from, ids[Math.floor(random() * ids.length)]!);
      }
    });
  }
  const read = leader.log.read(0, 100, 1 << 24);
  if (read === "gone") throw new Error("log gone");
  await follower.applyLogEntries(read.first, read.frames);
  expect(dumpStore(follower)).toEqual(dumpStore(leader));
  const chunks = Object.keys(dumpStore(leader).out).filter((key) => isChunkKey(key));
  // 40 then 30 entries for each of the three: a chunk sealed from new entries alone, then one from tail + new.
  expect(chunks.length).toBe(6);
});
