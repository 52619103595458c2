// Deferred incoming adjacency (runtime/adjacency/pending-in.ts): new `in` entries wait in
// adjacency_in_pending until a fold moves them into their lists. Whatever the interleaving of
// edge adds, edge drops, node drops, failed writes and folds (by the threshold inside a write, or
// on their own), every list and count reads as without deferral, the store is exactly the layout
// a fold leaves, and verify is clean; a follower applying the leader's log reads the same.
import { afterEach, describe, expect, test } from "vitest";
import { seededRandom as rng } from "../bench/random.js";
import type { EdgeItem, NodeItem } from "../core/items.js";
import { GraphStore } from "../runtime/graph-store.js";
import { idBytes } from "../runtime/store/id-bytes.js";
import { pendingKey, pendingListPrefix } from "../runtime/adjacency/pending-in.js";
import { verifyDataDir } from "../runtime/verify/verify-dir.js";
import { dumpStoreWithPending, expectedDump } from "./support/store-dump.js";
import { removeDir, schema, tempDir } from "./support/store-fixtures.js";
import { corrupt } from "./support/verify-fixtures.js";

const dirs: string[] = [];
const stores: GraphStore[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  for (const d of dirs.splice(0)) removeDir(d);
});

function openStore(foldPendingAt: number, foldSlice?: number): GraphStore {
  const dir = tempDir("strand-pending-in-");
  dirs.push(dir);
  const store = GraphStore.open({ path: dir, schema, foldPendingAt, ...(foldSlice !== undefined ? { foldSlice } : {}) });
  stores.push(store);
  return store;
}

const LABELS = ["Knows", "Follows"] as const;
const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Every node's incoming edges and neighbours per label, and the counts, as a read sees them. */
function readInLists(store: GraphStore, nodes: readonly NodeItem[]): unknown {
  return store.read((db) =>
    nodes.map((n) =>
      LABELS.map((label) => [
        db.inE([n], label).map((e) => e.id),
        db.in([n], label).map((x) => x.id),
        db.countAdjacent([n], [["in", label]]),
      ]),
    ),
  );
}

/** The same from the model: in-edges in creation (id) order. */
function modelInLists(nodes: readonly NodeItem[], edges: readonly EdgeItem[]): unknown {
  const sorted = [...edges].sort(byId);
  return nodes.map((n) =>
    LABELS.map((label) => {
      const into = sorted.filter((e) => e.label === label && e.to_node === n.id);
      return [into.map((e) => e.id), into.map((e) => e.from_node), into.length];
    }),
  );
}

/** Applies the leader's log entries after `after` to the follower, in answers of up to 100. */
async function shipLog(leader: GraphStore, follower: GraphStore, after: number): Promise<void> {
  for (let at = after; at < leader.log.committed; ) {
    const read = leader.log.read(at, 100, 1 << 24);
    if (read === "gone") throw new Error("log gone");
    await follower.applyLogEntries(read.first, read.frames);
    at = read.first + read.frames.length - 1;
  }
}

