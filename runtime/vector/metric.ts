// Vector parameters and the similarity every search result reports as `score` (higher is
// better). Scores are computed in f64 from the stored vectors, whatever produced the candidates,
// so the exact and the HNSW path report identical numbers for the same vector.
import { StrandError } from "../../core/errors.js";
import { F32_RULE, fitsF32 } from "../../core/numeric.js";
import { describeValue } from "../../core/values.js";

export type Metric = "cosine" | "l2" | "ip";
export const METRICS: readonly Metric[] = ["cosine", "l2", "ip"];

export interface VectorOptions {
  /** HNSW links per node (hnswlib's M). */
  m: number;
  efConstruction: number;
  /** The search breadth floor; a query may override it (see effectiveEf). */
  efSearch: number;
  metric: Metric;
}

export const DEFAULT_VECTOR_OPTIONS: Readonly<VectorOptions> = { m: 16, efConstruction: 128, efSearch: 64, metric: "cosine" };

/**
 * Without a per-query ef, HNSW searches with ef = max(ef_search, EF_PER_K · k · growth(n)).
 * Measured on 20k uniformly random unit vectors of dimension 128 (m 16, ef_construction 128),
 * recall@10 is 0.52 at ef 64, 0.82 at 200, 0.94 at 400 and 0.99 at 800: uniform high-dimensional
 * data needs a breadth proportional to k. It also needs more as the index grows (raw hnswlib,
 * same parameters, 100 queries): at 50k 0.81 at ef 400, 0.94 at 800, 0.98 at 1200; at 100k 0.66
 * at 400, 0.92 at 1200, 0.955 at 1600, 0.985 at 2400. So beyond EF_REFERENCE_SIZE vectors the
 * breadth grows as (n / EF_REFERENCE_SIZE)^EF_GROWTH (×2.3 at 50k, ×4.3 at 100k: 1706 for k 10),
 * never beyond n.
 */
export const EF_PER_K = 40;
export const EF_REFERENCE_SIZE = 20_000;
export const EF_GROWTH = 0.9;

/** SearchV's breadth when the query gives none: for k results out of `live` vectors. */
export function defaultEf(efSearch: number, k: number, live: number): number {
  const growth = live > EF_REFERENCE_SIZE ? (live / EF_REFERENCE_SIZE) ** EF_GROWTH : 1;
  return Math.max(efSearch, Math.min(Math.ceil(EF_PER_K * k * growth), Math.max(live, k)));
}

/** Types with at most this many live vectors are searched exactly (brute force), never by HNSW. */
export const EXACT_LIMIT = 4096;

/** Validates options (e.g. from strand.toml); an Error names the offending key. */
export function resolveVectorOptions(given: Partial<VectorOptions> | undefined): VectorOptions {
  const o: VectorOptions = { ...DEFAULT_VECTOR_OPTIONS };
  // An option given as undefined keeps its default.
  for (const [key, value] of Object.entries(given ?? {})) if (value !== undefined) (o as unknown as Record<string, unknown>)[key] = value;
  const int = (key: "m" | "efConstruction" | "efSearch", min: number): void => {
    const v = o[key];
    if (!Number.isInteger(v) || v < min || v > 1_000_000)
      throw new Error(`vector option ${key} must be an integer from ${min} to 1000000, got ${String(v)}`);
  };
  int("m", 2);
  int("efConstruction", 1);
  int("efSearch", 1);
  if (!METRICS.includes(o.metric)) throw new Error(`vector option metric must be one of ${METRICS.join(", ")}, got ${String(o.metric)}`);
  return o;
}

/**
 * Why component `x` of a vector is rejected ("must ...", after the component's name) or null when
 * it is fine: the one vector-component check, used for vector parameters (server/http/params.ts),
 * vectors written or searched (checkVector) and vectors an embedding provider returns.
 */
export function vectorComponentProblem(x: unknown): string | null {
  if (typeof x !== "number" || !Number.isFinite(x)) return `must be a finite number, got ${describeValue(x)}`;
  if (!fitsF32(x)) return `${F32_RULE}, got ${describeValue(x)}`;
  return null;
}

/**
 * Why `value` is not a vector — a non-empty array of finite numbers within the f32 range — as the
 * rest of a message after the vector's name (" must not be empty", "[2] must be a finite number,
 * got null"), or null when it is one.
 */
export function vectorProblem(value: unknown): string | null {
  if (!Array.isArray(value)) return " must be an array of numbers";
  if (value.length === 0) return " must not be empty";
  for (let i = 0; i < value.length; i++) {
    const problem = vectorComponentProblem(value[i]);
    if (problem !== null) return `[${i}] ${problem}`;
  }
  return null;
}

