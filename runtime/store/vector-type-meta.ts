// Per vector type state kept in LMDB (`vector_types`, see store/keys.ts): the source of truth the
// in-memory HNSW index and its files are checked against.
export interface VectorTypeMeta {
  /** Random, chosen when the type's first vector is written: tells this store's files from others'. */
  epoch: string;
  /** Fixed by the first vector ever written to the type. */
  dimension: number;
  /** The slot the next vector gets; slots are never reused. */
  nextSlot: number;
  /** Live vectors of the type. */
  live: number;
  /** Bumped by every add, drop and vector change of the type. */
  generation: number;
}

/**
 * A `vector_log` value, keyed [label, generation]: an add (its slot and the vector as
 * little-endian f32 bytes, exactly what the HNSW index was given) or a drop (its slot).
 */
export type VectorLogEntry = [kind: "a", slot: number, vector: Uint8Array] | [kind: "r", slot: number];

/** The f32 bytes a log entry keeps of a vector. */
export function vectorLogBytes(vector: readonly number[]): Uint8Array {
  const bytes = new Uint8Array(vector.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < vector.length; i++) view.setFloat32(i * 4, vector[i]!, true);
  return bytes;
}

/** The vector of a log entry's f32 bytes, as numbers (each exactly representable in f32). */
export function vectorFromLogBytes(bytes: Uint8Array): number[] {
  if (bytes.byteLength % 4 !== 0) throw new Error(`vector_log entry of ${bytes.byteLength} bytes is not f32 data`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Array<number>(bytes.byteLength / 4);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}
