// Vectors are stored once, as 4-byte floats (format 4): in a vector record (`nodes`), the member
// holding the vector (`data`, or the type's `embedding` field) is a msgpack binary of its
// components as f32 little-endian, not an array of f64. The `nodes` database's encoder does it
// (withF32Vectors): writing a record of a vector type swaps the member for its bytes; reading any
// record turns a binary member (no other member can hold one: field values are JSON) back into
// numbers, each the shortest decimal that reads back as the same f32 (shortestF32), so `0.1`
// stored comes back as `0.1` and `0.123456789` as `0.12345679`. Writers round a vector that way
// when they build its record (runtime/vector/vector-records.ts), so what a write returns is what
// later reads return. The HNSW index holds f32 too, so searches are unchanged.
const F32 = new Float32Array(1);
const F32_BITS = new Uint32Array(F32.buffer);

/** Powers of ten that are exact doubles (10^0 .. 10^22). */
const POW10: number[] = [];
for (let i = 0; i <= 22; i++) POW10.push(10 ** i);

/**
 * `f` rounded to `digits` significant digits, as the double nearest that decimal: numerically
 * when the power of ten involved is exact (m / 10^k and m * 10^k are then correctly rounded),
 * else through toPrecision. Only a product exactly halfway between two decimals could round to
 * the other one, and the caller checks the result anyway.
 */
function toDigits(f: number, digits: number, exp10: number): number {
  const k = digits - 1 - exp10;
  // Halves away from zero, as toPrecision rounds.
  const a = Math.abs(f);
  if (k >= 0 && k <= 22) return Math.sign(f) * (Math.round(a * POW10[k]!) / POW10[k]!);
  if (k < 0 && -k <= 22) return Math.sign(f) * (Math.round(a / POW10[-k]!) * POW10[-k]!);
  return Number(f.toPrecision(digits));
}

/** The number nearest `x` as f32, written with the fewest significant digits that read back as that f32. */
export function shortestF32(x: number): number {
  const f = Math.fround(x);
  if (f === 0 || !Number.isFinite(f)) return f;
  let exp10 = Math.floor(Math.log10(Math.abs(f)));
  // log10 can be off by one next to a power of ten.
  if (Math.abs(f) < 10 ** exp10) exp10--;
  else if (Math.abs(f) >= 10 ** (exp10 + 1)) exp10++;
  const roundTrips = (digits: number): number | null => {
    const r = toDigits(f, digits, exp10);
    return Math.fround(r) === f ? r : null;
  };
  // Fewer digits never round-trip once more fail (9 always do), except just above a power of two,
  // where the f32 below is half as far: those few are tried digit by digit.
  F32[0] = f;
  if (((F32_BITS[0] ?? 0) & 0x7fffff) === 0) {
    for (let digits = 1; digits < 9; digits++) {
      const r = roundTrips(digits);
      if (r !== null) return r;
    }
    return Number(f.toPrecision(9));
  }
  let lo = 1;
  let hi = 9;
  let best: number | null = null;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const r = roundTrips(mid);
    if (r !== null) {
      hi = mid;
      best = r;
    } else lo = mid + 1;
  }
  return best ?? roundTrips(9) ?? Number(f.toPrecision(9));
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
