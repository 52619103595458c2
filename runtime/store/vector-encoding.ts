// Vectors are stored once, as 4-byte floats (format 4): in a vector record (`nodes`), the member
// holding the vector (`data`, or the type's `embedding` field) is a msgpack binary of its
// components as f32 little-endian, not an array of f64. The `nodes` database's encoder does it
// (withF32Vectors): writing a record of a vector type swaps the member for its bytes; reading any
// record turns a binary member (no other member can hold one: field values are JSON) back into
// numbers, each the shortest decimal that reads back as the same f32 (shortestF32), so `0.1`
// stored comes back as `0.1` and `0.123456789` as `0.12345679`. Writers round a vector that way
// when they build its record (runtime/vector/vector-records.ts), so what a write returns is what
// later reads return. The HNSW index holds f32 too, so searches are unchanged. A 128-d vector is
// 512 bytes instead of msgpack's 9 per f64 component, and decoding one costs about 8 µs. Exact f64
// vectors are not offered: the HNSW index is f32 anyway, and an `[F64]` field of a node keeps
// every digit. Replicas and migrations write through the same encoder.
const F32 = new Float32Array(1);
const F32_BITS = new Uint32Array(F32.buffer);

/** Powers of ten that are exact doubles (10^0 .. 10^22). */
const POW10: number[] = [];
for (let i = 0; i <= 22; i++) POW10.push(10 ** i);
/** 10^e for e in -50 .. 50 (as `10 ** e` computes them), at index e + 50. */
const TEN: number[] = [];
for (let e = -50; e <= 50; e++) TEN.push(10 ** e);

/**
 * `a` (> 0) rounded to `digits` significant digits, as the double nearest that decimal:
 * numerically when the power of ten involved is exact (m / 10^k and m * 10^k are then correctly
 * rounded), else through toPrecision. Halves round up (away from zero), as toPrecision rounds;
 * only a product exactly halfway could round the other way, and callers check the result anyway.
 */
function toDigits(a: number, digits: number, exp10: number): number {
  const k = digits - 1 - exp10;
  if (k >= 0 && k <= 22) return Math.round(a * POW10[k]!) / POW10[k]!;
  if (k < 0 && k >= -22) return Math.round(a / POW10[-k]!) * POW10[-k]!;
  return Number(a.toPrecision(digits));
}

/** The number nearest `x` as f32, written with the fewest significant digits that read back as that f32. */
export function shortestF32(x: number): number {
  const f = Math.fround(x);
  if (f === 0 || !Number.isFinite(f)) return f;
  const a = f < 0 ? -f : f;
  let exp10 = Math.floor(Math.log10(a));
  // log10 can be off by one next to a power of ten.
  if (a < TEN[exp10 + 50]!) exp10--;
  else if (a >= TEN[exp10 + 51]!) exp10++;
  let best = 0;
  F32[0] = a;
  if (((F32_BITS[0] ?? 0) & 0x7fffff) === 0) {
    // Just above a power of two the f32 below is half as far, so fewer digits may fail where
    // more succeed: each length is tried, shortest first.
    for (let digits = 1; digits <= 9 && best === 0; digits++) {
      const r = toDigits(a, digits, exp10);
      if (Math.fround(r) === a) best = r;
    }
  } else {
    // Elsewhere, once a length round-trips every longer one does (9 always do): a binary search.
    let lo = 1;
    let hi = 9;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const r = toDigits(a, mid, exp10);
      if (Math.fround(r) === a) {
        hi = mid;
        best = r;
      } else lo = mid + 1;
    }
    if (best === 0) best = toDigits(a, 9, exp10);
  }
  if (Math.fround(best) !== a) best = Number(a.toPrecision(9)); // never expected; 9 digits always round-trip
  return f < 0 ? -best : best;
}

/** A vector rounded to f32 precision, each component as shortestF32 writes it. */
export function f32Vector(v: readonly number[]): number[] {
  const out = new Array<number>(v.length);
  for (let i = 0; i < v.length; i++) out[i] = shortestF32(v[i]!);
  return out;
}

/** The vector's components as f32 little-endian bytes. */
export function f32Bytes(v: readonly number[]): Uint8Array {
  const bytes = new Uint8Array(v.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < v.length; i++) view.setFloat32(i * 4, v[i]!, true);
  return bytes;
}

/** The vector of f32 little-endian bytes, each component as shortestF32 writes it. */
export function vectorOfF32Bytes(bytes: Uint8Array): number[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Array<number>(bytes.byteLength >>> 2);
  for (let i = 0; i < out.length; i++) out[i] = shortestF32(view.getFloat32(i * 4, true));
  return out;
}

interface ValueEncoder {
  encode(value: unknown, mode?: number): Uint8Array;
  decode(bytes: Uint8Array, options?: unknown): unknown;
}

/** The map from a vector type's name to the member holding its vector ("data" or "embedding"). */
export type VectorMembers = Map<string, string>;

const MEMBERS = new WeakMap<object, VectorMembers>();

/**
 * Makes `db` (the `nodes` database) store vectors as f32 (see above). Its encoder is lmdb's
 * msgpack one, wrapped: everything else about it (buffer reuse, copying) is unchanged. Returns
 * the map of vector members, which the store fills from its schema (setVectorMembers) before it
 * writes a vector record; a database without it still reads them.
 */
export function withF32Vectors(db: object): void {
  const handle = db as unknown as { encoder: ValueEncoder; decoder: ValueEncoder };
  const base = handle.encoder;
  const members: VectorMembers = new Map();
  const wrapped: ValueEncoder = Object.create(base as object) as ValueEncoder;
  wrapped.encode = (value, mode) => base.encode(storedForm(value, members), mode);
  wrapped.decode = (bytes, options) => readForm(base.decode(bytes, options));
  handle.encoder = wrapped;
  handle.decoder = wrapped;
  MEMBERS.set(db, members);
}

/** Names, for each vector type, the member its records keep the vector in (replacing what was named before). */
export function setVectorMembers(db: object, members: Iterable<[string, string]>): void {
  const map = MEMBERS.get(db);
  if (map === undefined) throw new Error("setVectorMembers on a database without f32 vectors");
  map.clear();
  for (const [label, member] of members) map.set(label, member);
}

/** The record as stored: its vector member (if it has one) as f32 bytes; the caller's object is not changed. */
function storedForm(value: unknown, members: VectorMembers): unknown {
  if (value === null || typeof value !== "object") return value;
  const rec = value as Record<string, unknown>;
  const member = typeof rec.label === "string" ? members.get(rec.label) : undefined;
  if (member === undefined) return value;
  const v = rec[member];
  if (!Array.isArray(v)) return value;
  return { ...rec, [member]: f32Bytes(v as number[]) };
}

/** The record as read: a binary member (a stored vector) as numbers. */
function readForm(value: unknown): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value) || value instanceof Uint8Array) return value;
  const rec = value as Record<string, unknown>;
  for (const key in rec) {
    const member = rec[key];
    if (member instanceof Uint8Array) rec[key] = vectorOfF32Bytes(member);
  }
  return value;
}
