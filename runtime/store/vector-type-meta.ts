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
