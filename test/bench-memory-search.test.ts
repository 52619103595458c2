// The search_nodes bench (bench/memory-search.ts) at a small size: it drives both servers over
// stdio and reports what each found — the target always for its rarest word (both), and for two
// of its words always with Strand (BM25 over the words), where the reference needs the words as
// one verbatim substring.
import { expect, it } from "vitest";
import { renderMemorySearch, runMemorySearch } from "../bench/memory-search.js";

it("reports search_nodes latency, hits and rank for strand memory and the reference server", async () => {
  const rows = await runMemorySearch({ entities: 300, queries: 5, seed: 3, log: () => {} });
  expect(rows.map((r) => [r.server, r.query])).toEqual([
    ["reference", "one word"],
    ["reference", "two words"],
    ["strand", "one word"],
    ["strand", "two words"],
  ]);
  expect(rows.filter((r) => r.query === "one word").map((r) => r.found)).toEqual([1, 1]);
  expect(rows.find((r) => r.server === "strand" && r.query === "two words")!.found).toBe(1);
  expect(renderMemorySearch(rows, 300)).toContain("strand     two words");
}, 120_000);
