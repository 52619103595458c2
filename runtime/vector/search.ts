// SearchV: the k most similar vectors of a type that exist in the caller's snapshot.
//
// Candidates come from the in-memory structures, which may be ahead of the snapshot (a vector
// added or dropped after it began) or behind it (a committed write whose log is not applied yet,
// searched through the pending logs). Every candidate is therefore checked against the snapshot
// (its id must map to its slot there), re-scored in f64 from the stored record, and the search
// widens until it has min(k, live vectors in the snapshot) results. When the structures cannot
// supply that many, it ranks every vector of the snapshot from LMDB: never fewer than k.
import { StrandError } from "../../core/errors.js";
import type { NodeItem } from "../../core/items.js";
import { keyId } from "../store/keys.js";
import type { VectorTypeInfo } from "../store/schema-info.js";
import { TopN, type Scored } from "./brute-force.js";
import type { VectorAdd } from "./changes.js";
import { EXACT_LIMIT, checkVector, defaultEf, dimensionMismatch, similarity, type VectorOptions } from "./metric.js";
import type { VectorTypeMeta } from "../store/vector-type-meta.js";
import type { IndexedVector, VectorIndex } from "./vector-index.js";
import { vectorOf } from "./vector-records.js";

/** The caller's transaction, as search needs it. */
export interface VectorSnapshot {
  meta(label: string): VectorTypeMeta | undefined;
  slotOf(label: string, id: string): number | undefined;
  record(label: string, id: string): NodeItem | undefined;
  /** Every live vector of the type: (id, slot) in id order. */
  slots(label: string): Iterable<IndexedVector>;
}

/** A `vector_ids` range (itemKey(label, id) → slot) as the (id, slot) pairs `VectorSnapshot.slots` yields. */
export function slotsOfRange(entries: Iterable<{ key: Uint8Array; value: number }>): Iterable<IndexedVector> {
  return {
    *[Symbol.iterator]() {
      for (const { key, value } of entries) yield { slot: value, id: keyId(key) };
    },
  };
}

export interface SearchRequest {
  info: VectorTypeInfo;
  index: VectorIndex;
  /** Adds of logs not yet applied (their vectors may or may not be in the snapshot). */
  pending: readonly VectorAdd[];
  snapshot: VectorSnapshot;
  options: VectorOptions;
  query: unknown;
  k: unknown;
  ef: unknown;
  /** `SearchV(…)::WHERE(p)`: only vectors whose record passes take part (the best k of those). */
  keep?: ((rec: NodeItem) => boolean) | undefined;
}

/** Which path answered, for tests and benchmarks. */
export type SearchPath = "exact-copy" | "hnsw" | "lmdb-scan" | "empty";

export interface SearchOutcome {
  items: NodeItem[];
  path: SearchPath;
}

/** `value` as an integer >= min, or INVALID_VALUE naming `what`. */
export function checkCount(value: unknown, what: string, min: number): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min) {
    throw new StrandError(
      "INVALID_VALUE",
      `${what} must be an integer >= ${min}, got ${typeof value === "number" ? String(value) : typeof value}`,
    );
  }
  return value;
}

/** `rec` with `score` after `data` (or after `label` when the vector is a field). */
export function withScore(rec: NodeItem, score: number): NodeItem {
  const out: NodeItem = { id: rec.id, label: rec.label };
  if (rec.data !== undefined) out.data = rec.data;
  out.score = score;
  for (const key in rec) if (key !== "id" && key !== "label" && key !== "data") out[key] = rec[key]!;
  return out;
}

