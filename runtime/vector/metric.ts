// Vector parameters and the similarity every search result reports as `score` (higher is
// better). Scores are computed in f64 from the stored vectors, whatever produced the candidates,
// so the exact and the HNSW path report identical numbers for the same vector.
import { StrandError } from "../errors.js";

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
 * Without a per-query ef, HNSW searches with ef = max(ef_search, EF_PER_K · k). Measured on 20k
 * uniformly random unit vectors of dimension 128 (m 16, ef_construction 128), recall@10 is
 * 0.52 at ef 64, 0.88 at 256, 0.92 at 320 and 0.95 at 400: uniform high-dimensional data needs
 * a search breadth proportional to k, a fixed 64 is only enough for clustered data.
 */
export const EF_PER_K = 40;

/** Types with at most this many live vectors are searched exactly (brute force), never by HNSW. */
export const EXACT_LIMIT = 4096;

/** Validates options (e.g. from strand.toml); an Error names the offending key. */
export function resolveVectorOptions(given: Partial<VectorOptions> | undefined): VectorOptions {
  const o: VectorOptions = { ...DEFAULT_VECTOR_OPTIONS };
  // An option given as undefined keeps its default.
  for (const [key, value] of Object.entries(given ?? {})) if (value !== undefined) (o as unknown as Record<string, unknown>)[key] = value;
  const int = (key: "m" | "efConstruction" | "efSearch", min: number): void => {
    const v = o[key];
    if (!Number.isInteger(v) || v < min || v > 1_000_000) throw new Error(`vector option ${key} must be an integer from ${min} to 1000000, got ${String(v)}`);
  };
  int("m", 2);
  int("efConstruction", 1);
  int("efSearch", 1);
  if (!METRICS.includes(o.metric)) throw new Error(`vector option metric must be one of ${METRICS.join(", ")}, got ${String(o.metric)}`);
  return o;
}

/**
 * A vector argument as given: a non-empty array of finite numbers. Returns a plain copy (what is
 * stored as `data`), or throws INVALID_VALUE naming `what`.
 */
export function checkVector(value: unknown, what: string): number[] {
  if (!Array.isArray(value)) throw new StrandError("INVALID_VALUE", `${what} must be an array of numbers`);
  if (value.length === 0) throw new StrandError("INVALID_VALUE", `${what} must not be empty`);
  const out = new Array<number>(value.length);
  for (let i = 0; i < value.length; i++) {
    const x: unknown = value[i];
    if (typeof x !== "number" || !Number.isFinite(x)) {
      throw new StrandError("INVALID_VALUE", `${what}[${i}] must be a finite number, got ${typeof x === "number" ? String(x) : typeof x}`);
    }
    out[i] = x;
  }
  return out;
}

export function dimensionMismatch(label: string, expected: number, got: number): StrandError {
  return new StrandError("DIMENSION_MISMATCH", `V::${label} vectors have ${expected} dimensions, got a vector of ${got}`);
}

/**
 * cosine: cosine similarity (0 when either vector is all zeros); l2: minus the squared euclidean
 * distance (monotone in the distance, exact, and 0 for an identical vector); ip: inner product.
 */
export function similarity(metric: Metric, a: ArrayLike<number>, b: ArrayLike<number>, bOffset = 0): number {
  const n = a.length;
  if (metric === "l2") {
    let d = 0;
    for (let i = 0; i < n; i++) {
      const t = a[i]! - b[bOffset + i]!;
      d += t * t;
    }
    return -d;
  }
  let dot = 0;
  if (metric === "ip") {
    for (let i = 0; i < n; i++) dot += a[i]! * b[bOffset + i]!;
    return dot;
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
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** Result order: score descending, then id ascending (deterministic ties). */
export function better(aScore: number, aId: string, bScore: number, bId: string): boolean {
  return aScore > bScore || (aScore === bScore && aId < bId);
}
