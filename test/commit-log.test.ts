// The commit log (runtime/commit-log/log-entries.ts, runtime/commit-log/log-writes.ts): every write
// transaction appends one entry in its own transaction; a second store that applies the entries
// holds exactly the same bytes in every database, searches the same (vectors and BM25) and
// verifies clean; the retention trims from the front and a reader past it is told "gone".
import { afterEach, describe, expect, it } from "vitest";
import type { EdgeItem, NodeItem } from "../core/items.js";
import { GraphStore } from "../runtime/graph-store.js";
import type { StoreDbs } from "../runtime/store/dbs.js";
import { commitSeqOf } from "../runtime/commit-log/log-entries.js";
import { appendCommit, entryOps } from "../runtime/commit-log/log-writes.js";
import { removeDir, tempDir } from "./support/store-fixtures.js";
import { rng, unitVector, gaussian, vectorSchema } from "./support/vector-fixtures.js";

const open: { store: GraphStore; dir: string }[] = [];
function openStore(options: Partial<Parameters<typeof GraphStore.open>[0]> = {}): GraphStore {
  const dir = tempDir("strand-commit-log-");
  const store = GraphStore.open({ path: dir, schema: vectorSchema, ...options });
  open.push({ store, dir });
  return store;
}
afterEach(async () => {
  for (const { store, dir } of open.splice(0)) {
    await store.close();
    removeDir(dir);
  }
});

/** Every database's raw entries (key JSON → value bytes as hex), the commit log and meta included. */
function rawDump(store: GraphStore): Record<string, Record<string, string>> {
  const dbs = (store as unknown as { dbs: StoreDbs }).dbs;
  const out: Record<string, Record<string, string>> = {};
  for (const name of Object.keys(dbs) as (keyof StoreDbs)[]) {
    if (name === "env") continue;
    const db = dbs[name] as StoreDbs["nodes"];
    const entries: Record<string, string> = {};
    for (const key of db.getKeys({})) {
      if (name === "meta" && (key as unknown) === "format") continue;
      entries[JSON.stringify(key)] = Buffer.from(db.getBinary(key as never)!).toString("hex");
    }
    out[name] = entries;
  }
  return out;
}

/** A seeded stream of mixed writes: authors, docs (vectors with text), edges, updates, drops. */
async function mixedWrites(store: GraphStore, n: number, seed: number): Promise<void> {
  const random = rng(seed);
  const normal = gaussian(random);
  const authors: NodeItem[] = [];
  const docs: NodeItem[] = [];
  const words = ["graph", "vector", "replica", "leader", "commit", "log", "search", "keyword"];
  const text = () => Array.from({ length: 3 + Math.floor(random() * 5) }, () => words[Math.floor(random() * words.length)]).join(" ");
  for (let i = 0; i < n; i++) {
    const r = random();
    await store.write((db) => {
      if (r < 0.2 || authors.length === 0) authors.push(db.addNode("Author", { name: `author ${i}` }));
      else if (r < 0.55 || docs.length < 2) {
        const doc = db.addVector("Doc", unitVector(normal, 8), { title: text(), topic: `t${i % 3}`, slug: `s${seed}-${i}`, rank: i });
        docs.push(doc);
        db.addEdge("Wrote", {}, authors[Math.floor(random() * authors.length)]!.id, doc.id);
      } else if (r < 0.7) {
        const [a, b] = [docs[Math.floor(random() * docs.length)]!, docs[Math.floor(random() * docs.length)]!];
        db.addEdge("Cites", {}, a.id, b.id);
      } else if (r < 0.85) {
        const doc = docs[Math.floor(random() * docs.length)]!;
        const [next] = db.updateNodes([doc], { title: text(), rank: i });
        docs[docs.indexOf(doc)] = next!;
      } else {
        const doc = docs.splice(Math.floor(random() * docs.length), 1)[0]!;
        db.dropVector(doc);
      }
    });
  }
}

