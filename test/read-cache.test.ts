// The shared read cache (runtime/store/read-cache.ts): its own rules, and that a store reading
// through it never shows a value other than what its snapshot holds.
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { StrandError } from "../core/errors.js";
import type { NodeItem } from "../core/items.js";
import type { QueryContext } from "../core/query-context.js";
import { entryBytes, ReadCache } from "../runtime/store/read-cache.js";
import { GraphStore } from "../runtime/graph-store.js";
import { openTempStore, removeDir, schema, tempDir } from "./support/store-fixtures.js";

describe("ReadCache", () => {
  test("fills, hits, and evicts the oldest entry at capacity", () => {
    const cache = new ReadCache(2);
    cache.fill("a", { v: 1 });
    cache.fill("b", { v: 2 });
    cache.fill("c", { v: 3 });
    expect([cache.get("a"), cache.get("b"), cache.get("c"), cache.size]).toEqual([undefined, { v: 2 }, { v: 3 }, 2]);
  });

  test("never holds more than its capacity while keys are filled, dropped by writes and filled again", () => {
    const cache = new ReadCache(100);
    for (let i = 0; i < 10_000; i++) {
      cache.fill(`k${i % 150}`, { v: i });
      if (i % 7 === 0) {
        const touched: string[] = [];
        cache.beginWrite(`k${(i * 13) % 150}`, touched);
        cache.settle(touched);
      }
      expect(cache.size).toBeLessThanOrEqual(100);
    }
    expect(cache.get("k99")).toEqual({ v: 9999 });
    const one = new ReadCache(1);
    one.fill("a", { v: 1 });
    one.fill("b", { v: 2 });
    expect([one.get("a"), one.get("b"), one.size]).toEqual([undefined, { v: 2 }, 1]);
  });

  test("evicts in fill order, also after a write dropped and a read refilled a key", () => {
    const cache = new ReadCache(3);
    for (const k of ["a", "b", "c"]) cache.fill(k, { k });
    const touched: string[] = [];
    cache.beginWrite("a", touched);
    cache.settle(touched);
    cache.fill("a", { k: "a2" }); // takes the oldest slot (a's own)
    cache.fill("d", { k: "d" }); // evicts b
    expect([cache.get("a"), cache.get("b"), cache.get("c"), cache.get("d"), cache.size]).toEqual([
      { k: "a2" },
      undefined,
      { k: "c" },
      { k: "d" },
      3,
    ]);
  });

  test("an adjacency list takes the id strings of cached records whose id is that id, and nothing else", () => {
    const cache = new ReadCache(10);
    cache.fill("n1", { id: "n1", label: "Item" });
    cache.fill("n2", { id: "not n2", label: "Item" });
    const list = { edgeIds: ["e1", "e2", "e3"], otherIds: ["n1", "n2", "n3"] };
    expect(cache.shareRecordIds(list)).toBe(list);
    expect(list).toEqual({ edgeIds: ["e1", "e2", "e3"], otherIds: ["n1", "n2", "n3"] });
  });

  test("a key with a write in flight is dropped and not filled until every write on it settles", () => {
    const cache = new ReadCache(10);
    cache.fill("k", { v: "old" });
    const first: string[] = [];
    const second: string[] = [];
    cache.beginWrite("k", first);
    cache.beginWrite("k", second);
    expect(cache.get("k")).toBeUndefined();
    cache.fill("k", { v: "stale snapshot" });
    expect(cache.get("k")).toBeUndefined();
    cache.settle(first);
    cache.fill("k", { v: "still pending" });
    expect(cache.get("k")).toBeUndefined();
    cache.settle(second);
    cache.fill("k", { v: "new" });
    expect(cache.get("k")).toEqual({ v: "new" });
    expect([first, second]).toEqual([["k"], ["k"]]);
  });

  test("capacity 0 caches nothing; cached values are deep-frozen", () => {
    const off = new ReadCache(0);
    off.fill("k", { v: 1 });
    expect(off.size).toBe(0);
    const on = new ReadCache(1);
    const value = { tags: ["a"], nested: { x: 1 } };
    on.fill("k", value);
    expect([Object.isFrozen(value), Object.isFrozen(value.tags), Object.isFrozen(value.nested)]).toEqual([true, true, true]);
    expect(() => new ReadCache(-1)).toThrow(RangeError);
  });

  test("entryBytes estimates a value's heap size: strings 16 + 2 per character, objects 24 + 16 per property", () => {
    expect(entryBytes("abcd")).toBe(24);
    expect(entryBytes(3)).toBe(8);
    expect(entryBytes(null)).toBe(8);
    expect(entryBytes(["ab", 1])).toBe(16 + 16 + 20 + 8);
    expect(entryBytes({ id: "ab", n: 1 })).toBe(24 + 16 + 20 + 16 + 8);
  });

  test("the byte budget evicts the oldest entries until a new one fits, and counts a dropped or refilled key once", () => {
    const value = (chars: number) => ({ s: "x".repeat(chars) }); // 24 + 16 + 16 + 2 * chars bytes
    const cache = new ReadCache(100, 8 * 1056); // entries of 1,056 bytes: 8 fit, the largest one 1,056
    for (let i = 0; i < 8; i++) cache.fill(`k${i}`, value(500));
    expect([cache.size, cache.bytes]).toEqual([8, 8 * 1056]);
    cache.fill("k8", value(500)); // pushes out k0
    expect([cache.get("k0"), cache.get("k1") !== undefined, cache.size, cache.bytes]).toEqual([undefined, true, 8, 8 * 1056]);
    cache.fill("k3", value(500)); // filled twice: held once
    expect([cache.size, cache.bytes]).toEqual([8, 8 * 1056]);
    const touched: string[] = [];
    cache.beginWrite("k5", touched);
    cache.settle(touched);
    expect([cache.get("k5"), cache.size, cache.bytes]).toEqual([undefined, 7, 7 * 1056]);
    cache.fill("small", value(0)); // 56 bytes: fits beside the 7 without evicting any
    expect([cache.size, cache.bytes, cache.get("k1") !== undefined]).toEqual([8, 7 * 1056 + 56, true]);
  });

  test("a value above an eighth of the byte budget is handed back unfrozen and not cached", () => {
    const cache = new ReadCache(100, 8 * 1056);
    cache.fill("a", { s: "x".repeat(500) });
    const big = { s: "x".repeat(501) };
    expect(cache.fill("big", big)).toBe(big);
    expect([cache.get("big"), Object.isFrozen(big), cache.get("a") !== undefined, cache.size]).toEqual([undefined, false, true, 1]);
    expect(() => new ReadCache(10, -1)).toThrow(RangeError);
  });
});

