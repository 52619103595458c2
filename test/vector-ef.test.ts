// SearchV's default breadth grows with the index (metric.ts defaultEf), and an explicit breadth
// far below it is logged once per type.
import { afterEach, expect, test, vi } from "vitest";
import { DEFAULT_VECTOR_OPTIONS, defaultEf } from "../runtime/vector/metric.js";
import { searchVectors } from "../runtime/vector/search.js";
import { VectorIndex } from "../runtime/vector/vector-index.js";
import { gaussian, memorySnapshot, rng, unitVector } from "./support/vector-fixtures.js";

afterEach(() => vi.restoreAllMocks());

test("the default breadth: 40·k up to 20k vectors, then growing as (n / 20k)^0.9, never above n", () => {
  expect(defaultEf(64, 10, 5_000)).toBe(400);
  expect(defaultEf(64, 10, 20_000)).toBe(400);
  expect(defaultEf(64, 10, 40_000)).toBe(747);
  expect(defaultEf(64, 10, 100_000)).toBe(1703);
  expect(defaultEf(64, 1, 1_000)).toBe(64);
  expect(defaultEf(1000, 10, 100_000)).toBe(1703);
  expect(defaultEf(2000, 10, 100_000)).toBe(2000);
  expect(defaultEf(64, 500, 10_000)).toBe(10_000);
});

test("an explicit ef under a quarter of the default is logged once per type; the default and wide ones are not", () => {
  const normal = gaussian(rng(3));
  const points = Array.from({ length: 4200 }, () => unitVector(normal, 4));
  const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
  for (const label of ["Narrow", "Other"]) {
    const { snapshot, ids } = memorySnapshot(label, points);
    const index = new VectorIndex(label, DEFAULT_VECTOR_OPTIONS);
    for (let i = 0; i < points.length; i++) index.add(i, ids[i]!, points[i]!);
    const info = { name: label, embedding: null } as unknown as Parameters<typeof searchVectors>[0]["info"];
    const search = (ef: number | null) =>
      searchVectors({ info, index, pending: [], snapshot, options: DEFAULT_VECTOR_OPTIONS, query: points[0], k: 10, ef });
    expect(search(null).items.length).toBe(10);
    expect(search(100).items.length).toBe(10); // a quarter of 400: not far below
    expect(warn).toHaveBeenCalledTimes(label === "Narrow" ? 0 : 1);
    expect(search(99).path).toBe("hnsw");
    search(10);
  }
  expect(warn.mock.calls).toEqual(
    ["Narrow", "Other"].map((label) => [
      `SearchV<${label}>: ef 99 is far below the 400 the index of 4200 vectors needs for recall@k near 0.95 by default; results will miss many true nearest neighbours (this is logged once)`,
    ]),
  );
});
