// DROP at the store level: what a dropped node or edge takes with it, checked against the exact
// on-disk state the layout invariants (store/keys.ts, adjacency/lists.ts) require.
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { seededRandom as rng } from "../bench/random.js";
import type { StrandError } from "../core/errors.js";
import type { EdgeItem, NodeItem, Props } from "../core/items.js";
import type { QueryContext } from "../core/query-context.js";
import { CHUNK, listKey } from "../runtime/adjacency/lists.js";
import { GraphStore } from "../runtime/graph-store.js";
import { openTempStore, removeDir, tempDir } from "./support/store-fixtures.js";
import { vectorSchema } from "./support/vector-fixtures.js";
import { dumpStore, expectedDump, staleCacheEntries } from "./support/store-dump.js";

async function rejection(p: Promise<unknown>): Promise<StrandError> {
  try {
    await p;
  } catch (e) {
    return e as StrandError;
  }
  throw new Error("expected a rejection");
}

const ids = (xs: ReadonlyArray<{ id: string }>) => xs.map((x) => x.id);

let store: GraphStore;
let cleanup: () => Promise<void>;
beforeEach(() => {
  ({ store, cleanup } = openTempStore());
});
afterEach(async () => {
  await cleanup();
});
const w = <T>(fn: (db: QueryContext) => T) => store.write(fn);
const r = <T>(fn: (db: QueryContext) => T) => store.read(fn);