test("GraphStore: reading records larger than the cache's byte budget keeps its bytes within it (a client read the server out of memory)", async () => {
  const dir = tempDir();
  const store = GraphStore.open({ path: dir, schema, cacheBytes: 2 ** 20 });
  try {
    const names = Array.from({ length: 40 }, (_, i) => String.fromCharCode(97 + (i % 26)).repeat(50_000) + i);
    const ids = await store.write((db) => names.map((name) => db.addNode("User", { name }).id));
    for (let round = 0; round < 2; round++) {
      for (const [i, id] of ids.entries()) expect(store.read((db) => db.nodeById("User", id).name)).toBe(names[i]);
      // 40 records of ~100 KB estimated each: about ten fit in 1 MiB.
      expect(store.cachedBytes).toBeLessThanOrEqual(2 ** 20);
      expect([store.cachedEntries > 0, store.cachedEntries < 12]).toEqual([true, true]);
    }
  } finally {
    await store.close();
    removeDir(dir);
  }
});

describe("GraphStore reads through the cache", () => {
  let store: GraphStore;
  let cleanup: () => Promise<void>;
  beforeEach(() => {
    ({ store, cleanup } = openTempStore());
  });
  afterEach(async () => {
    await cleanup();
  });

  test("an acknowledged update is what the next read returns, for records and adjacency", async () => {
    const [a, b, c] = await store.write((db) => [
      db.addNode("User", { name: "a" }),
      db.addNode("User", { name: "b" }),
      db.addNode("User", { name: "c" }),
    ]);
    await store.write((db) => db.addEdge("Follows", {}, a!.id, b!.id));
    // Warm the cache with the current record and neighbourhood.
    expect(store.read((db) => db.out([db.nodeById("User", a!.id)], "Follows").map((n) => n.name))).toEqual(["b"]);
    await store.write((db) => db.updateNodes([db.nodeById("User", b!.id)], { name: "b2" }));
    await store.write((db) => db.addEdge("Follows", {}, a!.id, c!.id));
    expect(store.read((db) => db.out([db.nodeById("User", a!.id)], "Follows").map((n) => n.name))).toEqual(["b2", "c"]);
    expect(store.read((db) => db.nodeById("User", b!.id).name)).toBe("b2");
  });

  test("a cached record is found only under its own label", async () => {
    const a = await store.write((db) => db.addNode("User", { name: "a" }));
    expect(store.read((db) => db.nodeById("User", a.id).name)).toBe("a"); // now cached
    for (const lookup of [(db: QueryContext) => db.nodeById("Post", a.id), (db: QueryContext) => db.edgeById("Follows", a.id)]) {
      let code = "";
      try {
        store.read(lookup);
      } catch (e) {
        code = (e as StrandError).code;
      }
      expect(code).toBe("NOT_FOUND");
    }
  });

  test("a failed write leaves reads on the old value", async () => {
    const a = await store.write((db) => db.addNode("User", { name: "a" }));
    expect(store.read((db) => db.nodeById("User", a.id).name)).toBe("a");
    await expect(
      store.write((db) => {
        db.updateNodes([db.nodeById("User", a.id)], { name: "never" });
        throw new Error("abort");
      }),
    ).rejects.toThrow("abort");
    expect(store.read((db) => db.nodeById("User", a.id).name)).toBe("a");
  });

  test("records handed to queries are frozen: in-place changes fail instead of leaking to others", async () => {
    const a = await store.write((db) => db.addNode("User", { name: "a", tags: ["x"] }));
    const first = store.read((db) => db.nodeById("User", a.id));
    const second = store.read((db) => db.nodeById("User", a.id));
    expect(second).toBe(first);
    expect(() => {
      (first as NodeItem).name = "changed";
    }).toThrow(TypeError);
    expect(store.read((db) => db.nodeById("User", a.id))).toEqual({ ...a });
  });

  test("interleaved writers and readers: reads never go backwards and always include every acknowledged write", async () => {
    const counter = await store.write((db) => db.addNode("User", { name: "n", age: 0 }));
    let acknowledged = 0;
    let lastSeen = 0;
    const writes: Promise<void>[] = [];
    for (let i = 1; i <= 60; i++) {
      writes.push(
        store
          .write((db) => {
            const current = db.nodeById("User", counter.id);
            db.updateNodes([current], { age: (current.age as number) + 1 });
          })
          .then(() => {
            acknowledged = Math.max(acknowledged, i);
          }),
      );
      // Read between enqueuing writes and while earlier ones commit.
      for (let r = 0; r < 3; r++) {
        await new Promise((resolve) => setImmediate(resolve));
        const seen = store.read((db) => db.nodeById("User", counter.id).age as number);
        expect(seen).toBeGreaterThanOrEqual(lastSeen);
        expect(seen).toBeGreaterThanOrEqual(acknowledged);
        lastSeen = seen;
      }
    }
    await Promise.all(writes);
    expect(store.read((db) => db.nodeById("User", counter.id).age)).toBe(60);
  });
});
