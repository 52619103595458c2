// Filtered vector search (issue 35 item 3), in process: `count` unit vectors of dimension 128 in
// `V::Mem { INDEX group: U32, tag: U32 }`, each group and each tag held by 1% of them. For each
// query, side by side in alternating blocks: SearchV k = 10 unfiltered, then
// SearchV(…)::WHERE(group EQ g) (an INDEX condition) and ::WHERE(tag EQ t) (no index serves it),
// each with a random 1% of the vectors passing. Reported: recall@10 against brute force among
// the passing vectors, how often k came back, and p50 latency as a ratio to the unfiltered search.
// Target: k always, recall@10 ≥ 0.95, latency within 3× the unfiltered search.
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { NodeItem } from "../core/items.js";
import type { SchemaDescriptor } from "../core/schema.js";
import { GraphStore } from "../runtime/graph-store.js";
import { similarity } from "../runtime/vector/metric.js";
import { seededRandom } from "./random.js";
import { quantileSorted } from "./stats.js";
import { unitVectors, vectorAt } from "./vector-data.js";

export const FILTERED_TARGETS = { recall: 0.95, latencyRatio: 3 } as const;

const DIM = 128;
const K = 10;
const GROUPS = 100;
const WRITE_BATCH = 5_000;

const schema: SchemaDescriptor = {
  nodes: [],
  edges: [],
  vectors: [
    {
      name: "Mem",
      fields: [
        { name: "group", type: { kind: "scalar", name: "U32" }, index: "index", default: null },
        { name: "tag", type: { kind: "scalar", name: "U32" }, index: "none", default: null },
        { name: "n", type: { kind: "scalar", name: "U32" }, index: "none", default: null },
      ],
    },
  ],
};

export interface FilteredRow {
  filter: "none" | "INDEX 1%" | "no index 1%";
  recall: number;
  /** share of queries that returned k results */
  fullK: number;
  p50Us: number;
  p99Us: number;
  /** p50 ÷ the unfiltered search's p50 */
  ratio: number;
}

export interface FilteredSettings {
  root: string;
  count: number;
  queries: number;
  seed: number;
  log: (line: string) => void;
}

export async function runFilteredSearch(settings: FilteredSettings): Promise<FilteredRow[]> {
  const random = seededRandom(settings.seed);
  const set = unitVectors(random, settings.count, DIM);
  // group and tag each on 1% of the vectors (any count that is a multiple of 100), and a group's
  // vectors spread over the tags
  const groupOf = (i: number): number => i % GROUPS;
  const tagOf = (i: number): number => (i + Math.floor(i / GROUPS)) % GROUPS;
  const dir = join(settings.root, "filtered-search");
  const store = GraphStore.open({ path: dir, schema });
  try {
    settings.log(`filtered search: writing ${settings.count} vectors`);
    for (let start = 0; start < set.count; start += WRITE_BATCH) {
      const end = Math.min(set.count, start + WRITE_BATCH);
      await store.write((db) => {
        for (let i = start; i < end; i++) db.addVector("Mem", vectorAt(set, i), { group: groupOf(i), tag: tagOf(i), n: i });
      });
    }
    const queries = unitVectors(random, settings.queries, DIM);
    const cases: {
      filter: FilteredRow["filter"];
      run: (q: number[], value: number) => NodeItem[];
      passes: (i: number, value: number) => boolean;
    }[] = [
      { filter: "none", run: (q) => store.read((db) => db.searchVectors("Mem", q, K)), passes: () => true },
      {
        filter: "INDEX 1%",
        run: (q, g) =>
          store.read((db) => db.searchVectorsWhere("Mem", q, K, null, (m) => m.group === g, [{ field: "group", op: "EQ", value: g }])),
        passes: (i, g) => groupOf(i) === g,
      },
      {
        filter: "no index 1%",
        run: (q, t) => store.read((db) => db.searchVectorsWhere("Mem", q, K, null, (m) => m.tag === t)),
        passes: (i, t) => tagOf(i) === t,
      },
    ];
    const times = cases.map(() => [] as number[]);
    const found = cases.map(() => 0);
    const full = cases.map(() => 0);
    for (let round = 0; round < 2; round++) {
      // Round 0 warms up; round 1 is timed. Cases alternate per query, so drift hits all alike.
      for (let qi = 0; qi < queries.count; qi++) {
        const q = vectorAt(queries, qi);
        const value = Math.floor(random() * GROUPS);
        cases.forEach((c, ci) => {
          const t0 = performance.now();
          const hits = c.run(q, value);
          const us = (performance.now() - t0) * 1000;
          if (round === 0) return;
          times[ci]!.push(us);
          if (hits.length === K) full[ci]!++;
          const truth = new Set(bruteForce(set, q, (i) => c.passes(i, value)));
          found[ci]! += hits.filter((h) => truth.has(h.n as number)).length;
        });
      }
    }
    const p50 = times.map((t) =>
      quantileSorted(
        [...t].sort((a, b) => a - b),
        0.5,
      ),
    );
    return cases.map((c, ci) => {
      const sorted = [...times[ci]!].sort((a, b) => a - b);
      return {
        filter: c.filter,
        recall: found[ci]! / (queries.count * K),
        fullK: full[ci]! / queries.count,
        p50Us: Math.round(p50[ci]!),
        p99Us: Math.round(quantileSorted(sorted, 0.99)),
        ratio: p50[ci]! / p50[0]!,
      };
    });
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function bruteForce(set: ReturnType<typeof unitVectors>, q: readonly number[], pass: (i: number) => boolean): number[] {
  const scored: { i: number; s: number }[] = [];
  for (let i = 0; i < set.count; i++) if (pass(i)) scored.push({ i, s: similarity("cosine", q, set.flat, i * set.dim) });
  return scored
    .sort((a, b) => b.s - a.s)
    .slice(0, K)
    .map((x) => x.i);
}

export function renderFiltered(rows: readonly FilteredRow[], count: number): string {
  const lines = [
    `Filtered SearchV, ${count} vectors of dimension 128, k = ${K} (targets: k always, recall@10 ≥ ${FILTERED_TARGETS.recall}, p50 ≤ ${FILTERED_TARGETS.latencyRatio}× unfiltered)`,
    "  filter        recall@10  k returned  p50 µs  p99 µs  p50 ÷ unfiltered",
  ];
  for (const r of rows)
    lines.push(
      `  ${r.filter.padEnd(12)}  ${r.recall.toFixed(3).padStart(9)}  ${`${(r.fullK * 100).toFixed(0)}%`.padStart(10)}  ${String(r.p50Us).padStart(6)}  ${String(r.p99Us).padStart(6)}  ${`${r.ratio.toFixed(2)}×`.padStart(16)}`,
    );
  return lines.join("\n");
}
