import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { StrandError } from "../core/errors.js";
import { uuidv7 } from "../runtime/store/ids.js";
import type { EdgeItem, NodeItem, Path } from "../core/items.js";
import type { GraphStore } from "../runtime/graph-store.js";
import { openTempStore } from "./support/store-fixtures.js";
import { httpStatus } from "../server/http/status.js";

function thrown(fn: () => unknown): StrandError {
  try {
    fn();
  } catch (e) {
    if (e instanceof StrandError) return e;
    throw e;
  }
  throw new Error("expected a StrandError");
}

const names = (xs: readonly NodeItem[]) => xs.map((x) => x.name);
const pathNames = (ps: Path[]) => ps.map(([nodes]) => names(nodes).join(">"));

// a → b → d, a → c → d (weights make a→c→d cheaper), d → e; p is a Post written by a.
let store: GraphStore;
let cleanup: () => Promise<void>;
const n: Record<string, NodeItem> = {};
const e: Record<string, EdgeItem> = {};

beforeAll(async () => {
  ({ store, cleanup } = openTempStore());
  await store.write((db) => {
    for (const [name, age] of [
      ["a", 30],
      ["b", 20],
      ["c", 30],
      ["d", 20],
      ["e", 40],
      ["z", 50],
    ] as const) {
      n[name] = db.addNode("User", { name, age });
    }
    n.p = db.addNode("Post", { title: "hello", score: 2 });
    const f = (from: string, to: string, weight: number) => (e[from + to] = db.addEdge("Follows", { weight }, n[from]!.id, n[to]!.id));
    f("a", "b", 1);
    f("b", "d", 5);
    f("a", "c", 2);
    f("c", "d", 1);
    f("d", "e", 1);
    e.ap = db.addEdge("Wrote", {}, n.a!.id, n.p!.id);
  });
});

afterAll(async () => {
  await cleanup();
});

describe("graph steps", () => {
  test("out / in / outE / inE / fromN / toN", () => {
    store.read((db) => {
      expect(names(db.out([n.a!], "Follows"))).toEqual(["b", "c"]);
      expect(names(db.out(db.out([n.a!], "Follows"), "Follows"))).toEqual(["d", "d"]);
      expect(names(db.in([n.d!], "Follows"))).toEqual(["b", "c"]);
      expect(db.outE([n.a!], "Follows").map((x) => x.id)).toEqual([e.ab!.id, e.ac!.id]);
      expect(db.inE([n.d!, n.e!], "Follows").map((x) => x.id)).toEqual([e.bd!.id, e.cd!.id, e.de!.id]);
      expect(names(db.fromN(db.inE([n.d!], "Follows")))).toEqual(["b", "c"]);
      expect(names(db.toN(db.outE([n.a!], "Follows")))).toEqual(["b", "c"]);
      expect(db.out([n.a!], "Wrote").map((x) => x.title)).toEqual(["hello"]);
      expect(names(db.in([n.p!], "Wrote"))).toEqual(["a"]);
      expect(db.out([n.z!], "Follows")).toEqual([]);
      expect(db.out([], "Follows")).toEqual([]);
    });
  });

  test("outE / inE with a limit: the first edges in list order, across the items", () => {
    const ids = (edges: readonly { id: string }[]): string[] => edges.map((x) => x.id);
    const limited = (db: Parameters<Parameters<typeof store.read>[0]>[0]): string[][] => [
      ids(db.outE([n.a!], "Follows", 1)),
      ids(db.inE([n.d!, n.e!], "Follows", 2)),
      ids(db.inE([n.d!, n.e!], "Follows", 3)),
      ids(db.inE([n.d!, n.e!], "Follows", 10)),
      ids(db.outE([n.a!], "Follows", 0)),
    ];
    const expected = [[e.ab!.id], [e.bd!.id, e.cd!.id], [e.bd!.id, e.cd!.id, e.de!.id], [e.bd!.id, e.cd!.id, e.de!.id], []];
    // In a read and inside a write (no read cache there), alike.
    expect(store.read(limited)).toEqual(expected);
    return store.write((db) => expect(limited(db)).toEqual(expected));
  });
});

