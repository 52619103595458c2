// One vector type in memory: an f32 HNSW index (hnswlib-node) whose integer labels are the LMDB
// slots, the slot → id map, and, while the type is small, an exact f64 copy of its vectors.
// It mirrors LMDB as of `generation`; the registry (vector-indexes.ts) feeds it committed changes.
import hnswlib from "hnswlib-node";
import { ExactVectors } from "./brute-force.js";
import { EXACT_LIMIT, type VectorOptions } from "./metric.js";

const { HierarchicalNSW } = hnswlib;
type Hnsw = InstanceType<typeof HierarchicalNSW>;

/** The exact copy is kept up to twice the exact-search limit, so it is not rebuilt back and forth. */
export const EXACT_COPY_LIMIT = 2 * EXACT_LIMIT;
const INITIAL_CAPACITY = 1024;
/** Fixed seed: the same inserts build the same graph (bench/vector.ts builds its raw index with it too). */
export const RANDOM_SEED = 100;

export interface IndexedVector {
  readonly slot: number;
  readonly id: string;
}

/** What an index holds, for runtime/verify/: the LMDB state it reflects, its slot → id map, its live points. */
export interface VectorIndexContents {
  readonly epoch: string | null;
  readonly generation: number;
  readonly ids: ReadonlyMap<number, string>;
  /** The labels hnswlib holds and has not marked deleted. */
  readonly liveSlots: ReadonlySet<number>;
}

export class VectorIndex {
  private hnsw: Hnsw | null = null;
  /**
   * Kept while the type has had at most EXACT_COPY_LIMIT vectors since it was loaded; dropped
   * (for good, until the next load) once it grows beyond, so large types cost no f64 copy.
   */
  private exactCopy: ExactVectors | null = null;
  private keepExact = true;
  private readonly ids = new Map<number, string>();
  /** LMDB's epoch and generation this index reflects (null/0: no vector was ever written). */
  epoch: string | null = null;
  generation = 0;
  dimension: number | null = null;

  constructor(
    readonly label: string,
    readonly options: VectorOptions,
  ) {}

  get live(): number {
    return this.ids.size;
  }

  get exact(): ExactVectors | null {
    return this.exactCopy;
  }

  idOf(slot: number): string | undefined {
    return this.ids.get(slot);
  }

  add(slot: number, id: string, vector: readonly number[]): void {
    if (this.dimension === null) this.dimension = vector.length;
    if (vector.length !== this.dimension)
      throw new Error(`V::${this.label}: vector of ${vector.length} dimensions in an index of ${this.dimension}`);
    this.addPoint(slot, vector);
    this.ids.set(slot, id);
    if (this.keepExact) {
      this.exactCopy ??= new ExactVectors(this.dimension);
      this.exactCopy.add(slot, id, vector);
      if (this.ids.size > EXACT_COPY_LIMIT) {
        this.exactCopy = null;
        this.keepExact = false;
      }
    }
  }

  remove(slot: number): void {
    if (!this.ids.delete(slot)) return;
    this.hnsw!.markDelete(slot);
    this.exactCopy?.remove(slot);
  }

  /**
   * Replay of a logged add onto a loaded checkpoint: the point only. The slot → id map already
   * holds LMDB's current slots (a point added and dropped since the checkpoint is added and then
   * marked deleted, as it was before the crash, so the graph is the same one).
   */
  replayAdd(slot: number, vector: readonly number[]): void {
    if (this.dimension === null || vector.length !== this.dimension)
      throw new Error(`V::${this.label}: logged vector of ${vector.length} dimensions in an index of ${String(this.dimension)}`);
    this.addPoint(slot, vector);
  }

  /** Replay of a logged drop: throws when the point is not in the index (the log does not fit it). */
  replayRemove(slot: number): void {
    this.hnsw!.markDelete(slot);
  }