/** What the store must hold: the live records, tracked by the test. */
class Live {
  readonly nodes = new Map<string, NodeItem>();
  readonly edges = new Map<string, EdgeItem>();
  add<T extends NodeItem>(x: T): T {
    if ("from_node" in x) this.edges.set(x.id, x as unknown as EdgeItem);
    else this.nodes.set(x.id, x);
    return x;
  }
  clone(): Live {
    const copy = new Live();
    for (const [id, x] of this.nodes) copy.nodes.set(id, x);
    for (const [id, x] of this.edges) copy.edges.set(id, x);
    return copy;
  }
  /** A node takes its incident edges with it; an item already gone is a no-op. */
  drop(x: NodeItem): void {
    if (this.edges.delete(x.id)) return;
    this.nodes.delete(x.id);
    for (const e of [...this.edges.values()]) if (e.from_node === x.id || e.to_node === x.id) this.edges.delete(e.id);
  }
  /** The most entries any one adjacency list holds. */
  longestList(): number {
    const counts = new Map<string, number>();
    for (const e of this.edges.values()) {
      for (const key of [`o${e.from_node}${e.label}`, `i${e.to_node}${e.label}`]) counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return Math.max(0, ...counts.values());
  }
  expectExact(): void {
    expect(dumpStore(store)).toEqual(expectedDump(store, this.nodes.values(), this.edges.values()));
  }
}

describe("DROP of a node", () => {
  test("takes every incident edge of every label in both directions, self-loops and parallel edges, and nothing else", async () => {
    const live = new Live();
    const g = await w((db) => {
      const a = live.add(db.addNode("User", { name: "a", email: "a@x", age: 30 }));
      const b = live.add(db.addNode("User", { name: "b", email: "b@x", age: 30 }));
      const c = live.add(db.addNode("User", { name: "c", age: 20 }));
      const p = live.add(db.addNode("Post", { title: "t" }));
      live.add(db.addEdge("Follows", { since: "2024-01-01" }, a.id, b.id));
      live.add(db.addEdge("Follows", {}, b.id, a.id));
      live.add(db.addEdge("Follows", {}, b.id, c.id));
      live.add(db.addEdge("Follows", {}, a.id, a.id)); // self-loop: in both of a's lists
      live.add(db.addEdge("Knows", { code: "k1" }, a.id, c.id));
      live.add(db.addEdge("Knows", { code: "k2" }, a.id, c.id)); // parallel
      live.add(db.addEdge("Knows", {}, c.id, a.id));
      live.add(db.addEdge("Knows", { code: "k3" }, c.id, b.id));
      live.add(db.addEdge("Wrote", {}, a.id, p.id));
      live.add(db.addEdge("Wrote", {}, b.id, p.id));
      return { a, b, c, p };
    });
    live.expectExact();

    await w((db) => db.drop([db.nodeById("User", g.a.id)]));
    live.drop(g.a);
    live.expectExact();
    expect(Object.keys(dumpStore(store).out).filter((key) => key.includes(g.a.id))).toEqual([]);
    expect(Object.keys(dumpStore(store).in).filter((key) => key.includes(g.a.id))).toEqual([]);

    r((db) => {
      expect(ids(db.nodesByLabel("User"))).toEqual([g.b.id, g.c.id]);
      expect(db.edgesByLabel("Follows").map((e) => [e.from_node, e.to_node])).toEqual([[g.b.id, g.c.id]]);
      expect(db.edgesByLabel("Knows").map((e) => [e.from_node, e.to_node, e.code])).toEqual([[g.c.id, g.b.id, "k3"]]);
      expect(ids(db.in([g.p], "Wrote"))).toEqual([g.b.id]);
      expect(db.out([g.b], "Follows").map((n) => n.name)).toEqual(["c"]);
      expect(db.in([g.b], "Follows")).toEqual([]);
      expect(db.out([g.c], "Knows").map((n) => n.name)).toEqual(["b"]);
      expect(db.in([g.c], "Knows")).toEqual([]);
      // Index lookups no longer find it.
      expect(db.nodesByIndex("User", "email", "a@x")).toEqual([]);
      expect(ids(db.nodesByIndex("User", "age", 30))).toEqual([g.b.id]);
    });
    let code = "";
    try {
      r((db) => db.nodeById("User", g.a.id));
    } catch (e) {
      code = (e as StrandError).code;
    }
    expect(code).toBe("NOT_FOUND");
  });

  test("UNIQUE INDEX values of the node and of its edges are free again, in the same transaction too", async () => {
    const [a, b] = await w((db) => [db.addNode("User", { email: "a@x" }), db.addNode("User", { email: "b@x" })]);
    await w((db) => db.addEdge("Knows", { code: "k" }, a!.id, b!.id));
    expect((await rejection(w((db) => db.addNode("User", { email: "a@x" })))).code).toBe("UNIQUE_VIOLATION");
    const again = await w((db) => {
      db.drop([a!]);
      return [db.addNode("User", { email: "a@x" }), db.addEdge("Knows", { code: "k" }, b!.id, b!.id)] as const;
    });
    expect(r((db) => ids(db.nodesByIndex("User", "email", "a@x")))).toEqual([again[0].id]);
    expect(r((db) => db.edgesByLabel("Knows"))).toEqual([again[1]]);
  });

  test(`high degree: a hub with ${3 * CHUNK + 10} edges, its neighbours' lists, then the hub`, async () => {
    const live = new Live();
    const n = 3 * CHUNK + 10;
    const hub = live.add(await w((db) => db.addNode("User", { name: "hub" })));
    const leaves: NodeItem[] = [];
    // Two transactions, so chunks are sealed across commits as well as within one.
    for (let half = 0; half < 2; half++) {
      await w((db) => {
        for (let i = 0; i < n / 2; i++) {
          const leaf = live.add(db.addNode("User", { name: `l${leaves.length}` }));
          leaves.push(leaf);
          live.add(db.addEdge("Knows", {}, hub.id, leaf.id));
          if (leaves.length % 3 === 0) live.add(db.addEdge("Follows", {}, leaf.id, hub.id));
        }
      });
    }
    live.expectExact();
    // Leaves whose hub entries sit in the middle of chunk 0, at both ends of chunk 1, in the tail.
    const doomed = [5, CHUNK, CHUNK + 1, 2 * CHUNK - 1, 3 * CHUNK + 4].map((i) => leaves[i]!);
    await w((db) => db.drop(doomed));
    for (const d of doomed) live.drop(d);
    live.expectExact();
    const rest = leaves.filter((l) => !doomed.includes(l));
    expect(r((db) => ids(db.out([hub], "Knows")))).toEqual(ids(rest));
    // Exactly 2 * CHUNK left: the third chunk key goes, the tail is empty behind two chunks.
    const more = rest.slice(0, rest.length - 2 * CHUNK);
    await w((db) => db.drop(more));
    for (const d of more) live.drop(d);
    live.expectExact();
    expect(r((db) => ids(db.out([hub], "Knows")))).toEqual(ids(rest.slice(rest.length - 2 * CHUNK)));
    expect(dumpStore(store).out[Buffer.from(listKey(hub.id, "Knows")).toString("hex")]).toBe("02000000"); // 2 sealed chunks (u32 LE), no tail entries
    await w((db) => db.drop([hub]));
    live.drop(hub);
    live.expectExact();
    expect(r((db) => db.edgesByLabel("Knows").length + db.edgesByLabel("Follows").length)).toBe(0);
    expect(r((db) => db.in(rest, "Knows"))).toEqual([]);
  });
});

describe("DROP of edges", () => {
  test("removes the record, both adjacency entries, the E::T UNIQUE claim and index entries; endpoints stay", async () => {
    const live = new Live();
    const [a, b] = await w((db) => [live.add(db.addNode("User", { name: "a" })), live.add(db.addNode("User", { name: "b" }))]);
    const [f1, f2, k1, k2] = await w((db) => [
      live.add(db.addEdge("Follows", {}, a!.id, b!.id)),
      live.add(db.addEdge("Follows", {}, b!.id, a!.id)),
      live.add(db.addEdge("Knows", { code: "c1" }, a!.id, b!.id)),
      live.add(db.addEdge("Knows", { code: "c2" }, a!.id, b!.id)),
    ]);
    await w((db) => db.drop([f1!, k1!]));
    live.drop(f1!);
    live.drop(k1!);
    live.expectExact();
    expect(r((db) => ids(db.outE([a!], "Knows")))).toEqual([k2!.id]);
    expect(r((db) => ids(db.inE([a!], "Follows")))).toEqual([f2!.id]);
    expect(r((db) => db.out([a!], "Follows"))).toEqual([]);
    // The (from, to) pair of a UNIQUE edge type and the unique field value are reusable.
    const f3 = await w((db) => db.addEdge("Follows", {}, a!.id, b!.id));
    const k3 = await w((db) => db.addEdge("Knows", { code: "c1" }, b!.id, a!.id));
    expect(r((db) => db.edgeById("Follows", f3.id))).toEqual(f3);
    expect(r((db) => db.edgeById("Knows", k3.id))).toEqual(k3);
    expect((await rejection(w((db) => db.addEdge("Follows", {}, a!.id, b!.id)))).code).toBe("UNIQUE_VIOLATION");
  });

  test("E::T UNIQUE pair is reusable after its edge is dropped in the same transaction", async () => {
    const [a, b] = await w((db) => [db.addNode("User", {}), db.addNode("User", {})]);
    const e = await w((db) => db.addEdge("Follows", { weight: 2 }, a!.id, b!.id));
    const e2 = await w((db) => {
      db.drop([e]);
      return db.addEdge("Follows", { weight: 3 }, a!.id, b!.id);
    });
    expect(r((db) => db.outE([a!], "Follows"))).toEqual([e2]);
  });

  test("an item listed twice, or already gone, is a no-op; a node and its edge in one call", async () => {
    const live = new Live();
    const [a, b] = await w((db) => [live.add(db.addNode("User", { name: "a" })), live.add(db.addNode("User", { name: "b" }))]);
    const e = live.add(await w((db) => db.addEdge("Knows", {}, a!.id, b!.id)));
    const f = live.add(await w((db) => db.addEdge("Knows", {}, b!.id, a!.id)));
    await w((db) => db.drop([e, e, a!, e, a!, f]));
    live.drop(a!);
    live.expectExact();
    await w((db) => db.drop([e, a!, f]));
    live.expectExact();
    expect(r((db) => db.nodesByLabel("User"))).toEqual([b]);
  });

  test("a DROP in a failing write leaves everything as it was", async () => {
    const live = new Live();
    const [a, b] = await w((db) => [live.add(db.addNode("User", { email: "a@x" })), live.add(db.addNode("User", {}))]);
    live.add(await w((db) => db.addEdge("Follows", {}, a!.id, b!.id)));
    expect(r((db) => ids(db.in([b!], "Follows")))).toEqual([a!.id]); // cached
    await expect(
      w((db) => {
        db.drop([a!]);
        throw new Error("abort");
      }),
    ).rejects.toThrow("abort");
    live.expectExact();
    expect(r((db) => ids(db.in([b!], "Follows")))).toEqual([a!.id]);
    expect(r((db) => db.nodeById("User", a!.id))).toEqual(a);
  });

  test("drop is refused in a read transaction", () => {
    expect(() => r((db) => db.drop([]))).toThrow(/read transaction/);
  });
});

describe("DROP and the read cache", () => {
  test("read, drop, read again: records and both endpoints' lists", async () => {
    const [a, b, c] = await w((db) => [
      db.addNode("User", { name: "a" }),
      db.addNode("User", { name: "b" }),
      db.addNode("User", { name: "c" }),
    ]);
    const [ab, cb] = await w((db) => [db.addEdge("Knows", {}, a!.id, b!.id), db.addEdge("Knows", {}, c!.id, b!.id)]);
    const warm = () =>
      r((db) => [
        db.in([db.nodeById("User", b!.id)], "Knows").map((x) => x.name),
        db.out([a!], "Knows").map((x) => x.name),
        db.outE([c!], "Knows").map((x) => x.id),
      ]);
    expect(warm()).toEqual([["a", "c"], ["b"], [cb!.id]]);
    await w((db) => db.drop([ab!]));
    expect(staleCacheEntries(store)).toEqual([]);
    expect(warm()).toEqual([["c"], [], [cb!.id]]);
    expect(() => r((db) => db.edgeById("Knows", ab!.id))).toThrow(/not found/);
    await w((db) => db.drop([c!]));
    expect(staleCacheEntries(store)).toEqual([]);
    expect(warm()).toEqual([[], [], []]);
    expect(staleCacheEntries(store)).toEqual([]);
    expect(() => r((db) => db.nodeById("User", c!.id))).toThrow(/not found/);
  });

  test("a reader on the snapshot before the drop cannot leave the old state in the cache", async () => {
    const [a, b] = await w((db) => [db.addNode("User", { name: "a" }), db.addNode("User", { name: "b" })]);
    await w((db) => db.addEdge("Knows", {}, a!.id, b!.id));
    const pending = w((db) => db.drop([a!]));
    // Same tick: the drop has run (its keys are pending) but is not committed.
    expect(r((db) => [db.nodeById("User", a!.id).name, db.in([b!], "Knows").length])).toEqual(["a", 1]);
    await pending;
    expect(staleCacheEntries(store)).toEqual([]);
    expect(r((db) => db.in([b!], "Knows"))).toEqual([]);
    expect(() => r((db) => db.nodeById("User", a!.id))).toThrow(/not found/);
  });
});

// ---- property test: random adds, updates and drops against the model, exact state at the end

describe("property: drops keep the store equal to a model", () => {
  test.each([11, 12, 13, 14])("seed %i", async (seed) => {
    const rand = rng(seed);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
    let live = new Live();
    // Two hubs that only the final drop removes: their lists grow across chunk boundaries.
    const hubs = await w((db) => [live.add(db.addNode("User", { name: "hub0" })), live.add(db.addNode("User", { name: "hub1" }))]);
    const graveyard: NodeItem[] = []; // dropped items, dropped again now and then
    let drops = 0;
    let longest = 0;
    for (let step = 0; step < 80; step++) {
      const fail = rand() < 0.15;
      // Warm the cache with records and lists the write may change.
      r((db) => {
        const all = [...live.nodes.values()];
        for (const x of [...hubs, ...all.filter(() => rand() < 0.3)]) {
          for (const label of ["Knows", "Follows", "Wrote"]) db.inE(db.in(db.outE(db.out([x], label), label), label), label);
        }
      });
      let m = live;
      try {
        await w((db) => {
          m = live.clone();
          const ops = 1 + Math.floor(rand() * 16);
          for (let k = 0; k < ops; k++) {
            const op = rand();
            const us = [...m.nodes.values()].filter((x) => x.label === "User");
            const ps = [...m.nodes.values()].filter((x) => x.label === "Post");
            if (op < 0.2 || us.length < 4) {
              if (rand() < 0.8) {
                const props: Props = { name: `u${step}.${k}`, age: Math.floor(rand() * 3) };
                if (rand() < 0.3) props.email = `e${step}.${k}`;
                m.add(db.addNode("User", props));
              } else {
                m.add(db.addNode("Post", { title: pick(["a", "b"]) }));
              }
            } else if (op < 0.75) {
              const from = rand() < 0.7 ? hubs[0]! : pick(us);
              const to = rand() < 0.7 ? hubs[1]! : pick(us);
              const kind = rand();
              if (kind < 0.15 && ps.length > 0) {
                m.add(db.addEdge("Wrote", {}, from.id, pick(ps).id));
              } else if (kind < 0.3) {
                const taken = [...m.edges.values()].some((e) => e.label === "Follows" && e.from_node === from.id && e.to_node === to.id);
                if (!taken) m.add(db.addEdge("Follows", {}, from.id, to.id));
              } else {
                m.add(db.addEdge("Knows", rand() < 0.2 ? { code: `c${step}.${k}` } : {}, from.id, to.id));
              }
            } else if (op < 0.83) {
              const [next] = db.updateNodes([pick(us)], { age: Math.floor(rand() * 3) });
              m.nodes.set(next!.id, next!);
            } else {
              // A few nodes and edges, sometimes one twice or one dropped earlier.
              const edges = [...m.edges.values()];
              const victims: NodeItem[] = [];
              for (let v = 1 + Math.floor(rand() * 3); v > 0; v--) {
                const which = rand();
                if (which < 0.1 && graveyard.length > 0) victims.push(pick(graveyard));
                else if (which < 0.45 || edges.length === 0)
                  victims.push(pick([...us, ...ps].filter((x) => !hubs.some((h) => h.id === x.id))));
                else victims.push(pick(edges));
                if (rand() < 0.1) victims.push(victims[victims.length - 1]!);
              }
              db.drop(victims);
              for (const x of victims) m.drop(x);
              graveyard.push(...victims);
              drops += victims.length;
            }
          }
          if (fail) throw new Error("planned failure");
        });
        live = m;
        longest = Math.max(longest, live.longestList());
      } catch (e) {
        expect((e as Error).message).toBe("planned failure");
      }
      expect(staleCacheEntries(store)).toEqual([]);
    }
    // The run must have exercised drops, and lists of several chunks.
    expect(drops).toBeGreaterThan(20);
    expect(longest).toBeGreaterThan(2 * CHUNK);
    live.expectExact();
    await w((db) => db.drop(hubs));
    for (const h of hubs) live.drop(h);
    live.expectExact();
  });
});

describe("DROP of a vector", () => {
  test("takes its edges, index entries and HNSW slot: search no longer returns it, its slug is free", async () => {
    const dir = tempDir("strand-drop-vec-");
    const vstore = GraphStore.open({ path: dir, schema: vectorSchema });
    try {
      const live = new Live();
      const g = await vstore.write((db) => {
        const author = live.add(db.addNode("Author", { name: "ann" }));
        const a = live.add(db.addVector("Doc", [1, 0, 0], { title: "a", topic: "t", slug: "s-a" }));
        const b = live.add(db.addVector("Doc", [0, 1, 0], { title: "b", topic: "t", slug: "s-b" }));
        const chunk = live.add(db.addVector("Chunk", [0.5, 0.5], { text: "x" }));
        live.add(db.addEdge("Wrote", {}, author.id, a.id));
        live.add(db.addEdge("Cites", {}, a.id, b.id));
        live.add(db.addEdge("Cites", {}, b.id, a.id));
        live.add(db.addEdge("HasChunk", {}, a.id, chunk.id));
        return { author, a, b, chunk };
      });
      expect(vstore.read((db) => ids(db.searchVectors("Doc", [1, 0, 0], 2)))).toEqual([g.a.id, g.b.id]);
      await vstore.write((db) => db.drop([g.a, g.a]));
      live.drop(g.a);
      expect(dumpStore(vstore)).toEqual(expectedDump(vstore, live.nodes.values(), live.edges.values()));
      vstore.read((db) => {
        expect(ids(db.searchVectors("Doc", [1, 0, 0], 2))).toEqual([g.b.id]);
        expect(db.out([g.author], "Wrote")).toEqual([]);
        expect(db.in([g.b], "Cites")).toEqual([]);
        expect(db.nodesByIndex("Doc", "slug", "s-a")).toEqual([]);
        expect(ids(db.nodesByIndex("Doc", "topic", "t"))).toEqual([g.b.id]);
        expect(ids(db.vectorsByLabel("Chunk"))).toEqual([g.chunk.id]);
      });
      const again = await vstore.write((db) => db.addVector("Doc", [1, 0, 0], { slug: "s-a" }));
      expect(vstore.read((db) => ids(db.searchVectors("Doc", [1, 0, 0], 1)))).toEqual([again.id]);
    } finally {
      await vstore.close();
      removeDir(dir);
    }
  });
});