describe("property: deferral and folds at random points read as without deferral, on the leader and a follower", () => {
  test.each([
    [21, 1_000_000, 0],
    [22, 40, 0],
    [23, 7, 0],
    [24, 0, 0],
    [25, 40, 6],
    [26, 12, 1],
  ])(
    "seed %i, fold at %i pending, slices of %i (0: all)",
    async (seed, foldAt, slice) => {
      const rand = rng(seed);
      const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
      const store = openStore(foldAt, slice);
      const nodes = new Map<string, NodeItem>();
      const edges = new Map<string, EdgeItem>();
      const hub = await store.write((db) => db.addNode("User", { name: "hub" }));
      nodes.set(hub.id, hub);
      let maxPending = 0;
      let foldsSeen = 0;
      for (let step = 0; step < 70; step++) {
        const fail = rand() < 0.1;
        const n2 = new Map(nodes);
        const e2 = new Map(edges);
        try {
          await store.write((db) => {
            for (let k = 1 + Math.floor(rand() * 20); k > 0; k--) {
              const op = rand();
              const users = [...n2.values()];
              if (op < 0.15 || users.length < 3) {
                const u = db.addNode("User", { name: `u${step}.${k}` });
                n2.set(u.id, u);
              } else if (op < 0.75) {
                const label = rand() < 0.8 ? "Knows" : "Follows";
                const from = pick(users);
                const to = rand() < 0.4 ? hub : pick(users);
                const taken =
                  label === "Follows" && [...e2.values()].some((e) => e.label === label && e.from_node === from.id && e.to_node === to.id);
                if (taken) continue;
                const e = db.addEdge(label, {}, from.id, to.id);
                e2.set(e.id, e);
                // Read back in the same write: its own deferred entry is in the list.
                if (rand() < 0.2) expect(db.inE([to], label).map((x) => x.id)).toContain(e.id);
              } else if (op < 0.9 && e2.size > 0) {
                const victim = pick([...e2.values()]);
                db.drop([victim]);
                e2.delete(victim.id);
              } else {
                const victim = pick(users.filter((u) => u.id !== hub.id));
                if (victim === undefined) continue;
                db.drop([victim]);
                n2.delete(victim.id);
                for (const e of [...e2.values()]) if (e.from_node === victim.id || e.to_node === victim.id) e2.delete(e.id);
              }
            }
            if (fail) throw new Error("planned failure");
          });
          nodes.clear();
          for (const [id, n] of n2) nodes.set(id, n);
          edges.clear();
          for (const [id, e] of e2) edges.set(id, e);
        } catch (error) {
          expect((error as Error).message).toBe("planned failure");
        }
        const pending = dumpStoreWithPending(store).pendingIn;
        if (pending < maxPending) foldsSeen++;
        maxPending = Math.max(maxPending, pending);
        if (rand() < 0.15) {
          await store.foldPendingIn();
          expect(dumpStoreWithPending(store).pendingIn).toBe(0);
          foldsSeen++;
        }
        const all = [...nodes.values()];
        expect(readInLists(store, all)).toEqual(modelInLists(all, [...edges.values()]));
      }
      // The run exercised what it claims: entries pending across writes (unless every write folds), and folds.
      if (foldAt === 0) expect(maxPending).toBe(0);
      else expect(maxPending).toBeGreaterThan(foldAt < 30 ? 3 : 30); // below foldAt: a write past it folds
      expect(foldsSeen).toBeGreaterThan(3);
      const { dump } = dumpStoreWithPending(store);
      expect(dump).toEqual(expectedDump(store, nodes.values(), edges.values()));
      expect(store.verify().disagreements).toEqual([]);
      // A follower applying the whole log holds the same bytes, pending entries included.
      const follower = openStore(1_000_000);
      await shipLog(store, follower, 0);
      expect(dumpStoreWithPending(follower)).toEqual(dumpStoreWithPending(store));
      const seq = store.log.committed;
      await store.foldPendingIn();
      const folded = dumpStoreWithPending(store);
      expect(folded.pendingIn).toBe(0);
      expect(folded.dump).toEqual(dump);
      expect(store.verify().disagreements).toEqual([]);
      await shipLog(store, follower, seq);
      expect(dumpStoreWithPending(follower)).toEqual(folded);
    },
    60_000,
  );
});

test("a follower applying the leader's log reads the pending entries, then the fold, as the leader does", async () => {
  const leader = openStore(1_000_000);
  const follower = openStore(1_000_000);
  const random = rng(9);
  const users = await leader.write((db) => Array.from({ length: 30 }, (_, i) => db.addNode("User", { name: `u${i}` })));
  for (let round = 0; round < 3; round++) {
    await leader.write((db) => {
      for (let i = 0; i < 50; i++) db.addEdge("Knows", {}, users[i % 30]!.id, users[Math.floor(random() * 30)]!.id);
    });
  }
  const dropped = leader.read((db) => db.inE([users[0]!], "Knows")).slice(0, 2);
  await leader.write((db) => db.drop([...dropped, users[1]!]));
  const ship = async (after: number) => {
    const read = leader.log.read(after, 100, 1 << 24);
    if (read === "gone") throw new Error("log gone");
    await follower.applyLogEntries(read.first, read.frames);
  };
  await ship(0);
  const live = users.filter((u) => u.id !== users[1]!.id);
  const before = dumpStoreWithPending(follower);
  expect(before.pendingIn).toBeGreaterThan(100);
  expect(before).toEqual(dumpStoreWithPending(leader));
  expect(readInLists(follower, live)).toEqual(readInLists(leader, live));
  const seq = leader.log.committed;
  await leader.foldPendingIn();
  await ship(seq);
  const after = dumpStoreWithPending(follower);
  expect(after.pendingIn).toBe(0);
  expect(after.dump).toEqual(before.dump);
  expect(readInLists(follower, live)).toEqual(readInLists(leader, live));
  expect(follower.verify().disagreements).toEqual([]);
});