export function searchVectors(req: SearchRequest): SearchOutcome {
  const { info, index, snapshot, options, keep } = req;
  const label = info.name;
  const query = checkVector(req.query, `query vector for V::${label}`);
  const k = checkCount(req.k, "k", 0);
  const efOverride = req.ef === null || req.ef === undefined ? null : checkCount(req.ef, "ef", 1);
  const meta = snapshot.meta(label);
  if (meta === undefined) return { items: [], path: "empty" };
  if (query.length !== meta.dimension) throw dimensionMismatch(label, meta.dimension, query.length);
  const target = Math.min(k, meta.live);
  if (target === 0) return { items: [], path: "empty" };

  const rescore = (c: IndexedVector): Scored | null => {
    if (snapshot.slotOf(label, c.id) !== c.slot) return null; // not (or no longer) in this snapshot
    const rec = snapshot.record(label, c.id);
    if (rec === undefined) throw new Error(`V::${label} '${c.id}' has a slot but no record`);
    if (keep !== undefined && !keep(rec)) return null;
    return { slot: c.slot, id: c.id, score: similarity(options.metric, query, vectorOf(info, rec)) };
  };

  const exact = meta.live <= EXACT_LIMIT ? index.exact : null;
  let path: SearchPath = exact ? "exact-copy" : "hnsw";
  // Only an index that mirrors LMDB up to some generation is a complete source; otherwise scan.
  const available = exact ? exact.size : index.live;
  const needed = defaultEf(options.efSearch, target, meta.live);
  if (efOverride !== null && meta.live > EXACT_LIMIT) warnIfNarrow(label, efOverride, needed, meta.live);
  const ef = efOverride ?? needed;
  let found: Scored[] = [];
  if (meta.live > EXACT_LIMIT || exact) {
    // With a filter, the first round asks the index for as many candidates as its breadth visits
    // anyway (the same search cost as k): at 1% passing, ef ≈ 1,700 at 100k holds ~17 that pass,
    // where widening from k took ~8 searches of that cost.
    const first = keep !== undefined && !exact ? Math.max(target, Math.min(ef, available)) : target;
    for (let n = first; ; n *= 2) {
      const candidates: IndexedVector[] = exact ? exact.top(query, options.metric, n) : index.nearest(query, n, ef);
      found = collect(candidates, req.pending, label, rescore);
      if (found.length >= target || n >= available) break;
      // A filter few vectors pass: at the rate seen so far, the candidates that would hold `target`
      // passing ones are more than a scan's worth; scanning every vector once costs less.
      if (keep !== undefined && !exact && (target * n) / Math.max(found.length, 1) > meta.live / SCAN_FRACTION) break;
    }
  }
  if (found.length < target) {
    path = "lmdb-scan";
    found = [];
    for (const c of snapshot.slots(label)) {
      const s = rescore(c);
      if (s) found.push(s);
    }
  }
  const best = new TopN(target);
  for (const s of found) best.push(s);
  const items = best.sorted().map((s) => withScore(snapshot.record(label, s.id)!, s.score));
  return { items, path };
}

/**
 * With a filter, the index is searched while the candidates it would take stay under
 * 1/SCAN_FRACTION of the type's vectors; past that, every vector is scored once instead.
 */
const SCAN_FRACTION = 8;

/** Types already warned about (once per process each). */
const warnedNarrow = new Set<string>();

/** An explicit ef under a quarter of the default breadth: recall will be far below the default's; say so once. */
function warnIfNarrow(label: string, ef: number, needed: number, live: number): void {
  if (ef * 4 >= needed || warnedNarrow.has(label)) return;
  warnedNarrow.add(label);
  console.warn(
    `SearchV<${label}>: ef ${ef} is far below the ${needed} the index of ${live} vectors needs for recall@k near 0.95 by default; results will miss many true nearest neighbours (this is logged once)`,
  );
}

/**
 * Candidates plus pending adds of the type, kept when visible in the snapshot, each slot once.
 * A slot is marked seen only once visible: a rolled-back write may have used the same slot
 * number as a later one (slots are allocated in the transaction).
 */
function collect(
  candidates: readonly IndexedVector[],
  pending: readonly VectorAdd[],
  label: string,
  rescore: (c: IndexedVector) => Scored | null,
): Scored[] {
  const seen = new Set<number>();
  const out: Scored[] = [];
  const consider = (c: IndexedVector): void => {
    if (seen.has(c.slot)) return;
    const s = rescore(c);
    if (s === null) return;
    seen.add(c.slot);
    out.push(s);
  };
  for (const c of candidates) consider(c);
  for (const p of pending) if (p.label === label) consider(p);
  return out;
}
