import { describe, expect, it } from "vitest";
import { StrandError } from "../runtime/errors.js";
import type { GraphItem, NodeItem, PropValue } from "../runtime/items.js";
import type { CompareOp } from "../runtime/query-context.js";
import { compareForSort, compareValues } from "../runtime/ops/compare.js";
import { aggregateBy, groupBy } from "../runtime/ops/grouping.js";
import { shortestPaths, type PathNeighbor } from "../runtime/ops/paths.js";
import { count, filter, first, order, range } from "../runtime/ops/sequence.js";

function expectCode(fn: () => unknown, code: string, mentions?: string): void {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(StrandError);
  expect((caught as StrandError).code).toBe(code);
  if (mentions !== undefined) expect((caught as StrandError).message).toContain(mentions);
}

describe("count / first / filter", () => {
  it("counts", () => {
    expect(count([])).toBe(0);
    expect(count([1, 2, 3])).toBe(3);
  });
  it("first", () => {
    expect(first([])).toBeNull();
    expect(first(["a", "b"])).toBe("a");
  });
  it("filter keeps order and does not mutate", () => {
    const input = [1, 2, 3, 4, 5];
    expect(filter(input, (n) => n % 2 === 1)).toEqual([1, 3, 5]);
    expect(input).toEqual([1, 2, 3, 4, 5]);
  });
});