test("a follower counts the pending entries its leader's log put: once promoted, its first write past the threshold folds", async () => {
  const leader = openStore(1_000_000);
  const follower = openStore(100);
  const users = await leader.write((db) => Array.from({ length: 10 }, (_, i) => db.addNode("User", { name: `u${i}` })));
  await leader.write((db) => {
    for (let i = 0; i < 150; i++) db.addEdge("Knows", {}, users[i % 10]!.id, users[(i * 7) % 10]!.id);
  });
  const read = leader.log.read(0, 100, 1 << 24);
  if (read === "gone") throw new Error("log gone");
  await follower.applyLogEntries(read.first, read.frames);
  expect(dumpStoreWithPending(follower).pendingIn).toBe(150);
  // Promoted: its own writes start. 150 + 1 pending reach its threshold of 100.
  await follower.write((db) => db.addEdge("Knows", {}, users[0]!.id, users[1]!.id));
  expect(dumpStoreWithPending(follower).pendingIn).toBe(0);
  expect(follower.read((db) => db.countAdjacent([users[1]!], [["in", "Knows"]]))).toBe(
    leader.read((db) => db.countAdjacent([users[1]!], [["in", "Knows"]])) + 1,
  );
  expect(follower.verify().disagreements).toEqual([]);
});

describe("verify reads pending entries as part of their lists", () => {
  test("a pending entry lost, a stray one, a wrong node and a malformed key are each reported", async () => {
    const dir = tempDir("strand-pending-verify-");
    dirs.push(dir);
    const store = GraphStore.open({ path: dir, schema, foldPendingAt: 1_000_000 });
    const [a, b, c] = await store.write((db) => ["a", "b", "c"].map((name) => db.addNode("User", { name })));
    const [ab, cb] = await store.write((db) => [db.addEdge("Knows", {}, a!.id, b!.id), db.addEdge("Knows", {}, c!.id, b!.id)]);
    expect(dumpStoreWithPending(store).pendingIn).toBe(2);
    expect(store.verify().disagreements).toEqual([]);
    await store.close();
    const key = (edgeId: string) => pendingKey(pendingListPrefix(b!.id, "Knows"), idBytes(edgeId));
    await corrupt(dir, (dbs) => {
      dbs.inPending.removeSync(key(ab!.id));
      dbs.inPending.putSync(key(cb!.id), idBytes(a!.id));
      dbs.inPending.putSync(key("01a21803-0000-7000-8000-000000000000"), idBytes(c!.id));
      dbs.inPending.putSync(new Uint8Array([1, 2, 3]), idBytes(c!.id));
    });
    const outcome = await verifyDataDir(dir);
    if (!outcome.ok) throw new Error(outcome.message);
    const list = `in ${JSON.stringify([b!.id, "Knows"])}`;
    expect(outcome.report.disagreements).toEqual([
      { check: "adjacency", key: 'in ["pending",1,2,3]', message: "pending adjacency key of 3 bytes is malformed" },
      {
        check: "adjacency",
        key: list,
        message: `the entry '01a21803-0000-7000-8000-000000000000' → '${c!.id}' names no E::Knows to this node`,
      },
      { check: "adjacency", key: list, message: `the entry '${cb!.id}' → '${a!.id}' has the wrong node (the edge's is '${c!.id}')` },
      { check: "adjacency", key: list, message: `E::Knows '${ab!.id}' from '${a!.id}' to '${b!.id}' is missing from the list` },
    ]);
  });
});