  /** Points hnswlib holds, deleted ones included (what a saved file must contain). */
  get elements(): number {
    return this.hnsw?.getCurrentCount() ?? 0;
  }

  private addPoint(slot: number, vector: readonly number[]): void {
    const hnsw = this.ensureHnsw(this.dimension!);
    if (hnsw.getCurrentCount() >= hnsw.getMaxElements()) hnsw.resizeIndex(hnsw.getMaxElements() * 2);
    hnsw.addPoint(vector as number[], slot);
  }

  /**
   * Up to n approximate nearest live vectors, nearest first, searching with breadth max(ef, n).
   * hnswlib skips deleted points without counting them against n or ef.
   */
  nearest(query: readonly number[], n: number, ef: number): IndexedVector[] {
    const out: IndexedVector[] = [];
    for (const slot of this.nearestSlots(query, n, ef)) {
      const id = this.ids.get(slot);
      if (id !== undefined) out.push({ slot, id });
    }
    return out;
  }

  /** As nearest, the slots only (idOf maps each): a filtered search reads far fewer than it asks for. */
  nearestSlots(query: readonly number[], n: number, ef: number): readonly number[] {
    if (this.hnsw === null || n <= 0 || this.ids.size === 0) return [];
    const k = Math.min(n, this.ids.size);
    this.hnsw.setEf(Math.max(ef, k));
    return this.hnsw.searchKnn(query as number[], k).neighbors;
  }

  /** Loads hnswlib's file (already verified by index-files.ts) and the slot → id map from LMDB. */
  load(file: string, dimension: number, slots: Iterable<IndexedVector>): void {
    const hnsw = new HierarchicalNSW(this.options.metric, dimension);
    hnsw.readIndexSync(file);
    if (hnsw.getNumDimensions() !== dimension)
      throw new Error(`V::${this.label}: index file has ${hnsw.getNumDimensions()} dimensions, expected ${dimension}`);
    this.hnsw = hnsw;
    this.dimension = dimension;
    for (const { slot, id } of slots) this.ids.set(slot, id);
    // The loaded index keeps f32 copies only; exact search of a loaded small type needs f64 ones.
    this.keepExact = this.keepExact && this.ids.size <= EXACT_COPY_LIMIT;
  }

  /** Fills the exact copy after load (the registry reads the vectors from LMDB). */
  wantsExactCopy(): boolean {
    return this.keepExact && this.exactCopy === null;
  }

  fillExactCopy(vectors: Iterable<IndexedVector & { vector: readonly number[] }>): void {
    if (this.dimension === null) return;
    const copy = new ExactVectors(this.dimension);
    for (const v of vectors) copy.add(v.slot, v.id, v.vector);
    this.exactCopy = copy;
  }

  /** A copy of what the index holds (one hnswlib lookup per point it ever had: for checks, not queries). */
  contents(): VectorIndexContents {
    const liveSlots = new Set<number>();
    for (const slot of this.hnsw?.getIdsList() ?? []) {
      try {
        this.hnsw!.getPoint(slot); // throws for a point marked deleted
        liveSlots.add(slot);
      } catch {
        // marked deleted
      }
    }
    return { epoch: this.epoch, generation: this.generation, ids: new Map(this.ids), liveSlots };
  }

  /** hnswlib writes its index to `file` (deleted points keep their mark). */
  write(file: string): void {
    if (this.hnsw === null) throw new Error(`V::${this.label}: no index to write`);
    this.hnsw.writeIndexSync(file);
  }

  private ensureHnsw(dimension: number): Hnsw {
    if (this.hnsw === null) {
      const hnsw = new HierarchicalNSW(this.options.metric, dimension);
      hnsw.initIndex({
        maxElements: INITIAL_CAPACITY,
        m: this.options.m,
        efConstruction: this.options.efConstruction,
        randomSeed: RANDOM_SEED,
      });
      this.hnsw = hnsw;
    }
    return this.hnsw;
  }
}
