import fs from "node:fs";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { seededRandom as rng } from "../bench/random.js";
import { StrandError } from "../core/errors.js";
import { isUuid, uuidv7, uuidv7Time } from "../runtime/store/ids.js";
import type { EdgeItem, NodeItem, Props } from "../core/items.js";
import type { QueryContext } from "../core/query-context.js";
import { CHUNK } from "../runtime/adjacency/lists.js";
import type { StoreDbs } from "../runtime/store/dbs.js";
import { openStoreReadOnly } from "../runtime/store/read-only.js";
import { GraphStore } from "../runtime/graph-store.js";
import { openTempStore, removeDir, schema, tempDir } from "./support/store-fixtures.js";
import { httpStatus } from "../server/http/status.js";

async function rejection(p: Promise<unknown>): Promise<StrandError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof StrandError) return e;
    throw e;
  }
  throw new Error("expected a StrandError");
}

function thrown(fn: () => unknown): StrandError {
  try {
    fn();
  } catch (e) {
    if (e instanceof StrandError) return e;
    throw e;
  }
  throw new Error("expected a StrandError");
}

describe("ids", () => {
  test("UUID v7 layout, monotonic within a millisecond", () => {
    // The timestamp is read right around the first id (the checks below take seconds under load).
    const t0 = Date.now();
    const ids = [uuidv7()];
    const t1 = Date.now();
    for (let i = 1; i < 10000; i++) ids.push(uuidv7());
    for (const id of ids) {
      expect(isUuid(id)).toBe(true);
      expect(id[14]).toBe("7");
      expect("89ab").toContain(id[19]);
      expect(id).toBe(id.toLowerCase());
    }
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    // Not before the clock; ahead of it only by what a counter overflow in this process added.
    expect(uuidv7Time(ids[0]!)).toBeGreaterThanOrEqual(t0);
    expect(uuidv7Time(ids[0]!)).toBeLessThanOrEqual(t1 + 1000);
  });
  test("isUuid", () => {
    expect(isUuid("0190A2B4-1234-7ABC-8DEF-0123456789AB")).toBe(true);
    expect(isUuid("0190a2b4-1234-7abc-8def-0123456789a")).toBe(false);
    expect(isUuid(42)).toBe(false);
  });
});