test("a bulk load onto lists with pending entries folds them first: the in list stays in creation order", async () => {
  const store = openStore(1_000_000);
  const [hub, a, b] = await store.write((db) => ["hub", "a", "b"].map((name) => db.addNode("User", { name })));
  const written = await store.write((db) => [db.addEdge("Knows", {}, a!.id, hub!.id), db.addEdge("Knows", {}, b!.id, hub!.id)]);
  expect(dumpStoreWithPending(store).pendingIn).toBe(2);
  const loaded = await store.load((loader) =>
    [a!, b!].map((from) => loader.load({ kind: "E", label: "Knows", from: from.id, to: hub!.id, props: {} }) as EdgeItem),
  );
  expect(dumpStoreWithPending(store).pendingIn).toBe(0);
  const inOrder = [...written, ...loaded];
  expect(readInLists(store, [hub!])).toEqual([
    [
      [inOrder.map((e) => e.id), inOrder.map((e) => e.from_node), 4],
      [[], [], 0],
    ],
  ]);
  expect(store.verify().disagreements).toEqual([]);
});

test("a write that folds its own deferred entries: a follower applying its entry holds what the leader holds", async () => {
  const leader = openStore(100);
  const follower = openStore(1_000_000);
  const users = await leader.write((db) => Array.from({ length: 10 }, (_, i) => db.addNode("User", { name: `u${i}` })));
  const edges = await leader.write((db) =>
    Array.from({ length: 60 }, (_, i) => db.addEdge("Knows", {}, users[i % 10]!.id, users[(i * 3) % 10]!.id)),
  );
  // 60 pending + 60 of this write reach 100: this write folds all 120, its own included.
  await leader.write((db) => {
    for (let i = 0; i < 60; i++) db.addEdge("Knows", {}, users[(i * 7) % 10]!.id, users[i % 10]!.id);
  });
  expect(dumpStoreWithPending(leader).pendingIn).toBe(0);
  // An edge of the folded write dropped: the leader cuts it from its list only.
  await leader.write((db) => db.drop([edges[0]!]));
  const read = leader.log.read(0, 100, 1 << 24);
  if (read === "gone") throw new Error("log gone");
  await follower.applyLogEntries(read.first, read.frames);
  expect(dumpStoreWithPending(follower)).toEqual(dumpStoreWithPending(leader));
  expect(readInLists(follower, users)).toEqual(readInLists(leader, users));
  expect(follower.verify().disagreements).toEqual([]);
});

test("a write past the threshold folds a slice: whole lists in key order from where the last one stopped", async () => {
  const leader = openStore(61, 10);
  const follower = openStore(1_000_000);
  // Ten users, created in order: their ids (UUID v7), so their lists' keys, sort as created.
  const users = await leader.write((db) => Array.from({ length: 10 }, (_, i) => db.addNode("User", { name: `u${i}` })));
  const pendingOf = () => dumpStoreWithPending(leader).pendingIn;
  // Six incoming entries per user: 60 pending, under the threshold.
  await leader.write((db) => {
    for (let i = 0; i < 60; i++) db.addEdge("Knows", {}, users[(i + 1) % 10]!.id, users[i % 10]!.id);
  });
  expect(pendingOf()).toBe(60);
  const addInto = (to: number, count: number) =>
    leader.write((db) => {
      for (let i = 0; i < count; i++) db.addEdge("Knows", {}, users[i % 9]!.id, users[to]!.id);
    });
  // 61: a slice of at least 10 from the first list: u0 (6) and u1 (6) go, whole.
  await addInto(9, 1);
  expect(pendingOf()).toBe(49);
  // 61 again; this write deferred 12, so at least 12 go, from where the last slice stopped: u2 and u3.
  await addInto(9, 12);
  expect(pendingOf()).toBe(49);
  await addInto(9, 12); // u4 and u5
  expect(pendingOf()).toBe(49);
  // u6 (6), u7 (6): 12 of at least 12.
  await addInto(9, 12);
  expect(pendingOf()).toBe(49);
  // From u8: u8 (6), then u9 (6 + 37): to the end of the keys.
  await addInto(9, 12);
  expect(pendingOf()).toBe(0);
  // The next slice starts at the first list again.
  await addInto(0, 61);
  expect(pendingOf()).toBe(0);
  await shipLog(leader, follower, 0);
  expect(dumpStoreWithPending(follower)).toEqual(dumpStoreWithPending(leader));
  expect(readInLists(follower, users)).toEqual(readInLists(leader, users));
  expect(leader.read((db) => db.countAdjacent([users[9]!], [["in", "Knows"]]))).toBe(6 + 1 + 48);
  expect(leader.verify().disagreements).toEqual([]);
  expect(follower.verify().disagreements).toEqual([]);
});
