import { describe, expect, it } from "vitest";
import { StrandError } from "../core/errors.js";
import type { GraphItem, NodeItem, PropValue } from "../core/items.js";
import type { CompareOp, MathFn } from "../core/query-context.js";
import { compareForSort, compareValues, contains, isIn } from "../runtime/ops/compare.js";
import { aggregate, math } from "../runtime/ops/math.js";
import { aggregateBy, groupBy } from "../runtime/ops/grouping.js";
import { shortestPaths, type PathNeighbor } from "../runtime/ops/paths.js";
import { count, filter, first, order, range } from "../runtime/ops/sequence.js";
import { rerankMMR } from "../runtime/ops/rerank.js";
import { httpStatus } from "../server/http/status.js";

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
      expect(httpStatus((error as StrandError).code)).toBe(400);
    }
  });
});

describe("order", () => {
  type Row = { id: number; v?: PropValue };
  const key = (r: Row): PropValue => r.v as PropValue;
  const ids = (rows: Row[]): number[] => rows.map((r) => r.id);

  it("sorts numbers numerically (not as strings)", () => {
    const rows: Row[] = [
      { id: 1, v: 10 },
      { id: 2, v: 9 },
      { id: 3, v: -1 },
      { id: 4, v: 100 },
      { id: 5, v: 1.5 },
    ];
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
    const rows: Row[] = [
      { id: 1, v: 3 },
      { id: 2, v: 1 },
      { id: 3, v: 2 },
    ];
    let calls = 0;
    const out = order(
      rows,
      (r) => {
        calls++;
        return key(r);
      },
      "asc",
    );
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
    neighbors: (node: string): PathNeighbor[] => {
      calls++;
      return adj.get(node) ?? [];
    },
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
    const counted = (id: string): PathNeighbor[] => {
      calls++;
      return neighbors(id);
    };
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

describe("compareValues (issue 5): numbers, code points, Dates as instants, null and mixed kinds", () => {
  const ops: CompareOp[] = ["EQ", "NEQ", "GT", "GTE", "LT", "LTE"];
  const row = (l: PropValue, r: PropValue): boolean[] => ops.map((op) => compareValues(op, l, r));
  //                                     EQ     NEQ    GT     GTE    LT     LTE
  const LESS = [false, true, false, false, true, true];
  const GREATER = [false, true, true, true, false, false];
  const EQUAL = [true, false, false, true, false, true];
  const UNRELATED = [false, true, false, false, false, false];
  it("integers and floats are one number line", () => {
    expect(row(3, 3.0)).toEqual(EQUAL);
    expect(row(2, 2.5)).toEqual(LESS);
    expect(row(-1.5, -2)).toEqual(GREATER);
    // biome-ignore lint/correctness/noPrecisionLoss: the literal rounds on purpose; the comparison must follow the double it becomes
    expect(row(Number.MAX_SAFE_INTEGER, 9007199254740990.5)).toEqual(GREATER);
  });
  it("strings and IDs by code point, not UTF-16 code unit", () => {
    // U+1F600 (a surrogate pair, D83D DE00) is above U+FF5E even though D83D < FF5E.
    expect(row("\u{1F600}", "\uFF5E")).toEqual(GREATER);
    expect(row("a\uFFFF", "a\u{10000}")).toEqual(LESS);
    expect(row("\u{1F600}", "\u{1F601}")).toEqual(LESS);
    expect(row("abc", "ab")).toEqual(GREATER);
    expect(row("", "a")).toEqual(LESS);
    expect(row("0190a2b4-1234-7abc-8def-0123456789ab", "0190a2b4-1234-7abc-8def-0123456789ac")).toEqual(LESS);
    expect(row("Zebra", "apple")).toEqual(LESS);
  });
  it("Dates as instants whatever the offset form", () => {
    expect(row("2024-03-05T10:00:00.000Z", "2024-03-05T12:00:00+02:00")).toEqual(EQUAL);
    expect(row("2024-03-05T12:00:00+02:00", "2024-03-05T10:00:00Z")).toEqual(EQUAL);
    expect(row("2024-03-05T09:59:59.999Z", "2024-03-05T12:00:00+02:00")).toEqual(LESS);
    // 2024-03-04T20:00Z: earlier, though as strings it would sort later.
    expect(row("2024-03-05T01:00:00+05:00", "2024-03-04T21:00:00.000Z")).toEqual(LESS);
    expect(row("2024-03-05", "2024-03-05T00:00:00.000Z")).toEqual(EQUAL);
    expect(row("2024-03-05", "2024-03-04T23:59:59-01:00")).toEqual(LESS);
    // Both canonical: plain string order, which is chronological.
    expect(row("2023-12-31T23:59:59.999Z", "2024-01-01T00:00:00.000Z")).toEqual(LESS);
    // Not both Dates: strings.
    expect(row("2024-03-05", "2024-03-05 and more")).toEqual(LESS);
    expect(row("2024-13-05", "2024-03-05T00:00:00Z")).toEqual(GREATER);
  });
  it("null: only null EQ null; never ordered", () => {
    expect(row(null, null)).toEqual([true, false, false, false, false, false]);
    expect(row(null, 0)).toEqual(UNRELATED);
    expect(row("", null)).toEqual(UNRELATED);
    expect(row(null, false)).toEqual(UNRELATED);
  });
  it("incompatible kinds: EQ and the order operators false, NEQ true", () => {
    expect(row(1, "1")).toEqual(UNRELATED);
    expect(row(true, 1)).toEqual(UNRELATED);
    expect(row("2024-03-05", 1709596800)).toEqual(UNRELATED);
    expect(row([1], [1])).toEqual([true, false, false, false, false, false]);
    expect(row({ a: 1 }, [1])).toEqual(UNRELATED);
  });
});

describe("contains / isIn", () => {
  it("CONTAINS on a String: substring (case-sensitive); a non-string needle is never contained", () => {
    expect(contains("hello world", "o w")).toBe(true);
    expect(contains("hello", "Hello")).toBe(false);
    expect(contains("hello", "")).toBe(true);
    expect(contains("", "a")).toBe(false);
    expect(contains("123", 2)).toBe(false);
    expect(contains("a\u{1F600}b", "\u{1F600}")).toBe(true);
  });
  it("CONTAINS on an array: an element EQ to the needle (numbers, Dates as instants, arrays structurally)", () => {
    expect(contains(["a", "b"], "b")).toBe(true);
    expect(contains(["ab"], "a")).toBe(false);
    expect(contains([1, 2.5], 2.5)).toBe(true);
    expect(contains([1, 2], "1")).toBe(false);
    expect(contains(["2024-03-05T10:00:00.000Z"], "2024-03-05T12:00:00+02:00")).toBe(true);
    expect(contains([[1, 2], [3]], [3])).toBe(true);
    expect(contains([null], null)).toBe(true);
    expect(contains([], "a")).toBe(false);
  });
  it("CONTAINS on null (an absent field) is false; on anything else INVALID_VALUE", () => {
    expect(contains(null, "a")).toBe(false);
    expectCode(() => contains(42, 4), "INVALID_VALUE", "CONTAINS needs a String or an array to search, got 42");
    expectCode(() => contains({ a: "x" }, "x"), "INVALID_VALUE", "CONTAINS");
    expectCode(() => contains(true, true), "INVALID_VALUE", "CONTAINS");
  });
  it("IS_IN: membership with EQ; null list holds nothing; a non-array is INVALID_VALUE", () => {
    expect(isIn("b", ["a", "b"])).toBe(true);
    expect(isIn(3, [1, 2, 3.0])).toBe(true);
    expect(isIn("3", [3])).toBe(false);
    expect(isIn(null, [null])).toBe(true);
    expect(isIn(null, ["a"])).toBe(false);
    expect(isIn("2024-03-05", ["2024-03-05T00:00:00.000Z"])).toBe(true);
    expect(isIn("a", [])).toBe(false);
    expect(isIn("a", null)).toBe(false);
    expectCode(() => isIn("a", "abc"), "INVALID_VALUE", 'IS_IN needs an array of values, got "abc"');
  });
});

describe("math", () => {
  it("arithmetic, exact values", () => {
    expect(math("ADD", [2, 3.5])).toBe(5.5);
    expect(math("SUB", [2, 3])).toBe(-1);
    expect(math("MUL", [-4, 2.5])).toBe(-10);
    expect(math("DIV", [7, 2])).toBe(3.5);
    expect(math("DIV", [-9, 3])).toBe(-3);
    expect(math("POW", [2, 10])).toBe(1024);
    expect(math("POW", [4, 0.5])).toBe(2);
    expect(math("MOD", [7, 3])).toBe(1);
    expect(math("MOD", [-7, 3])).toBe(-1);
    expect(math("MOD", [7.5, 2])).toBe(1.5);
    expect(math("ABS", [-3.25])).toBe(3.25);
    expect(math("MIN", [3, -1])).toBe(-1);
    expect(math("MAX", [3, -1])).toBe(3);
  });
  it("roots, logs, exponentials", () => {
    expect(math("SQRT", [16])).toBe(4);
    expect(math("LN", [1])).toBe(0);
    expect(math("LN", [Math.E])).toBe(1);
    expect(math("LOG10", [1000])).toBe(3);
    expect(math("LOG", [1000, 10])).toBe(3);
    expect(math("LOG", [8, 2])).toBe(3);
    // Other bases divide natural logs: as exact as binary floating point gets.
    expect(math("LOG", [81, 3])).toBe(4.000000000000001);
    expect(math("EXP", [0])).toBe(1);
    expect(math("EXP", [1])).toBe(Math.E);
  });
  it("rounding: CEIL, FLOOR, and ROUND half away from zero; no -0", () => {
    expect(math("CEIL", [1.2])).toBe(2);
    expect(math("CEIL", [-1.8])).toBe(-1);
    expect(math("FLOOR", [-1.2])).toBe(-2);
    expect(math("ROUND", [2.5])).toBe(3);
    expect(math("ROUND", [-2.5])).toBe(-3);
    expect(math("ROUND", [-2.4])).toBe(-2);
    expect(math("ROUND", [0.49999999999999994])).toBe(0);
    expect(Object.is(math("ROUND", [-0.4]), 0)).toBe(true);
    expect(Object.is(math("CEIL", [-0.5]), 0)).toBe(true);
    expect(Object.is(math("MUL", [-1, 0]), 0)).toBe(true);
  });
  it("trigonometry and constants", () => {
    expect(math("PI", [])).toBe(Math.PI);
    expect(math("E", [])).toBe(Math.E);
    expect(math("SIN", [0])).toBe(0);
    expect(math("COS", [0])).toBe(1);
    expect(math("TAN", [0])).toBe(0);
    expect(math("ASIN", [1])).toBe(Math.PI / 2);
    expect(math("ACOS", [1])).toBe(0);
    expect(math("ATAN", [1])).toBe(Math.PI / 4);
    expect(math("ATAN2", [1, -1])).toBe((3 * Math.PI) / 4);
    expect(math("ATAN2", [0, -1])).toBe(Math.PI);
  });
  it("non-numbers are INVALID_VALUE naming the function and the argument", () => {
    expectCode(() => math("ADD", [1, "2"]), "INVALID_VALUE", 'ADD: argument 2 must be a number, got "2"');
    expectCode(() => math("SQRT", [null]), "INVALID_VALUE", "SQRT: argument 1 is absent (null); it must be a number");
    expectCode(
      () => math("ADD", [null, 1], [{ text: "_::{n}", kind: "N" }, null], { id: "c1", label: "C" }),
      "INVALID_VALUE",
      "ADD: argument 1 (_::{n}) is absent on N::C c1; it must be a number",
    );
    expectCode(
      () => math("ADD", [1, "x"], [null, { text: "u::{n}" }], null, null),
      "INVALID_VALUE",
      'ADD: argument 2 (u::{n}) must be a number, got "x"',
    );
    // The item of argument 2 is the fifth parameter; the sources stay static (a module constant).
    expectCode(
      () => math("SUB", [1, null], [null, { text: "e::{w}", kind: "E" }], null, { id: "e1", label: "Knows" }),
      "INVALID_VALUE",
      "SUB: argument 2 (e::{w}) is absent on E::Knows e1; it must be a number",
    );
    expectCode(() => math("MAX", [[1], 2]), "INVALID_VALUE", "MAX: argument 1");
  });
  it("DIV and MOD by zero, and non-finite results, are INVALID_VALUE (JSON carries no NaN or Infinity)", () => {
    expectCode(() => math("DIV", [1, 0]), "INVALID_VALUE", "DIV: division by zero (1 / 0)");
    expectCode(() => math("DIV", [0, 0]), "INVALID_VALUE", "DIV: division by zero");
    expectCode(() => math("MOD", [5, 0]), "INVALID_VALUE", "MOD: modulo by zero (5 % 0)");
    expectCode(() => math("SQRT", [-1]), "INVALID_VALUE", "SQRT(-1) is not a finite number");
    expectCode(() => math("LN", [0]), "INVALID_VALUE", "LN(0) is not a finite number");
    expectCode(() => math("LOG", [8, 1]), "INVALID_VALUE", "LOG: the base must be positive and not 1 (LOG(8, 1))");
    expectCode(() => math("LOG", [8, 0]), "INVALID_VALUE", "LOG: the base must be positive and not 1 (LOG(8, 0))");
    expectCode(() => math("LOG", [8, -2]), "INVALID_VALUE", "LOG(8, -2)");
    expectCode(() => math("LOG", [0, 2]), "INVALID_VALUE", "LOG(0, 2) is not a finite number");
    expectCode(() => math("ASIN", [2]), "INVALID_VALUE", "ASIN(2)");
    expectCode(() => math("POW", [10, 400]), "INVALID_VALUE", "POW(10, 400) is not a finite number");
    expectCode(() => math("POW", [0, -1]), "INVALID_VALUE", "POW(0, -1)");
    expectCode(() => math("EXP", [1000]), "INVALID_VALUE", "EXP(1000)");
    expectCode(() => math("MUL", [1e308, 10]), "INVALID_VALUE", "MUL");
  });
  it("a wrong argument count is a bug in generated code, not a user error", () => {
    expect(() => math("ADD", [1])).toThrow("ADD takes 2 arguments, got 1");
    expect(() => math("ADD", [1])).not.toThrow(StrandError);
    expect(() => math("NOPE" as MathFn, [])).toThrow("unknown math function 'NOPE'");
  });
});

describe("aggregate", () => {
  it("SUM, AVG, MIN, MAX, COUNT with exact values", () => {
    const xs = [3, 1.5, -2, 10];
    expect(aggregate("SUM", xs)).toBe(12.5);
    expect(aggregate("AVG", xs)).toBe(3.125);
    expect(aggregate("MIN", xs)).toBe(-2);
    expect(aggregate("MAX", xs)).toBe(10);
    expect(aggregate("COUNT", xs)).toBe(4);
  });
  it("empty lists: SUM 0, COUNT 0, AVG/MIN/MAX null", () => {
    expect([aggregate("SUM", []), aggregate("COUNT", []), aggregate("AVG", []), aggregate("MIN", []), aggregate("MAX", [])]).toEqual([
      0,
      0,
      null,
      null,
      null,
    ]);
  });
  it("nulls (absent fields) are skipped by SUM/AVG/MIN/MAX and counted by COUNT", () => {
    const xs = [4, null, 2, null];
    expect([aggregate("SUM", xs), aggregate("AVG", xs), aggregate("MIN", xs), aggregate("MAX", xs), aggregate("COUNT", xs)]).toEqual([
      6, 3, 2, 4, 4,
    ]);
    expect(aggregate("AVG", [null, null])).toBeNull();
    expect(aggregate("SUM", [null])).toBe(0);
  });
  it("other non-numbers are INVALID_VALUE naming the function and the element; overflow too", () => {
    expectCode(() => aggregate("SUM", [1, "2"]), "INVALID_VALUE", 'SUM: element 1 must be a number, got "2"');
    expectCode(() => aggregate("MAX", [true]), "INVALID_VALUE", "MAX: element 0 must be a number, got true");
    expect(aggregate("COUNT", ["a", true, null])).toBe(3);
    expectCode(() => aggregate("SUM", [1e308, 1e308]), "INVALID_VALUE", "SUM of 2 values is not a finite number");
  });
  it("AVG of finite numbers is finite even when their sum overflows; SUM survives an intermediate overflow", () => {
    expect(aggregate("AVG", [1e308, 1e308])).toBe(1e308);
    expect(aggregate("AVG", [-1e308, -1e308, null])).toBe(-1e308);
    expect(aggregate("AVG", [Number.MAX_VALUE, Number.MAX_VALUE, Number.MAX_VALUE])).toBe(Number.MAX_VALUE);
    expect(aggregate("AVG", [1e308, 1e308, -1e308])).toBeCloseTo(1e308 / 3, -300);
    expect(aggregate("SUM", [1e308, 1e308, -1e308])).toBe(1e308);
    expect(aggregate("AVG", [1, 2])).toBe(1.5); // no overflow: the plain sum / n, bit for bit
  });
});

describe("rerankMMR on extreme vectors and scores", () => {
  const v = (id: string, data: number[], score?: number): NodeItem => ({ id, label: "P", data, ...(score === undefined ? {} : { score }) });

  it("vectors with components near the f64 limit: finite similarities, every item kept once", () => {
    const items = [v("a", [1e300, 1e300], 1), v("b", [1e300, 1e300], 0.99), v("c", [1, 0], 0.7)];
    expect(rerankMMR(items, 0.5, "cosine").map((i) => i.id)).toEqual(["a", "c", "b"]);
    expect(rerankMMR(items, 0.5, "euclidean").map((i) => i.id)).toEqual(["a", "c", "b"]);
    expect(rerankMMR(items, 0.5, "dotproduct").map((i) => i.id)).toEqual(["a", "c", "b"]);
  });

  it("a NaN trade-off (infinite relevance) counts as the worst, never as no pick", () => {
    const items = [v("a", [1, 0], Infinity), v("b", [1, 0], Infinity), v("c", [0, 1], Number.NaN)];
    expect(rerankMMR(items, 0.5, "cosine").map((i) => i.id)).toEqual(["a", "b", "c"]);
    expect(rerankMMR([v("x", [1], Number.NaN)], 1, "cosine").map((i) => i.id)).toEqual(["x"]);
  });
});
