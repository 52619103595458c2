// The filtered-search bench (bench/vector-filtered.ts) at a small size: it runs, and its rows
// hold what the search promises — k results for every query, and exactly the brute-force best k
// at 1% of 5,000 vectors (the INDEX's candidates scored; with no index, the index searched 1,659
// wide, a third of the vectors, which finds all of them here); the unfiltered search is the
// reference row.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { renderFiltered, runFilteredSearch } from "../bench/vector-filtered.js";

it("reports recall, k and latency of filtered SearchV against unfiltered", async () => {
  const root = mkdtempSync(join(tmpdir(), "strand-bench-filtered-"));
  try {
    const rows = await runFilteredSearch({ root, count: 5_000, queries: 10, seed: 7, log: () => {} });
    expect(rows.map((r) => [r.filter, r.fullK])).toEqual([
      ["none", 1],
      ["INDEX 1%", 1],
      ["no index 1%", 1],
    ]);
    expect(rows[0]!.ratio).toBe(1);
    expect(rows.slice(1).map((r) => r.recall)).toEqual([1, 1]);
    expect(renderFiltered(rows, 5_000)).toContain("INDEX 1%");
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}, 120_000);