describe("GraphStore", () => {
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

  test("records: member order, defaults, omitted absent fields", async () => {
    const before = new Date().toISOString();
    const u = await w((db) => db.addNode("User", { tags: ["x"], age: 30, name: "Ann" }));
    expect(Object.keys(u)).toEqual(["id", "label", "name", "age", "active", "created", "tags"]);
    expect(u.label).toBe("User");
    expect(u.active).toBe(true);
    expect(u.created! >= before && u.created! <= new Date().toISOString()).toBe(true);
    const v = await w((db) => db.addNode("User", { name: "Bob", active: false, created: "2020-01-01" }));
    expect(v.active).toBe(false);
    expect(v.created).toBe("2020-01-01T00:00:00.000Z");
    const e = await w((db) => db.addEdge("Follows", { since: "2021-05-05T00:00:00+01:00" }, u.id, v.id));
    expect(Object.keys(e)).toEqual(["id", "label", "from_node", "to_node", "weight", "since"]);
    expect(e).toMatchObject({ from_node: u.id, to_node: v.id, weight: 1, since: "2021-05-04T23:00:00.000Z" });
    // What a write returned is exactly what a later read returns.
    expect(r((db) => db.nodeById("User", u.id))).toEqual(u);
    expect(r((db) => db.edgeById("Follows", e.id))).toEqual(e);
    expect(Object.keys(r((db) => db.nodeById("User", u.id)))).toEqual(Object.keys(u));
  });

  test("null / undefined props count as absent", async () => {
    const u = await w((db) => db.addNode("User", { name: null, age: undefined as never }));
    expect("name" in u).toBe(false);
    expect("age" in u).toBe(false);
  });

  test("schema validation of writes", async () => {
    let e = await rejection(w((db) => db.addNode("User", { nick: "x" })));
    expect(e.code).toBe("INVALID_VALUE");
    expect(e.message).toContain("'nick'");
    expect(e.message).toContain("name, email, age, active, created, tags, address");
    e = await rejection(w((db) => db.addNode("User", { age: 256 })));
    expect(e.code).toBe("INVALID_VALUE");
    expect(e.message).toBe("property 'User.age' must be an integer between 0 and 255 (U8), got 256");
    e = await rejection(w((db) => db.addNode("User", { address: { town: "x" } })));
    expect(e.code).toBe("INVALID_VALUE");
    const u = await w((db) => db.addNode("User", { address: { city: "Oslo" } }));
    e = await rejection(w((db) => db.updateNodes([u], { age: -1 })));
    expect(e.code).toBe("INVALID_VALUE");
    e = await rejection(w((db) => db.addEdge("Follows", { weight: "heavy" }, u.id, u.id)));
    expect(e.code).toBe("INVALID_VALUE");
  });

  test("lookups: wrong label, unknown or malformed id → NOT_FOUND", async () => {
    const u = await w((db) => db.addNode("User", { name: "a" }));
    const p = await w((db) => db.addNode("Post", { title: "t" }));
    for (const [label, id] of [
      ["Post", u.id],
      ["User", p.id],
      ["User", uuidv7()],
      ["User", "nope"],
      ["User", "x".repeat(5000)],
    ] as const) {
      const e = thrown(() => r((db) => db.nodeById(label, id)));
      expect(e.code).toBe("NOT_FOUND");
      expect(httpStatus(e.code)).toBe(404);
    }
    expect(thrown(() => r((db) => db.edgeById("Follows", u.id))).code).toBe("NOT_FOUND");
    expect(r((db) => db.nodeById("Post", p.id))).toEqual(p);
  });

  test("addEdge endpoints: NOT_FOUND and EDGE_TYPE_MISMATCH", async () => {
    const u = await w((db) => db.addNode("User", {}));
    const p = await w((db) => db.addNode("Post", {}));
    const missing = uuidv7();
    let e = await rejection(w((db) => db.addEdge("Wrote", {}, missing, p.id)));
    expect([e.code, httpStatus(e.code)]).toEqual(["NOT_FOUND", 404]);
    expect(e.message).toContain(missing);
    e = await rejection(w((db) => db.addEdge("Wrote", {}, u.id, "garbage")));
    expect(e.code).toBe("NOT_FOUND");
    e = await rejection(w((db) => db.addEdge("Wrote", {}, u.id, u.id)));
    expect([e.code, httpStatus(e.code)]).toEqual(["EDGE_TYPE_MISMATCH", 400]);
    expect(e.message).toContain("Post");
    expect(e.message).toContain("User");
    e = await rejection(w((db) => db.addEdge("Wrote", {}, p.id, p.id)));
    expect(e.code).toBe("EDGE_TYPE_MISMATCH");
    expect(r((db) => db.edgesByLabel("Wrote"))).toEqual([]);
  });

  test("UNIQUE INDEX: add and update, index kept in step", async () => {
    const a = await w((db) => db.addNode("User", { name: "a", email: "a@x" }));
    let e = await rejection(w((db) => db.addNode("User", { name: "b", email: "a@x" })));
    expect([e.code, httpStatus(e.code)]).toEqual(["UNIQUE_VIOLATION", 409]);
    expect(e.message).toContain("User");
    expect(e.message).toContain("email");
    expect(e.message).toContain("a@x");
    const b = await w((db) => db.addNode("User", { name: "b", email: "b@x" }));
    e = await rejection(w((db) => db.updateNodes([b], { email: "a@x" })));
    expect(e.code).toBe("UNIQUE_VIOLATION");
    // Same value on the same node is not a violation.
    await w((db) => db.updateNodes([a], { email: "a@x", name: "a2" }));
    // Move a's email; the old value is free again.
    await w((db) => db.updateNodes([a], { email: "new@x" }));
    expect(r((db) => db.nodesByIndex("User", "email", "a@x"))).toEqual([]);
    expect(r((db) => db.nodesByIndex("User", "email", "new@x")).map((n) => n.id)).toEqual([a.id]);
    const c = await w((db) => db.addNode("User", { email: "a@x" }));
    expect(r((db) => db.nodesByIndex("User", "email", "a@x")).map((n) => n.id)).toEqual([c.id]);
    // Unique fields on edges too.
    await w((db) => db.addEdge("Knows", { code: "k" }, a.id, b.id));
    e = await rejection(w((db) => db.addEdge("Knows", { code: "k" }, b.id, a.id)));
    expect(e.code).toBe("UNIQUE_VIOLATION");
  });

  test("INDEX: lookups in id order, absent values not indexed, updates move entries", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await w((db) => db.addNode("User", { age: i % 2 === 0 ? 20 : 30 }))).id);
    await w((db) => db.addNode("User", { name: "no age" }));
    expect(r((db) => db.nodesByIndex("User", "age", 20)).map((n) => n.id)).toEqual([ids[0], ids[2], ids[4]]);
    const n1 = r((db) => db.nodeById("User", ids[1]!));
    const [upd] = await w((db) => db.updateNodes([n1], { age: 20 }));
    expect(upd!.age).toBe(20);
    expect(r((db) => db.nodesByIndex("User", "age", 20)).map((n) => n.id)).toEqual([ids[0], ids[1], ids[2], ids[4]]);
    expect(r((db) => db.nodesByIndex("User", "age", 30)).map((n) => n.id)).toEqual([ids[3], ids[5]]);
    expect(r((db) => db.nodesByIndex("User", "age", 99))).toEqual([]);
    expect(r((db) => db.nodesByIndex("User", "age", "not a number"))).toEqual([]);
    // Long and odd strings are indexed too.
    const long = "x".repeat(3000);
    const p = await w((db) => db.addNode("Post", { title: long }));
    await w((db) => db.addNode("Post", { title: "\x01odd" }));
    expect(r((db) => db.nodesByIndex("Post", "title", long)).map((n) => n.id)).toEqual([p.id]);
    expect(r((db) => db.nodesByIndex("Post", "title", "\x01odd")).length).toBe(1);
  });

  test("E::T UNIQUE: one edge per (from, to)", async () => {
    const [a, b] = await w((db) => [db.addNode("User", {}), db.addNode("User", {})]);
    await w((db) => db.addEdge("Follows", {}, a!.id, b!.id));
    const e = await rejection(w((db) => db.addEdge("Follows", {}, a!.id, b!.id)));
    expect(e.code).toBe("UNIQUE_VIOLATION");
    await w((db) => db.addEdge("Follows", {}, b!.id, a!.id)); // the other direction is another pair
    await w((db) => db.addEdge("Knows", {}, a!.id, b!.id));
    await w((db) => db.addEdge("Knows", {}, a!.id, b!.id)); // Knows is not UNIQUE
    expect(r((db) => db.outE([a!], "Knows")).length).toBe(2);
  });

  test("updates change only the listed props and return full records", async () => {
    const u = await w((db) => db.addNode("User", { name: "a", age: 1, tags: ["t"] }));
    const [v] = await w((db) => db.updateNodes([u], { age: 2 }));
    expect(v).toEqual({ ...u, age: 2 });
    expect(Object.keys(v!)).toEqual(Object.keys(u));
    // Adding a field keeps declaration order.
    const [x] = await w((db) => db.updateNodes([v!], { email: "e@x" }));
    expect(Object.keys(x!)).toEqual(["id", "label", "name", "email", "age", "active", "created", "tags"]);
    // A stale item is re-read: earlier changes are kept.
    const [y] = await w((db) => db.updateNodes([u], { name: "b" }));
    expect(y).toMatchObject({ name: "b", age: 2, email: "e@x" });
    const e1 = await w((db) => db.addEdge("Follows", {}, u.id, u.id));
    const [e2] = await w((db) => db.updateEdges([e1], { weight: 5 }));
    expect(e2).toEqual({ ...e1, weight: 5 });
    expect(r((db) => db.edgeById("Follows", e1.id))).toEqual(e2);
    const ghost = { ...u, id: uuidv7() };
    expect((await rejection(w((db) => db.updateNodes([ghost], { age: 3 })))).code).toBe("NOT_FOUND");
  });

  test("a throwing write commits nothing; batched neighbours are unaffected", async () => {
    const ok1 = w((db) => db.addNode("User", { name: "ok1" }));
    const bad = w((db) => {
      db.addNode("User", { name: "bad", email: "bad@x" });
      db.addNode("Post", { title: "bad" });
      throw new Error("boom");
    });
    const bad2 = w((db) => {
      db.addNode("User", { name: "bad2" });
      return db.addEdge("Follows", {}, uuidv7(), uuidv7());
    });
    const ok2 = w((db) => db.addNode("User", { name: "ok2" }));
    const results = await Promise.allSettled([ok1, bad, bad2, ok2]);
    expect(results.map((x) => x.status)).toEqual(["fulfilled", "rejected", "rejected", "fulfilled"]);
    expect(((results[1] as PromiseRejectedResult).reason as Error).message).toBe("boom");
    expect(((results[2] as PromiseRejectedResult).reason as StrandError).code).toBe("NOT_FOUND");
    expect(r((db) => db.nodesByLabel("User")).map((n) => n.name)).toEqual(["ok1", "ok2"]);
    expect(r((db) => db.nodesByLabel("Post"))).toEqual([]);
    expect(r((db) => db.nodesByIndex("User", "email", "bad@x"))).toEqual([]);
    // The unique value from the rolled-back write is free.
    await w((db) => db.addNode("User", { email: "bad@x" }));
  });

  test("a write sees its own writes; reads see committed state only", async () => {
    const got = await w((db) => {
      const a = db.addNode("User", { name: "a" });
      const b = db.addNode("User", { name: "b" });
      db.addEdge("Follows", {}, a.id, b.id);
      return [db.nodesByLabel("User").length, db.out([a], "Follows").map((n) => n.name), db.nodeById("User", a.id).name];
    });
    expect(got).toEqual([2, ["b"], "a"]);
    expect(() => r((db) => db.addNode("User", {}))).toThrow(/read transaction/);
  });

  test("read returns one snapshot even while writes are queued", async () => {
    await w((db) => db.addNode("User", { name: "a" }));
    const pending = w((db) => db.addNode("User", { name: "b" }));
    const seen = r((db) => db.nodesByLabel("User").length);
    await pending;
    expect(seen).toBe(1);
    expect(r((db) => db.nodesByLabel("User").length)).toBe(2);
  });

  test("labels are separate ranges, results in creation order", async () => {
    await w((db) => {
      for (let i = 0; i < 50; i++) {
        db.addNode("User", { name: `u${i}` });
        db.addNode("Post", { title: `p${i}` });
        db.addNode("City", { name: `c${i}` });
      }
    });
    const users = r((db) => db.nodesByLabel("User"));
    expect(users.map((u) => u.name)).toEqual(Array.from({ length: 50 }, (_, i) => `u${i}`));
    expect(users.map((u) => u.id)).toEqual(users.map((u) => u.id).sort());
    expect(r((db) => db.nodesByLabel("Post")).every((p) => p.label === "Post")).toBe(true);
    expect(r((db) => db.edgesByLabel("Follows"))).toEqual([]);
  });

  test(`adjacency beyond one chunk (${CHUNK} entries) keeps creation order`, async () => {
    const hub = await w((db) => db.addNode("User", { name: "hub" }));
    const n = CHUNK * 3 + 5;
    const targets: NodeItem[] = [];
    const edges: EdgeItem[] = [];
    // Several transactions, so the tail is re-read and chunks are sealed across commits.
    for (let batch = 0; batch < 4; batch++) {
      await w((db) => {
        for (let i = 0; i < n / 4; i++) {
          const t = db.addNode("User", { name: `t${targets.length}` });
          targets.push(t);
          edges.push(db.addEdge("Knows", {}, hub.id, t.id));
        }
      });
    }
    expect(targets.length).toBeGreaterThan(CHUNK * 3);
    expect(r((db) => db.out([hub], "Knows")).map((x) => x.id)).toEqual(targets.map((t) => t.id));
    expect(r((db) => db.outE([hub], "Knows")).map((x) => x.id)).toEqual(edges.map((e) => e.id));
    expect(r((db) => db.in([targets[7]!], "Knows")).map((x) => x.id)).toEqual([hub.id]);
    expect(r((db) => db.inE(targets, "Knows")).map((x) => x.id)).toEqual(edges.map((e) => e.id));
  });

  test("data survives close and reopen", async () => {
    const u = await w((db) => db.addNode("User", { name: "persist", email: "p@x" }));
    const e = await w((db) => db.addEdge("Follows", {}, u.id, u.id));
    const dir = tempDir();
    try {
      const s1 = GraphStore.open({ path: dir, schema });
      const v = await s1.write((db) => db.addNode("User", { email: "q@x" }));
      await s1.close();
      const s2 = GraphStore.open({ path: dir, schema });
      expect(s2.read((db) => db.nodesByIndex("User", "email", "q@x"))).toEqual([v]);
      await s2.close();
    } finally {
      removeDir(dir);
    }
    expect(r((db) => db.outE([u], "Follows"))).toEqual([e]);
  });
});