async function follow(leader: GraphStore, follower: GraphStore, batch: number): Promise<void> {
  for (;;) {
    const read = leader.log.read(follower.log.committed, batch, 1 << 20);
    if (read === "gone") throw new Error("gone");
    if (read.frames.length === 0) return;
    await follower.applyLogEntries(read.first, read.frames);
  }
}

describe("commit log", () => {
  it("numbers each write transaction, readable without a scan", async () => {
    const store = openStore();
    expect(store.log.committed).toBe(0);
    await store.write((db) => db.addNode("Author", { name: "a" }));
    await store.write((db) => db.addNode("Author", { name: "b" }));
    await expect(
      store.write(() => {
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    await Promise.all([1, 2, 3].map((i) => store.write((db) => db.addNode("Author", { name: `c${i}` }))));
    await store.write((db) => db.nodesByLabel("Author").length); // changes nothing: no entry
    expect(store.log.committed).toBe(5);
    expect(store.log.oldest()).toBe(1);
    const read = store.log.read(3, 10, 1 << 20);
    expect(read !== "gone" && [read.first, read.frames.length]).toEqual([4, 2]);
  });

  it.each([
    ["at the default threshold (no fold in these writes)", {}],
    ["folding pending incoming entries two at a time past 6", { foldPendingAt: 6, foldSlice: 2 }],
  ])("a store that applies the entries holds the same bytes, searches the same and verifies clean, %s", async (_, folds) => {
    const leader = openStore(folds);
    const follower = openStore();
    await mixedWrites(leader, 120, 7);
    await follow(leader, follower, 17);
    expect(follower.log.committed).toBe(leader.log.committed);
    expect(rawDump(follower)).toEqual(rawDump(leader));
    const query = unitVector(gaussian(rng(99)), 8);
    const search = (s: GraphStore) =>
      s.read((db) => ({ v: db.searchVectors("Doc", query, 10), k: db.searchBM25("Doc", "replica log", 10) }));
    expect(search(follower)).toEqual(search(leader));
    expect(follower.verify().disagreements).toEqual([]);
    expect(leader.verify().disagreements).toEqual([]);
    // More writes after the first catch-up: the follower's read cache and vector index follow them.
    const cached = follower.read((db) => db.nodesByLabel("Doc").length);
    await mixedWrites(leader, 40, 8);
    await follow(leader, follower, 5);
    expect(rawDump(follower)).toEqual(rawDump(leader));
    expect(search(follower)).toEqual(search(leader));
    expect(follower.read((db) => db.nodesByLabel("Doc").length)).toBe(leader.read((db) => db.nodesByLabel("Doc").length));
    expect(cached).toBeGreaterThan(0);
    expect(follower.verify().disagreements).toEqual([]);
  });

  it("a follower applies one write of 130,000 vectors (more than one call's arguments can hold)", async () => {
    // A small graph per vector: what is tested is the follower's handling of the entry's size.
    const vector = { m: 4, efConstruction: 8 };
    const leader = openStore({ vector });
    const follower = openStore({ vector });
    const normal = gaussian(rng(3));
    const count = 130_000;
    await leader.write((db) => {
      for (let i = 0; i < count; i++) db.addVector("Chunk", unitVector(normal, 2), { text: "" });
    });
    await follow(leader, follower, 1);
    expect(follower.log.committed).toBe(1);
    expect(follower.read((db) => db.nodesByLabel("Chunk").length)).toBe(count);
    const nearest = (s: GraphStore) => s.read((db) => db.searchVectors("Chunk", [1, 0], 3).map((v) => v.id));
    expect(nearest(follower)).toEqual(nearest(leader));
  }, 120_000);

  it("logs an adjacency list's append as the entries appended, not the list's new image", async () => {
    const leader = openStore();
    const follower = openStore();
    const author = await leader.write((db) => db.addNode("Author", { name: "prolific" }));
    // The author's out list of Wrote is what grows here: 40 entries, then 3 more.
    const targets = await leader.write((db) =>
      Array.from({ length: 43 }, (_, i) =>
        db.addVector("Doc", [1, 0, 0, 0, 0, 0, 0, i], { title: `d${i}`, topic: "t", slug: `s${i}`, rank: i }),
      ),
    );
    await leader.write((db) => {
      for (let i = 0; i < 40; i++) db.addEdge("Wrote", {}, author.id, targets[i]!.id);
    });
    const seq = leader.log.committed;
    await leader.write((db) => {
      for (let i = 40; i < 43; i++) db.addEdge("Wrote", {}, author.id, targets[i]!.id);
    });
    const dbs = (leader as unknown as { dbs: StoreDbs }).dbs;
    const ops = entryOps(dbs.commitLog.get(seq + 1)!);
    // Per op: its database and form; an append's entries are 32 bytes per edge (edge id, other end).
    const forms = ops.map((op) =>
      op.length === 4 ? [op[0], op[2], (op[3] as Uint8Array).length] : [op[0], op.length === 3 ? "put" : "remove"],
    );
    // The three edges' ends go in one block of edge_ends, put once as the write ends.
    expect(forms).toEqual([
      ["inPending", "put"],
      ["inPending", "put"],
      ["inPending", "put"],
      ["out", "append", 96],
      ["edgeEnds", "put"],
    ]);
    await follow(leader, follower, 7);
    expect(rawDump(follower)).toEqual(rawDump(leader));
    expect(follower.read((db) => db.out([author], "Wrote").map((d) => d.id))).toEqual(targets.map((d) => d.id));
  });

  it("a follower's cached lists follow its leader's adjacency changes, though the entries name no list's cache key", async () => {
    const leader = openStore({ foldPendingAt: 4, foldSlice: 2 });
    const follower = openStore();
    const [a, b] = await leader.write((db) => [db.addNode("Author", { name: "a" }), db.addNode("Author", { name: "b" })] as const);
    const docs = await leader.write((db) =>
      Array.from({ length: 6 }, (_, i) =>
        db.addVector("Doc", [1, 0, 0, 0, 0, 0, 0, i], { title: `d${i}`, topic: "t", slug: `c${i}`, rank: i }),
      ),
    );
    await leader.write((db) => db.addEdge("Wrote", {}, a.id, docs[0]!.id));
    const dbs = (leader as unknown as { dbs: StoreDbs }).dbs;
    expect(dbs.commitLog.get(leader.log.committed)!.keys).toEqual([]);
    await follow(leader, follower, 10);
    // Read (and cached) on the follower: a's out list, doc 0's and doc 1's in lists.
    const lists = (s: GraphStore) =>
      s.read((db) => [
        db.out([a], "Wrote").map((d) => d.id),
        db.out([b], "Wrote").map((d) => d.id),
        docs.map((d) => db.in([d], "Wrote").map((x) => x.id)),
      ]);
    expect(lists(follower)).toEqual([[docs[0]!.id], [], [[a.id], [], [], [], [], []]]);
    // Appends to both, a fold of a slice (past 4 pending), and a drop that cuts a stored list.
    const wrote = await leader.write((db) => docs.slice(1).map((d) => db.addEdge("Wrote", {}, b.id, d.id)));
    await leader.write((db) => db.addEdge("Wrote", {}, a.id, docs[1]!.id));
    await leader.write((db) => db.drop([wrote[0]!]));
    await follow(leader, follower, 10);
    expect(lists(follower)).toEqual(lists(leader));
    expect(lists(follower)).toEqual([
      [docs[0]!.id, docs[1]!.id],
      docs.slice(2).map((d) => d.id),
      [[a.id], [a.id], [b.id], [b.id], [b.id], [b.id]],
    ]);
    expect(rawDump(follower)).toEqual(rawDump(leader));
  });

  it("logs a postings block rewritten many times in one write once, as it ends", async () => {
    // Renaming 3,000 authors takes each out of the postings of "author": up to 3,000 rewrites of
    // the same blocks (12 KiB each) in one write, which the entry held every one of (GBs for a
    // bulk UPDATE of 100k nodes, until the commit failed).
    const leader = openStore();
    const follower = openStore();
    const count = 3_000;
    await leader.write((db) => {
      for (let i = 0; i < count; i++) db.addNode("Author", { name: `author ${i}` });
    });
    await leader.write((db) => db.updateNodes(db.nodesByLabel("Author"), (a) => ({ name: `writer ${String(a.name).slice(7)}` })));
    const read = leader.log.read(1, 1, 1 << 30); // the entry after 1: the rename
    if (read === "gone") throw new Error("gone");
    expect(read.frames.length).toBe(1);
    expect(read.frames[0]!.length).toBeLessThan(1 << 20);
    await follow(leader, follower, 1);
    expect(rawDump(follower)).toEqual(rawDump(leader));
    expect(follower.read((db) => db.searchBM25("Author", "writer", 5).length)).toBe(5);
    expect(follower.read((db) => db.searchBM25("Author", "author", 5).length)).toBe(0);
  });

  it("refuses entries that do not follow the store's sequence", async () => {
    const leader = openStore();
    const follower = openStore();
    await mixedWrites(leader, 5, 1);
    const read = leader.log.read(2, 10, 1 << 20);
    if (read === "gone") throw new Error("gone");
    await expect(follower.applyLogEntries(read.first, read.frames)).rejects.toThrow("log entries start at 3, but the store is at 0");
    expect(follower.log.committed).toBe(0);
  });

  it("serves a follower only entries whose flush the log has seen, never one past `committed`", async () => {
    // LMDB shows a commit to new read transactions before its flush resolves; an entry read then
    // put a follower past the leader's committed sequence, which the leader's divergence check
    // took for another history (a 410 and a re-seed under ordinary load).
    const store = openStore();
    await store.write((db) => db.addNode("Author", { name: "a" }));
    await store.write((db) => db.addNode("Author", { name: "b" }));
    const dbs = (store as unknown as { dbs: StoreDbs }).dbs;
    // A third entry committed and visible, its flush not yet reported to the log.
    dbs.env.transactionSync(() => appendCommit(dbs, [["vectorTypes", ["Probe"]]], [], []));
    expect(commitSeqOf(dbs)).toBe(3);
    expect(store.log.committed).toBe(2);
    const read = store.log.read(0, 10, 1 << 20);
    expect(read !== "gone" && [read.first, read.frames.length]).toEqual([1, 2]);
    const none = store.log.read(2, 10, 1 << 20);
    expect(none !== "gone" && none.frames.length).toBe(0);
    store.log.advance(3, Date.now());
    const now = store.log.read(2, 10, 1 << 20);
    expect(now !== "gone" && [now.first, now.frames.length]).toEqual([3, 1]);
  });

  it("trims to the retention from the front; a reader behind it is told gone", async () => {
    const store = openStore({ logRetention: { entries: 5, intervalMs: 60_000 } });
    for (let i = 0; i < 12; i++) await store.write((db) => db.addNode("Author", { name: `a${i}` }));
    await store.log.trim();
    expect([store.log.oldest(), store.log.committed]).toEqual([8, 12]);
    expect(store.log.read(3, 10, 1 << 20)).toBe("gone");
    const read = store.log.read(7, 10, 1 << 20);
    expect(read !== "gone" && [read.first, read.frames.length]).toEqual([8, 5]);
  });

  it("keeps nothing when the log is off, and the store works as before", async () => {
    const store = openStore({ commitLog: false });
    const edge: EdgeItem = await store.write((db) => {
      const a = db.addNode("Author", { name: "a" });
      const d = db.addVector("Doc", [1, 0, 0, 0, 0, 0, 0, 0], { title: "t", slug: "s" });
      return db.addEdge("Wrote", {}, a.id, d.id);
    });
    expect(edge.label).toBe("Wrote");
    expect([store.log.committed, store.log.oldest()]).toEqual([0, null]);
  });
});
