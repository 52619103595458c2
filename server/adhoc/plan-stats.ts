// The counts a plan's row estimates start from: records of each type (the store walks their keys,
// so the answer is kept a few seconds: an explain is cheap even on a large store) and each edge
// type's ends, from the schema.
import type { SchemaDescriptor } from "../../core/schema.js";
import type { QueryStore } from "../../runtime/query/query-store.js";
import type { AdHocPlanStats } from "./adhoc-compiler.js";

const KEPT_MS = 5_000;

export function planStatsOf(store: QueryStore, schema: SchemaDescriptor, now: () => number = Date.now): () => AdHocPlanStats | null {
  const edgeEnds = Object.fromEntries(schema.edges.map((e) => [e.name, { from: e.from, to: e.to }]));
  let kept: { at: number; stats: AdHocPlanStats } | null = null;
  return () => {
    if (store.stats === undefined) return null;
    if (kept === null || now() - kept.at >= KEPT_MS) {
      const records = Object.fromEntries(store.stats().records.map((r) => [r.type, r.count]));
      kept = { at: now(), stats: { records, edgeEnds } };
    }
    return kept.stats;
  };
}