// ---- property test: the store against a naive in-memory model

interface Model {
  nodes: Map<string, NodeItem>;
  edges: EdgeItem[];
}

describe("property: store matches a simple model", () => {
  test.each([1, 2, 3])("seed %i", async (seed) => {
    const { store, cleanup } = openTempStore();
    try {
      const rand = rng(seed);
      const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
      const model: Model = { nodes: new Map(), edges: [] };
      const labels = ["User", "Post"] as const;
      const edgeTypes = [
        { name: "Follows", from: "User", to: "User" },
        { name: "Knows", from: "User", to: "User" },
        { name: "Wrote", from: "User", to: "Post" },
      ];
      const ofLabel = (l: string) => [...model.nodes.values()].filter((n) => n.label === l);
      for (let step = 0; step < 60; step++) {
        // Each write request does a few ops; some requests fail on purpose and must leave no trace.
        const ops = Math.floor(rand() * 5) + 1;
        const failAt = rand() < 0.15 ? Math.floor(rand() * ops) : -1;
        const staged: Array<(m: Model) => void> = [];
        const planned: Array<(db: QueryContext) => void> = [];
        for (let k = 0; k < ops; k++) {
          const op = rand();
          if (k === failAt) {
            planned.push(() => {
              throw new Error("planned failure");
            });
          } else if (op < 0.4 || model.nodes.size < 2) {
            const label = pick(labels);
            const props: Props =
              label === "User" ? { name: `n${step}.${k}`, age: Math.floor(rand() * 4) } : { title: pick(["a", "b", "c"]) };
            planned.push((db) => {
              const n = db.addNode(label, props);
              staged.push((m) => m.nodes.set(n.id, n));
            });
          } else if (op < 0.8) {
            const et = pick(edgeTypes);
            const froms = ofLabel(et.from);
            const tos = ofLabel(et.to);
            if (froms.length === 0 || tos.length === 0) continue;
            const from = pick(froms).id;
            const to = pick(tos).id;
            const dup = et.name === "Follows" && model.edges.some((e) => e.label === "Follows" && e.from_node === from && e.to_node === to);
            if (dup) continue; // UNIQUE edge type: covered by unit tests
            planned.push((db) => {
              const e = db.addEdge(et.name, {}, from, to);
              staged.push((m) => m.edges.push(e));
            });
          } else {
            const users = ofLabel("User");
            if (users.length === 0) continue;
            const target = users.filter(() => rand() < 0.3);
            const age = Math.floor(rand() * 4);
            planned.push((db) => {
              const updated = db.updateNodes(target, { age });
              staged.push((m) => {
                for (const u of updated) m.nodes.set(u.id, u);
              });
            });
          }
        }
        try {
          await store.write((db) => {
            staged.length = 0;
            for (const p of planned) p(db);
          });
          for (const s of staged) s(model);
        } catch (e) {
          expect((e as Error).message).toBe("planned failure");
        }
      }

      const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
      const ids = (xs: Array<{ id: string }>) => xs.map((x) => x.id);
      store.read((db) => {
        for (const label of labels) expect(db.nodesByLabel(label)).toEqual(ofLabel(label).sort(byId));
        for (let age = 0; age < 4; age++) {
          expect(ids(db.nodesByIndex("User", "age", age))).toEqual(
            ids(
              ofLabel("User")
                .filter((u) => u.age === age)
                .sort(byId),
            ),
          );
        }
        for (const title of ["a", "b", "c"]) {
          expect(ids(db.nodesByIndex("Post", "title", title))).toEqual(
            ids(
              ofLabel("Post")
                .filter((p) => p.title === title)
                .sort(byId),
            ),
          );
        }
        for (const et of edgeTypes) {
          expect(db.edgesByLabel(et.name)).toEqual(model.edges.filter((e) => e.label === et.name).sort(byId));
        }
        for (const node of model.nodes.values()) {
          expect(db.nodeById(node.label, node.id)).toEqual(node);
          for (const et of edgeTypes) {
            const outs = model.edges.filter((e) => e.label === et.name && e.from_node === node.id).sort(byId);
            const ins = model.edges.filter((e) => e.label === et.name && e.to_node === node.id).sort(byId);
            expect(db.outE([node], et.name)).toEqual(outs);
            expect(db.inE([node], et.name)).toEqual(ins);
            expect(db.out([node], et.name)).toEqual(outs.map((e) => model.nodes.get(e.to_node)));
            expect(db.in([node], et.name)).toEqual(ins.map((e) => model.nodes.get(e.from_node)));
          }
        }
      });
    } finally {
      await cleanup();
    }
  });
});