/**
 * A vector argument as given: a non-empty array of finite numbers within the f32 range. Returns a
 * plain copy (what is stored as `data`), or throws INVALID_VALUE naming `what` and the component.
 */
export function checkVector(value: unknown, what: string): number[] {
  const problem = vectorProblem(value);
  if (problem !== null) throw new StrandError("INVALID_VALUE", `${what}${problem}`);
  return (value as number[]).slice();
}

export function dimensionMismatch(label: string, expected: number, got: number): StrandError {
  return new StrandError("DIMENSION_MISMATCH", `V::${label} vectors have ${expected} dimensions, got a vector of ${got}`);
}

// Squared norms inside [NORM_LOW, NORM_HIGH] are summed without losing anything that matters
// (a term that underflowed is below 2^-1022, negligible next to 1e-150) and their product cannot
// overflow or underflow. Anything else — tiny components (1e-200) whose squares underflow to 0,
// or huge ones (vectors stored before the f32 check) whose squares overflow — is recomputed with
// each vector divided by its largest |component|, so every finite input gets a finite score.
const NORM_LOW = 1e-150;
const NORM_HIGH = 1e150;

/**
 * cosine: cosine similarity (0 when either vector is all zeros: it has no direction, so it is
 * taken to be orthogonal to everything); l2: minus the squared euclidean distance (monotone in
 * the distance, exact, and 0 for an identical vector); ip: inner product. Always a finite number
 * for finite components: scores beyond the f64 range (only reachable with components beyond the
 * f32 range) are clamped to ±Number.MAX_VALUE, so a score never serialises as null.
 */
export function similarity(metric: Metric, a: ArrayLike<number>, b: ArrayLike<number>, bOffset = 0): number {
  const n = a.length;
  if (metric === "l2") {
    let d = 0;
    for (let i = 0; i < n; i++) {
      const t = a[i]! - b[bOffset + i]!;
      d += t * t;
    }
    return d <= Number.MAX_VALUE ? -d : -scaledSquaredDistance(a, b, bOffset);
  }
  let dot = 0;
  if (metric === "ip") {
    for (let i = 0; i < n; i++) dot += a[i]! * b[bOffset + i]!;
    return Number.isFinite(dot) ? dot : scaledDot(a, b, bOffset);
  }
  let na = 0;
  let nb = 0;
  for (let i = 0; i < n; i++) {
    const x = a[i]!;
    const y = b[bOffset + i]!;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  if (na >= NORM_LOW && na <= NORM_HIGH && nb >= NORM_LOW && nb <= NORM_HIGH) return dot / Math.sqrt(na * nb);
  return scaledCosine(a, b, bOffset);
}

/** The largest |component| of v[offset .. offset + n). */
function maxAbs(v: ArrayLike<number>, offset: number, n: number): number {
  let m = 0;
  for (let i = 0; i < n; i++) m = Math.max(m, Math.abs(v[offset + i]!));
  return m;
}

function clampFinite(x: number): number {
  return Number.isNaN(x) ? 0 : Math.max(-Number.MAX_VALUE, Math.min(Number.MAX_VALUE, x));
}

function scaledCosine(a: ArrayLike<number>, b: ArrayLike<number>, bOffset: number): number {
  const n = a.length;
  const sa = maxAbs(a, 0, n);
  const sb = maxAbs(b, bOffset, n);
  if (sa === 0 || sb === 0) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < n; i++) {
    const x = a[i]! / sa;
    const y = b[bOffset + i]! / sb;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  // na and nb are in [1, n]: the largest component became ±1.
  return dot / Math.sqrt(na * nb);
}

function scaledDot(a: ArrayLike<number>, b: ArrayLike<number>, bOffset: number): number {
  const n = a.length;
  const sa = maxAbs(a, 0, n);
  const sb = maxAbs(b, bOffset, n);
  if (sa === 0 || sb === 0) return 0;
  let dot = 0;
  for (let i = 0; i < n; i++) dot += (a[i]! / sa) * (b[bOffset + i]! / sb);
  return clampFinite(dot * sa * sb);
}

/** The squared euclidean distance, computed on a common scale (clamped to Number.MAX_VALUE). */
function scaledSquaredDistance(a: ArrayLike<number>, b: ArrayLike<number>, bOffset: number): number {
  const n = a.length;
  const s = Math.max(maxAbs(a, 0, n), maxAbs(b, bOffset, n));
  if (s === 0) return 0;
  let d = 0;
  for (let i = 0; i < n; i++) {
    const t = a[i]! / s - b[bOffset + i]! / s;
    d += t * t;
  }
  return clampFinite(d * s * s);
}

/** Result order: score descending, then id ascending (deterministic ties). */
export function better(aScore: number, aId: string, bScore: number, bId: string): boolean {
  return aScore > bScore || (aScore === bScore && aId < bId);
}