describe("range", () => {
  const items = Array.from({ length: 25 }, (_, i) => i);
  it("is 0-based and half-open", () => {
    expect(range(items, 0, 10)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(range(items, 10, 12)).toEqual([10, 11]);
  });
  it("clamps an end past the length", () => {
    expect(range(items, 20, 100)).toEqual([20, 21, 22, 23, 24]);
    expect(range(items, 30, 40)).toEqual([]);
  });
  it("empty when start equals end", () => {
    expect(range(items, 5, 5)).toEqual([]);
  });
  it("rejects bad bounds with INVALID_VALUE naming the bound", () => {
    expectCode(() => range(items, -1, 10), "INVALID_VALUE", "start");
    expectCode(() => range(items, 0, -1), "INVALID_VALUE", "end");
    expectCode(() => range(items, 1.5, 10), "INVALID_VALUE", "start");
    expectCode(() => range(items, 0, 1.5), "INVALID_VALUE", "end");
    expectCode(() => range(items, Number.NaN, 10), "INVALID_VALUE", "start");
    expectCode(() => range(items, 0, Number.NaN), "INVALID_VALUE", "end");
    expectCode(() => range(items, 0, Infinity), "INVALID_VALUE", "end");
    expectCode(() => range(items, 10, 5), "INVALID_VALUE", "end");
  });
  it("error maps to HTTP 400", () => {
    try {
      range(items, -1, 2);
    } catch (error) {
      expect((error as StrandError).status).toBe(400);
    }
  });
});

describe("order", () => {
  type Row = { id: number; v?: PropValue };
  const key = (r: Row): PropValue => r.v as PropValue;
  const ids = (rows: Row[]): number[] => rows.map((r) => r.id);

  it("sorts numbers numerically (not as strings)", () => {
    const rows: Row[] = [{ id: 1, v: 10 }, { id: 2, v: 9 }, { id: 3, v: -1 }, { id: 4, v: 100 }, { id: 5, v: 1.5 }];
    expect(ids(order(rows, key, "asc"))).toEqual([3, 5, 2, 1, 4]);
    expect(ids(order(rows, key, "desc"))).toEqual([4, 1, 2, 5, 3]);
  });

  it("sorts strings by code unit and ISO dates chronologically", () => {
    const rows: Row[] = [
      { id: 1, v: "b" },
      { id: 2, v: "B" },
      { id: 3, v: "a" },
      { id: 4, v: "é" },
      { id: 5, v: "ab" },
    ];
    expect(ids(order(rows, key, "asc"))).toEqual([2, 3, 5, 1, 4]);
    const dates: Row[] = [
      { id: 1, v: "2024-03-01T00:00:00.000Z" },
      { id: 2, v: "2023-12-31T23:59:59.999Z" },
      { id: 3, v: "2024-01-15T12:00:00.000Z" },
    ];
    expect(ids(order(dates, key, "asc"))).toEqual([2, 3, 1]);
  });

  it("orders mixed kinds number < string < boolean < array < object, nulls last both ways", () => {
    const rows: Row[] = [
      { id: 1, v: null },
      { id: 2, v: { a: 1 } },
      { id: 3, v: true },
      { id: 4, v: "x" },
      { id: 5 }, // missing
      { id: 6, v: [1, 2] },
      { id: 7, v: 3 },
      { id: 8, v: false },
      { id: 9, v: 1 },
    ];
    expect(ids(order(rows, key, "asc"))).toEqual([9, 7, 4, 8, 3, 6, 2, 1, 5]);
    expect(ids(order(rows, key, "desc"))).toEqual([2, 6, 3, 8, 4, 7, 9, 1, 5]);
  });

  it("is stable in both directions", () => {
    const rows: Row[] = [
      { id: 1, v: 2 },
      { id: 2, v: 1 },
      { id: 3, v: 2 },
      { id: 4, v: null },
      { id: 5, v: 1 },
      { id: 6, v: 2 },
      { id: 7, v: null },
    ];
    expect(ids(order(rows, key, "asc"))).toEqual([2, 5, 1, 3, 6, 4, 7]);
    expect(ids(order(rows, key, "desc"))).toEqual([1, 3, 6, 2, 5, 4, 7]);
  });

  it("does not mutate and calls the key once per item", () => {
    const rows: Row[] = [{ id: 1, v: 3 }, { id: 2, v: 1 }, { id: 3, v: 2 }];
    let calls = 0;
    const out = order(rows, (r) => (calls++, key(r)), "asc");
    expect(ids(out)).toEqual([2, 3, 1]);
    expect(ids(rows)).toEqual([1, 2, 3]);
    expect(calls).toBe(3);
  });

  it("compareForSort: arrays lexicographic, prefix first; objects by keys then values", () => {
    expect(compareForSort([1, 2], [1, 3])).toBeLessThan(0);
    expect(compareForSort([1, 2], [1, 2, 0])).toBeLessThan(0);
    expect(compareForSort([2], [1, 9])).toBeGreaterThan(0);
    expect(compareForSort({ a: 1 }, { b: 0 })).toBeLessThan(0);
    expect(compareForSort({ a: 2 }, { a: 1 })).toBeGreaterThan(0);
    expect(compareForSort({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(0);
    expect(compareForSort(0, -0)).toBe(0);
    expect(compareForSort(null, 5)).toBeGreaterThan(0);
    expect(compareForSort(false, true)).toBeLessThan(0);
  });
});

describe("compareValues", () => {
  const ops: CompareOp[] = ["EQ", "NEQ", "GT", "GTE", "LT", "LTE"];
  const row = (l: PropValue, r: PropValue): boolean[] => ops.map((op) => compareValues(op, l, r));
  //                           EQ     NEQ    GT     GTE    LT     LTE
  it("numbers", () => {
    expect(row(1, 2)).toEqual([false, true, false, false, true, true]);
    expect(row(2, 1)).toEqual([false, true, true, true, false, false]);
    expect(row(1, 1.0)).toEqual([true, false, false, true, false, true]);
    expect(row(-0, 0)).toEqual([true, false, false, true, false, true]);
    expect(row(10, 9)).toEqual([false, true, true, true, false, false]);
  });
  it("strings by code unit", () => {
    expect(row("a", "b")).toEqual([false, true, false, false, true, true]);
    expect(row("B", "a")).toEqual([false, true, false, false, true, true]);
    expect(row("10", "9")).toEqual([false, true, false, false, true, true]);
    expect(row("x", "x")).toEqual([true, false, false, true, false, true]);
  });
  it("booleans false < true", () => {
    expect(row(false, true)).toEqual([false, true, false, false, true, true]);
    expect(row(true, true)).toEqual([true, false, false, true, false, true]);
  });
  it("different kinds: unequal and never ordered", () => {
    expect(row(1, "1")).toEqual([false, true, false, false, false, false]);
    expect(row(0, false)).toEqual([false, true, false, false, false, false]);
    expect(row("", null)).toEqual([false, true, false, false, false, false]);
    expect(row([1], 1)).toEqual([false, true, false, false, false, false]);
  });
  it("null", () => {
    expect(row(null, 1)).toEqual([false, true, false, false, false, false]);
    expect(row(null, null)).toEqual([true, false, false, false, false, false]);
  });
  it("arrays and objects: deep equality only", () => {
    expect(row([1, [2, 3]], [1, [2, 3]])).toEqual([true, false, false, false, false, false]);
    expect(row([1, 2], [1, 2, 3])).toEqual([false, true, false, false, false, false]);
    expect(row({ a: 1, b: [true] }, { b: [true], a: 1.0 })).toEqual([true, false, false, false, false, false]);
    expect(row({ a: 1 }, { a: 1, b: null })).toEqual([false, true, false, false, false, false]);
    expect(row({ a: "1" }, { a: 1 })).toEqual([false, true, false, false, false, false]);
  });
});

describe("groupBy / aggregateBy", () => {
  const n = (id: string, props: Record<string, PropValue>): NodeItem => ({ id, label: "User", ...props });
  const items: GraphItem[] = [
    n("1", { city: "Paris", age: 30 }),
    n("2", { city: "Rome", age: 30 }),
    n("3", { city: "Paris", age: 30 }),
    n("4", { city: "Paris", age: "30" }),
    n("5", { age: 30 }),
    n("6", { city: null, age: 30 }),
    n("7", { city: "Rome", age: 30 }),
  ];

  it("groupBy: one entry per combination, first-appearance order, exact shape", () => {
    const out = groupBy(items, ["city", "age"]);
    expect(out).toStrictEqual([
      { city: "Paris", age: 30, count: 2 },
      { city: "Rome", age: 30, count: 2 },
      { city: "Paris", age: "30", count: 1 },
      { city: null, age: 30, count: 2 },
    ]);
    expect(Object.keys(out[0]!)).toEqual(["city", "age", "count"]);
  });

  it("groupBy: single property; empty input", () => {
    expect(groupBy(items, ["age"])).toStrictEqual([
      { age: 30, count: 6 },
      { age: "30", count: 1 },
    ]);
    expect(groupBy([], ["age"])).toStrictEqual([]);
  });

  it("groupBy: structurally equal arrays/objects share a group; '1' vs 1 do not collide", () => {
    const xs: GraphItem[] = [
      n("1", { tags: ["a", "b"], o: { x: 1, y: 2 } }),
      n("2", { tags: ["a", "b"], o: { y: 2, x: 1 } }),
      n("3", { tags: ["a,b"], o: { x: 1, y: 2 } }),
      n("4", { tags: "null", o: null }),
      n("5", { tags: null, o: "null" }),
    ];
    expect(groupBy(xs, ["tags", "o"]).map((g) => g.count)).toEqual([2, 1, 1, 1]);
  });

  it("aggregateBy: {count, data} with full items in input order", () => {
    const out = aggregateBy(items, ["city"]);
    expect(out).toStrictEqual([
      { count: 3, data: [items[0], items[2], items[3]] },
      { count: 2, data: [items[1], items[6]] },
      { count: 2, data: [items[4], items[5]] },
    ]);
    expect(Object.keys(out[0]!)).toEqual(["count", "data"]);
    expect(out[0]!.data[0]).toBe(items[0]);
  });
});

// ---- shortest paths

type Edge = [id: string, from: string, to: string, weight?: number];

function graph(edges: Edge[], directed = true) {
  const adj = new Map<string, PathNeighbor[]>();
  const w = new Map<string, number>();
  const add = (from: string, edgeId: string, nodeId: string): void => {
    const list = adj.get(from) ?? [];
    list.push({ edgeId, nodeId });
    adj.set(from, list);
  };
  for (const [id, from, to, weight] of edges) {
    add(from, id, to);
    if (!directed) add(to, id, from);
    w.set(id, weight ?? 1);
  }
  let calls = 0;
  return {
    neighbors: (node: string): PathNeighbor[] => (calls++, adj.get(node) ?? []),
    weight: (edge: string): number => w.get(edge)!,
    calls: () => calls,
  };
}

function paths(g: ReturnType<typeof graph>, source: string, target: string, weighted: boolean, maxPaths = 16) {
  return shortestPaths({ source, target, neighbors: g.neighbors, weight: weighted ? g.weight : null, maxPaths });
}

describe("shortestPaths", () => {
  const triangle = graph([
    ["ab", "A", "B", 100],
    ["ac", "A", "C", 30],
    ["cb", "C", "B", 40],
  ]);

  it("BFS takes fewest hops, Dijkstra least weight", () => {
    expect(paths(triangle, "A", "B", false)).toEqual([{ nodes: ["A", "B"], edges: ["ab"] }]);
    expect(paths(triangle, "A", "B", true)).toEqual([{ nodes: ["A", "C", "B"], edges: ["ac", "cb"] }]);
  });

  it("returns all ties in neighbor-enumeration order", () => {
    const diamond = graph([
      ["ab", "A", "B"],
      ["ac", "A", "C"],
      ["bd", "B", "D"],
      ["cd", "C", "D"],
    ]);
    const expected = [
      { nodes: ["A", "B", "D"], edges: ["ab", "bd"] },
      { nodes: ["A", "C", "D"], edges: ["ac", "cd"] },
    ];
    expect(paths(diamond, "A", "D", false)).toEqual(expected);
    expect(paths(diamond, "A", "D", true)).toEqual(expected);
    // Enumeration order, not id order, decides.
    const reversed = graph([
      ["ac", "A", "C"],
      ["ab", "A", "B"],
      ["cd", "C", "D"],
      ["bd", "B", "D"],
    ]);
    expect(paths(reversed, "A", "D", false)).toEqual([expected[1], expected[0]]);
    expect(paths(diamond, "A", "D", false, 1)).toEqual([expected[0]]);
  });

  it("weighted ties with different hop counts are all returned", () => {
    const g = graph([
      ["ad", "A", "D", 3],
      ["ab", "A", "B", 1],
      ["bc", "B", "C", 1],
      ["cd", "C", "D", 1],
      ["ae", "A", "E", 1],
      ["ed", "E", "D", 2.5],
    ]);
    expect(paths(g, "A", "D", true)).toEqual([
      { nodes: ["A", "D"], edges: ["ad"] },
      { nodes: ["A", "B", "C", "D"], edges: ["ab", "bc", "cd"] },
    ]);
  });

  it("treats floating-point sums as equal within tolerance", () => {
    const g = graph([
      ["ax", "A", "X", 0.1],
      ["xy", "X", "Y", 0.2],
      ["ay", "A", "Y", 0.3],
    ]);
    // 0.1 + 0.2 !== 0.3 in binary floating point.
    expect(paths(g, "A", "Y", true)).toEqual([
      { nodes: ["A", "X", "Y"], edges: ["ax", "xy"] },
      { nodes: ["A", "Y"], edges: ["ay"] },
    ]);
  });

  it("parallel edges give distinct paths", () => {
    const g = graph([
      ["e1", "A", "B"],
      ["e2", "A", "B"],
      ["e3", "B", "C"],
      ["e4", "B", "C", 2],
    ]);
    expect(paths(g, "A", "C", false)).toEqual([
      { nodes: ["A", "B", "C"], edges: ["e1", "e3"] },
      { nodes: ["A", "B", "C"], edges: ["e1", "e4"] },
      { nodes: ["A", "B", "C"], edges: ["e2", "e3"] },
      { nodes: ["A", "B", "C"], edges: ["e2", "e4"] },
    ]);
    expect(paths(g, "A", "C", true)).toEqual([
      { nodes: ["A", "B", "C"], edges: ["e1", "e3"] },
      { nodes: ["A", "B", "C"], edges: ["e2", "e3"] },
    ]);
  });

  it("survives cycles and self-loops", () => {
    const g = graph([
      ["aa", "A", "A"],
      ["ab", "A", "B"],
      ["ba", "B", "A"],
      ["bb", "B", "B"],
      ["bc", "B", "C"],
      ["cb", "C", "B"],
      ["ca", "C", "A"],
    ]);
    const expected = [{ nodes: ["A", "B", "C"], edges: ["ab", "bc"] }];
    expect(paths(g, "A", "C", false)).toEqual(expected);
    expect(paths(g, "A", "C", true)).toEqual(expected);
    const undirected = graph(
      [
        ["ab", "A", "B"],
        ["bc", "B", "C"],
        ["cd", "C", "D"],
        ["da", "D", "A"],
      ],
      false,
    );
    expect(paths(undirected, "A", "C", false)).toEqual([
      { nodes: ["A", "B", "C"], edges: ["ab", "bc"] },
      { nodes: ["A", "D", "C"], edges: ["da", "cd"] },
    ]);
  });

  it("unreachable target → []", () => {
    const g = graph([
      ["ab", "A", "B"],
      ["cb", "C", "B"],
    ]);
    expect(paths(g, "A", "C", false)).toEqual([]);
    expect(paths(g, "A", "C", true)).toEqual([]);
    expect(paths(g, "A", "Z", false)).toEqual([]);
  });

  it("source === target → one empty path", () => {
    const expected = [{ nodes: ["A"], edges: [] }];
    expect(paths(triangle, "A", "A", false)).toEqual(expected);
    expect(paths(triangle, "A", "A", true)).toEqual(expected);
    expect(paths(graph([]), "Q", "Q", false)).toEqual([{ nodes: ["Q"], edges: [] }]);
  });

  it("maxPaths < 1 → []", () => {
    expect(paths(triangle, "A", "B", false, 0)).toEqual([]);
  });

  it("Dijkstra with zero-weight edges, including a zero-weight cycle", () => {
    const g = graph([
      ["sx", "S", "X", 1],
      ["sy", "S", "Y", 1],
      ["yx", "Y", "X", 0],
      ["xy", "X", "Y", 0],
      ["xt", "X", "T", 0],
      ["st", "S", "T", 2],
    ]);
    expect(paths(g, "S", "T", true)).toEqual([
      { nodes: ["S", "X", "T"], edges: ["sx", "xt"] },
      { nodes: ["S", "Y", "X", "T"], edges: ["sy", "yx", "xt"] },
    ]);
    const allZero = graph([
      ["ab", "A", "B", 0],
      ["ba", "B", "A", 0],
      ["bc", "B", "C", 0],
      ["ac", "A", "C", 0],
    ]);
    expect(paths(allZero, "A", "C", true)).toEqual([
      { nodes: ["A", "B", "C"], edges: ["ab", "bc"] },
      { nodes: ["A", "C"], edges: ["ac"] },
    ]);
  });

  it("zero-weight cliques: no exponential dead-end search, capped enumeration", () => {
    // S reaches T directly (weight 1); S also opens into a zero-weight clique whose nodes all lead
    // back to S only. Every simple path into the clique is a dead end.
    const clique = Array.from({ length: 10 }, (_, i) => `a${i}`);
    const edges: Edge[] = [];
    for (const a of clique) edges.push([`S-${a}`, "S", a, 0]);
    for (const a of clique) for (const b of clique) if (a !== b) edges.push([`${a}-${b}`, a, b, 0]);
    for (const a of clique) edges.push([`${a}-S`, a, "S", 0]);
    edges.push(["S-T", "S", "T", 1]);
    expect(paths(graph(edges), "S", "T", true)).toEqual([{ nodes: ["S", "T"], edges: ["S-T"] }]);
    // Now a9 also reaches T at the same cost: ~10! simple paths, the first 16 come back quickly.
    edges.push(["a9-T", "a9", "T", 1]);
    const out = paths(graph(edges), "S", "T", true);
    expect(out).toHaveLength(16);
    expect(out[0]).toEqual({
      nodes: ["S", ...clique, "T"],
      edges: ["S-a0", ...clique.slice(0, 9).map((a, i) => `${a}-${clique[i + 1]}`), "a9-T"],
    });
    for (const p of out) {
      expect(new Set(p.nodes).size).toBe(p.nodes.length);
      expect(p.nodes.at(-2)).toBe("a9");
    }
  });

  it("caps at maxPaths on a ladder with 2^20 shortest paths (an exhaustive search would time out)", () => {
    // 20 diamonds in a row: N0 → {U0, L0} → N1 → ... → N20.
    const edges: Edge[] = [];
    for (let i = 0; i < 20; i++) {
      edges.push([`u${i}a`, `N${i}`, `U${i}`], [`l${i}a`, `N${i}`, `L${i}`]);
      edges.push([`u${i}b`, `U${i}`, `N${i + 1}`], [`l${i}b`, `L${i}`, `N${i + 1}`]);
    }
    const g = graph(edges);
    for (const weighted of [false, true]) {
      const out = paths(g, "N0", "N20", weighted);
      expect(out).toHaveLength(16);
      // Lexicographic: the first 16 differ only in the last 4 diamonds, counted in binary.
      out.forEach((p, k) => {
        const choice = (i: number): string => (i < 16 || ((k >> (19 - i)) & 1) === 0 ? "u" : "l");
        expect(p.edges).toEqual(Array.from({ length: 20 }, (_, i) => [`${choice(i)}${i}a`, `${choice(i)}${i}b`]).flat());
        expect(p.nodes).toHaveLength(41);
      });
      expect(new Set(out.map((p) => p.edges.join())).size).toBe(16);
    }
  });

  it("BFS on a 100k-node graph: finds the path and expands each node at most once", () => {
    const size = 100_000;
    const neighbors = (id: string): PathNeighbor[] => {
      const i = Number(id);
      const out: PathNeighbor[] = [];
      if (i + 1 < size) out.push({ edgeId: `s${i}`, nodeId: String(i + 1) });
      if (i * 2 < size && i > 1) out.push({ edgeId: `d${i}`, nodeId: String(i * 2) });
      return out;
    };
    let calls = 0;
    const counted = (id: string): PathNeighbor[] => (calls++, neighbors(id));
    const chain = shortestPaths({ source: "0", target: String(size - 1), neighbors: counted, weight: null, maxPaths: 16 });
    // With i > 1 the doubling edges never parallel a step edge; 0→1→2 then ×2 / +1 as in the binary
    // expansion of 99999 is the unique fewest-hop route.
    let hops = 0;
    for (let n = size - 1; n > 2; n = n % 2 === 1 ? n - 1 : n / 2) hops++;
    hops += 2;
    expect(chain).toHaveLength(1);
    expect(chain[0]!.edges).toHaveLength(hops);
    expect(chain[0]!.nodes.slice(0, 3)).toEqual(["0", "1", "2"]);
    expect(chain[0]!.nodes.at(-1)).toBe("99999");
    chain[0]!.edges.forEach((edge, i) => {
      expect(neighbors(chain[0]!.nodes[i]!)).toContainEqual({ edgeId: edge, nodeId: chain[0]!.nodes[i + 1] });
    });
    expect(calls).toBeLessThanOrEqual(size);
    // A pure chain: a path of 100k nodes does not overflow the stack.
    const line = (id: string): PathNeighbor[] => {
      const i = Number(id);
      return i + 1 < size ? [{ edgeId: `e${i}`, nodeId: String(i + 1) }] : [];
    };
    for (const weight of [null, () => 1]) {
      const out = shortestPaths({ source: "0", target: String(size - 1), neighbors: line, weight, maxPaths: 16 });
      expect(out).toHaveLength(1);
      expect(out[0]!.nodes).toHaveLength(size);
      expect(out[0]!.edges).toHaveLength(size - 1);
    }
  });

  it("stops the search at the target's distance", () => {
    const g = graph([
      ["ab", "A", "B"],
      ["bc", "B", "C"],
      ["cd", "C", "D"],
      ["de", "D", "E"],
    ]);
    expect(paths(g, "A", "B", false)).toEqual([{ nodes: ["A", "B"], edges: ["ab"] }]);
    expect(g.calls()).toBe(1);
  });
});