describe("data directory", () => {
  test("a directory whose name contains a dot is a directory, and data survives reopening", async () => {
    const root = tempDir();
    const dir = `${root}/my.data`;
    fs.mkdirSync(dir); // as `mktemp -d` or a user would have made it
    try {
      const first = GraphStore.open({ path: dir, schema });
      const user = await first.write((db) => db.addNode("User", { name: "Dot" }));
      await first.close();
      const second = GraphStore.open({ path: dir, schema });
      expect(second.read((db) => db.nodeById("User", user.id))).toEqual(user);
      await second.close();
    } finally {
      removeDir(root);
    }
  });
});

describe("data directory lock", () => {
  test("a second store on the same directory is refused until the first closes", async () => {
    const dir = tempDir();
    try {
      const first = GraphStore.open({ path: dir, schema });
      expect(() => GraphStore.open({ path: dir, schema })).toThrow(`data directory ${dir} is in use by process ${process.pid}`);
      await first.close();
      const second = GraphStore.open({ path: dir, schema });
      await second.close();
    } finally {
      removeDir(dir);
    }
  });

  test("a pid left in the lock file by a process that is gone does not hold the directory", async () => {
    const dir = tempDir();
    try {
      // A pid far above any real one (Linux pid_max is at most 2^22): the file without a lock on it.
      fs.writeFileSync(`${dir}/strand.lock`, "99999999\n");
      const store = GraphStore.open({ path: dir, schema });
      expect(fs.readFileSync(`${dir}/strand.lock`, "utf8")).toBe(`${process.pid}\n`);
      await store.close();
      // Kept (never deleted, see dir-lock.ts), without a pid.
      expect(fs.readFileSync(`${dir}/strand.lock`, "utf8")).toBe("");
    } finally {
      removeDir(dir);
    }
  });

  test("openStoreReadOnly reads a store another store holds, and cannot write", async () => {
    const dir = tempDir();
    try {
      const store = GraphStore.open({ path: dir, schema });
      const user = await store.write((db) => db.addNode("User", { name: "Ada", email: "ada@x", age: 36 }));
      const reader = openStoreReadOnly(dir) as StoreDbs;
      expect([...reader.nodes.getRange()].map(({ value }) => value.id)).toEqual([user.id]);
      await expect((async () => reader.meta.put("x", 1))()).rejects.toThrow();
      await reader.env.close();
      await store.close();
      fs.mkdirSync(`${dir}/empty`);
      expect(openStoreReadOnly(`${dir}/empty`)).toBe(`${dir}/empty holds no Strand data (no data.mdb)`);
    } finally {
      removeDir(dir);
    }
  });
});