describe("shortestPath", () => {
  test("BFS: fewest hops, all equally short paths, To and From endpoints", () => {
    store.read((db) => {
      const to = db.shortestPath([n.a!], "Follows", { to: n.e!.id }, null);
      expect(pathNames(to)).toEqual(["a>b>d>e", "a>c>d>e"]);
      expect(to[0]![1].map((x) => x.id)).toEqual([e.ab!.id, e.bd!.id, e.de!.id]);
      // ::From(a) with sources d and e: paths from a to each source, concatenated.
      const from = db.shortestPath([n.d!, n.e!], "Follows", { from: n.a!.id }, null);
      expect(pathNames(from)).toEqual(["a>b>d", "a>c>d", "a>b>d>e", "a>c>d>e"]);
      expect(db.shortestPath([n.e!], "Follows", { to: n.a!.id }, null)).toEqual([]);
      expect(pathNames(db.shortestPath([n.a!], "Follows", { to: n.a!.id }, null))).toEqual(["a"]);
    });
  });
  test("Dijkstra over a weight function", () => {
    store.read((db) => {
      const ps = db.shortestPath([n.a!], "Follows", { to: n.e!.id }, (edge) => edge.weight!);
      expect(pathNames(ps)).toEqual(["a>c>d>e"]);
      expect(ps[0]![1].map((x) => x.weight)).toEqual([2, 1, 1]);
    });
  });
  test("INVALID_WEIGHT names the edge and value; unknown target is NOT_FOUND", () => {
    store.read((db) => {
      const bad = thrown(() => db.shortestPath([n.a!], "Follows", { to: n.e!.id }, (edge) => (edge.id === e.bd!.id ? -1 : 1)));
      expect([bad.code, httpStatus(bad.code)]).toEqual(["INVALID_WEIGHT", 400]);
      expect(bad.message).toContain(e.bd!.id);
      expect(bad.message).toContain("-1");
      expect(thrown(() => db.shortestPath([n.a!], "Follows", { to: n.e!.id }, () => "x")).code).toBe("INVALID_WEIGHT");
      expect(thrown(() => db.shortestPath([n.a!], "Follows", { to: n.e!.id }, () => Infinity)).code).toBe("INVALID_WEIGHT");
      expect(thrown(() => db.shortestPath([n.a!], "Follows", { to: uuidv7() }, null)).code).toBe("NOT_FOUND");
      expect(thrown(() => db.shortestPath([n.a!], "Follows", { to: n.p!.id }, null)).code).toBe("NOT_FOUND");
    });
  });
});

describe("sequence and value operations delegate to runtime/ops", () => {
  test("count, range, order, first, filter", () => {
    store.read((db) => {
      const users = db.nodesByLabel("User");
      expect(db.count(users)).toBe(6);
      expect(names(db.range(users, 1, 3))).toEqual(["b", "c"]);
      expect(thrown(() => db.range(users, -1, 2)).code).toBe("INVALID_VALUE");
      expect(names(db.order(users, (u) => db.prop(u, "age"), "desc"))[0]).toBe("z");
      expect(db.first(users)?.name).toBe("a");
      expect(db.first([])).toBeNull();
      expect(names(db.filter(users, (u) => db.compare("GTE", db.prop(u, "age"), 40)))).toEqual(["e", "z"]);
    });
  });
  test("groupBy and aggregateBy", () => {
    store.read((db) => {
      const users = db.nodesByLabel("User");
      const groups = db.groupBy(users, ["age"]);
      expect(groups.find((g) => g.age === 30)?.count).toBe(2);
      const agg = db.aggregateBy(users, ["age"]);
      expect(
        agg
          .find((g) => g.count === 2 && g.data.some((u) => u.name === "a"))
          ?.data.map((u) => u.name)
          .sort(),
      ).toEqual(["a", "c"]);
    });
  });
  test("prop, compare, now", () => {
    store.read((db) => {
      expect(db.prop(n.a!, "name")).toBe("a");
      expect(db.prop(n.a!, "email")).toBeNull();
      expect(db.prop(n.a!, "constructor")).toBeNull();
      expect(db.prop(e.ab!, "from_node")).toBe(n.a!.id);
      expect(db.compare("EQ", "x", "x")).toBe(true);
      expect(db.compare("LT", 1, 2)).toBe(true);
      expect(db.now()).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    });
  });
});
