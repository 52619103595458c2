// SearchV: the k most similar vectors of a type that exist in the caller's snapshot.
//
// Candidates come from the in-memory structures, which may be ahead of the snapshot (a vector
// added or dropped after it began) or behind it (a committed write whose log is not applied yet,
// searched through the pending logs). Every candidate is therefore checked against the snapshot
// (its id must map to its slot there), re-scored in f64 from the stored record, and the search
// widens until it has min(k, live vectors in the snapshot) results. When the structures cannot
// supply that many, it ranks every vector of the snapshot from LMDB: never fewer than k.
// With a filter (`keep`) it is the best k of those that pass, searched as searchKept says.
import { StrandError } from "../../core/errors.js";
import type { NodeItem } from "../../core/items.js";
import { keyId } from "../store/keys.js";
import type { VectorTypeInfo } from "../store/schema-info.js";
import { type ExactVectors, TopN, type Scored } from "./brute-force.js";
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
  let found: Scored[] | null = [];
  if (keep !== undefined) {
    if (meta.live > EXACT_LIMIT || exact) found = searchKept({ req, keep, query, target, ef, exact, available, live: meta.live });
  } else if (meta.live > EXACT_LIMIT || exact) {
    for (let n = target; ; n *= 2) {
      const candidates: IndexedVector[] = exact ? exact.top(query, options.metric, n) : index.nearest(query, n, ef);
      found = collect(candidates, req.pending, label, rescore);
      if (found.length >= target || n >= available) break;
    }
  }
  if (found === null || found.length < target) {
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

interface KeptSearch {
  req: SearchRequest;
  keep: (rec: NodeItem) => boolean;
  query: readonly number[];
  target: number;
  /** The breadth the unfiltered search for `target` would use. */
  ef: number;
  exact: ExactVectors | null;
  available: number;
  live: number;
}

// `SearchV(…)::WHERE(p)` with no INDEX to narrow it: the k best that pass are the first k that pass
// in the index's nearest-first order, so the search reads records only up to the k-th that passes
// (its depth d, about k / pass rate) — but HNSW finds deep neighbours only with a wider breadth.
// Measured on 100k random unit vectors of dimension 128 (bench/vector-filtered.ts data, ef 1,706
// unfiltered for k = 10), the breadth for recall@10 ≥ 0.95 among those that pass was ~2,000 at
// d ≈ 33 (30% pass), ~2,500 at d ≈ 200 (5%), ~3,700 at d ≈ 1,000 (1%), ~5,000 at d ≈ 3,300
// (0.3%); on 20k (ef 400) ~700 at d ≈ 200 and ~1,300 at d ≈ 1,000. breadthFor covers each of
// these by 3–20%: ef + DEPTH_EF·√((d − k)·ef), and never under COVER·d (the k-th that passes
// lies past 1.4·d in a tenth of the searches). At 1% that is ~4,050 wide, ~2.1× the unfiltered
// search's cost, plus ~1,000 records read: 2.7× in all, recall 0.958 (DEPTH_EF 2: 0.964, 2.8×).
const DEPTH_EF = 1.8;
const COVER = 1.5;
/**
 * d is first estimated from a fixed sample of the type's members (SAMPLE_SIZE, or until
 * SAMPLE_PASSED pass): the same slots every time, so their records stay in the read cache
 * (~1.7 µs each then: 0.9 ms for 512 in the bench, against ~6 ms for the unfiltered search). Then the search's
 * own depth decides: a filter that passes more or fewer near this query than overall is searched
 * again, wider, when that depth needs more than SLACK times the breadth used.
 */
const SAMPLE_SIZE = 512;
const SAMPLE_PASSED = 32;
const SLACK = 1.5;
/**
 * Past half the vectors a search costs more than reading each record once (measured: HNSW
 * ~1.3–2.5 µs per unit of breadth, a cached record ~1–1.5 µs and a cold one ~20 µs), so every
 * vector is scored instead. That is also the way when fewer than k pass at all.
 */
const SCAN_AT = 2;

/**
 * The best `target` vectors that pass `keep` (fewer only when fewer pass among those the index
 * holds: the caller then scans), or null when scanning every vector costs less.
 */
function searchKept(s: KeptSearch): Scored[] | null {
  const { query, target, keep } = s;
  const { info, index, snapshot, options, pending } = s.req;
  const label = info.name;
  // `keep` first, the slot check (a point read) only for those that pass.
  const judge = (slot: number, id: string): Scored | null => {
    const rec = snapshot.record(label, id);
    if (rec === undefined) {
      if (snapshot.slotOf(label, id) === slot) throw new Error(`V::${label} '${id}' has a slot but no record`);
      return null;
    }
    if (!keep(rec) || snapshot.slotOf(label, id) !== slot) return null;
    return { slot, id, score: similarity(options.metric, query, vectorOf(info, rec)) };
  };
  // The index's candidates, each judged once per search whichever rounds see it (in one search
  // a slot of the index names one id).
  const verdicts = new Map<number, Scored | null>();
  const judgeIndexed = (slot: number, id: string): Scored | null => {
    const known = verdicts.get(slot);
    if (known !== undefined) return known;
    const v = judge(slot, id);
    verdicts.set(slot, v);
    return v;
  };
  const withPending = (kept: Scored[]): Scored[] => {
    const seen = new Set(kept.map((v) => v.slot));
    for (const p of pending) {
      if (p.label !== label || seen.has(p.slot)) continue;
      const v = judge(p.slot, p.id);
      if (v !== null) {
        seen.add(p.slot);
        kept.push(v);
      }
    }
    return kept;
  };
  if (s.exact) {
    // In exact order the first `target` that pass are the answer.
    const kept: Scored[] = [];
    for (const c of s.exact.top(query, options.metric, s.exact.size)) {
      const v = judge(c.slot, c.id);
      if (v !== null && kept.push(v) === target) break;
    }
    return withPending(kept);
  }
  const breadthFor = (depth: number): number => Math.max(s.ef + DEPTH_EF * Math.sqrt(Math.max(0, depth - target) * s.ef), COVER * depth);
  let n = Math.min(s.available, Math.ceil(breadthFor(sampledDepth(s))));
  for (;;) {
    // The first `target` candidates that pass, nearest first, and how deep that went.
    const kept: Scored[] = [];
    let depth = 0;
    for (const slot of index.nearestSlots(query, n, n)) {
      depth++;
      const id = index.idOf(slot);
      const v = id === undefined ? null : judgeIndexed(slot, id);
      if (v !== null && kept.push(v) === target) break;
    }
    const enough = kept.length >= target;
    const need = breadthFor(enough ? depth : (target * (depth + 1)) / (kept.length + 1));
    if ((enough && need <= n * SLACK) || n >= s.available) return withPending(kept);
    if (need > s.live / SCAN_AT) return null;
    n = Math.min(s.available, Math.max(Math.ceil(need), 2 * n));
  }
}

/** The depth of the `target`-th vector that passes, at the pass rate of a fixed sample of the type. */
function sampledDepth(s: KeptSearch): number {
  const { snapshot, info, index } = s.req;
  const span = snapshot.meta(info.name)?.nextSlot ?? 0;
  let sampled = 0;
  let passed = 0;
  for (let i = 1; i <= 4 * SAMPLE_SIZE && sampled < SAMPLE_SIZE && passed < SAMPLE_PASSED; i++) {
    const id = index.idOf(mix32(i) % span);
    const rec = id === undefined ? undefined : snapshot.record(info.name, id);
    if (rec === undefined) continue;
    sampled++;
    if (s.keep(rec)) passed++;
  }
  return (s.target * (sampled + 1)) / (passed + 1);
}

/**
 * A fixed scramble of i (murmur3's finalizer), for sample slots no filter's arithmetic shares: a
 * golden-ratio stride left many of the bench's tags (tag = (i + ⌊i/100⌋) mod 100) out entirely.
 */
function mix32(i: number): number {
  let h = Math.imul(i ^ (i >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
