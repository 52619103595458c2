// The vector indexes of one store: one VectorIndex per V type, loaded from its files or rebuilt
// from LMDB at open, fed each write's changes after the write committed, saved on close.
import fs from "node:fs";
import type { Transaction } from "lmdb";
import type { NodeItem } from "../../core/items.js";
import { silentProgress, type ProgressSink } from "../../core/progress.js";
import type { StoreDbs } from "../store/dbs.js";
import { MAX_KEY, type Key } from "../store/keys.js";
import type { SchemaInfo, VectorTypeInfo } from "../store/schema-info.js";
import { VectorLog, type VectorAdd, type VectorChange } from "./changes.js";
import { indexPaths, removeIndexFiles, saveIndexFiles, verifyIndexFiles, type ExpectedIndex } from "./index-files.js";
import type { VectorOptions } from "./metric.js";
import { searchVectors, type SearchOutcome, type VectorSnapshot } from "./search.js";
import type { VectorTypeMeta } from "../store/vector-type-meta.js";
import { VectorIndex, type IndexedVector, type VectorIndexContents } from "./vector-index.js";
import { vectorOf } from "./vector-records.js";

/** How a type's in-memory index came to be (for tests, logs and `strand` diagnostics). */
export interface VectorIndexStatus {
  label: string;
  /** empty: the type has no vectors in LMDB; loaded: from its files; rebuilt: from LMDB. */
  source: "empty" | "loaded" | "rebuilt";
  /** Why the files were not used (rebuilt only): "missing", "stale: …", "corrupt: …", … */
  reason: string | null;
  live: number;
  generation: number;
}

export class VectorIndexes {
  private readonly indexes = new Map<string, VectorIndex>();
  private readonly statuses = new Map<string, VectorIndexStatus>();
  /** Logs of writes that have not committed (or failed) yet. */
  private readonly pending = new Set<VectorLog>();
  /** Generation of each type when it was loaded from files that still describe it. */
  private readonly savedGeneration = new Map<string, number>();

  private constructor(
    private readonly dbs: StoreDbs,
    private readonly schema: SchemaInfo,
    private readonly dataDir: string,
    readonly options: VectorOptions,
  ) {}

  /** Loads or rebuilds the index of every V type of the schema. */
  static open(
    dbs: StoreDbs,
    schema: SchemaInfo,
    dataDir: string,
    options: VectorOptions,
    progress: ProgressSink = silentProgress,
  ): VectorIndexes {
    const self = new VectorIndexes(dbs, schema, dataDir, options);
    for (const info of schema.vectors.values()) self.initialise(info, progress);
    return self;
  }

  status(label: string): VectorIndexStatus {
    this.schema.vector(label);
    const s = this.statuses.get(label)!;
    const index = this.indexes.get(label)!;
    return { ...s, live: index.live, generation: index.generation };
  }

  /** What the type's in-memory index holds (see VectorIndex.contents). */
  contents(label: string): VectorIndexContents {
    this.schema.vector(label);
    return this.indexes.get(label)!.contents();
  }

  // ---- writes

  /** A write transaction starts: its log is searched (snapshot permitting) until settled. */
  newLog(): VectorLog {
    const log = new VectorLog();
    this.pending.add(log);
    return log;
  }

  /** The write of `log` committed: apply its changes, in order, to the in-memory indexes. */
  apply(log: VectorLog): void {
    this.pending.delete(log);
    const stale = new Set<string>();
    for (const change of log.changes) {
      const index = this.indexes.get(change.label);
      if (index === undefined) throw new Error(`vector change for unknown type '${change.label}'`);
      if (stale.has(change.label)) continue;
      let applied: boolean;
      try {
        applied = this.applyOne(index, change);
      } catch (error) {
        // The commit stands; an index that missed it is rebuilt from LMDB rather than left wrong.
        console.error(`vector index V::${change.label}: applying a committed change failed, rebuilding:`, error);
        applied = false;
      }
      if (!applied) stale.add(change.label);
    }
    for (const label of stale) this.rebuildNow(label, "out of order");
  }

  /** The write of `log` is over (applied, or failed and rolled back). */
  settle(log: VectorLog): void {
    this.pending.delete(log);
  }

  /** False when the change does not follow the index's generation (the index must be rebuilt). */
  private applyOne(index: VectorIndex, change: VectorChange): boolean {
    if (index.epoch !== null && change.epoch !== index.epoch) return false;
    if (change.generation <= index.generation) return true; // already in (a rebuild included it)
    if (change.generation !== index.generation + 1) return false;
    if (change.kind === "add") index.add(change.slot, change.id, change.vector);
    else index.remove(change.slot);
    index.epoch = change.epoch;
    index.generation = change.generation;
    return true;
  }

  // ---- search

  search(info: VectorTypeInfo, snapshot: VectorSnapshot, query: unknown, k: unknown, ef: unknown): SearchOutcome {
    const index = this.indexes.get(info.name)!;
    const pending: VectorAdd[] = [];
    for (const log of this.pending) {
      for (const c of log.changes) if (c.kind === "add" && c.label === info.name && c.generation > index.generation) pending.push(c);
    }
    return searchVectors({ info, index, pending, snapshot, options: this.options, query, k, ef });
  }

  // ---- load, rebuild, save

  private initialise(info: VectorTypeInfo, progress: ProgressSink): void {
    const txn = this.dbs.env.useReadTransaction();
    try {
      const meta = this.dbs.vectorTypes.get([info.name], { transaction: txn });
      if (meta === undefined) {
        this.indexes.set(info.name, new VectorIndex(info.name, this.options));
        this.statuses.set(info.name, { label: info.name, source: "empty", reason: null, live: 0, generation: 0 });
        return;
      }
      const verified = verifyIndexFiles(this.dataDir, this.expected(info.name, meta));
      if (verified.ok) {
        const index = new VectorIndex(info.name, this.options);
        index.load(verified.indexPath, meta.dimension, slotsIn(this.dbs, info.name, txn));
        index.epoch = meta.epoch;
        index.generation = meta.generation;
        if (index.live !== meta.live) throw new Error(`V::${info.name}: ${index.live} slots in vector_ids, ${meta.live} in vector_types`);
        if (index.wantsExactCopy()) index.fillExactCopy(this.vectorsIn(info, txn));
        this.indexes.set(info.name, index);
        this.savedGeneration.set(info.name, meta.generation);
        this.statuses.set(info.name, { label: info.name, source: "loaded", reason: null, live: index.live, generation: index.generation });
        return;
      }
      this.rebuild(info, meta, txn, verified.reason, progress);
    } finally {
      txn.done();
    }
  }

  /** Replaces the type's index by one built from every vector in `txn`. */
  private rebuild(info: VectorTypeInfo, meta: VectorTypeMeta, txn: Transaction, reason: string, progress = silentProgress): void {
    const index = new VectorIndex(info.name, this.options);
    const task = progress.start(`rebuild vector index V::${info.name}`, "vectors", meta.live);
    for (const v of this.vectorsIn(info, txn)) {
      index.add(v.slot, v.id, v.vector);
      task.advance(1);
    }
    task.finish();
    index.epoch = meta.epoch;
    index.generation = meta.generation;
    this.indexes.set(info.name, index);
    this.savedGeneration.delete(info.name);
    this.statuses.set(info.name, { label: info.name, source: "rebuilt", reason, live: index.live, generation: index.generation });
  }

  /** Rebuild from the newest committed state: it includes every change applied so far. */
  private rebuildNow(label: string, reason: string): void {
    const info = this.schema.vector(label);
    const txn = this.dbs.env.useReadTransaction();
    try {
      const meta = this.dbs.vectorTypes.get([label], { transaction: txn });
      if (meta === undefined) throw new Error(`V::${label}: changes applied but no vector_types entry`);
      this.rebuild(info, meta, txn, reason);
    } finally {
      txn.done();
    }
  }

  private *vectorsIn(info: VectorTypeInfo, txn: Transaction): Iterable<IndexedVector & { vector: readonly number[] }> {
    for (const { slot, id } of slotsIn(this.dbs, info.name, txn)) {
      const rec: NodeItem | undefined = this.dbs.nodes.get([info.name, id], { transaction: txn });
      if (rec === undefined) throw new Error(`V::${info.name} '${id}' has a slot but no record`);
      yield { slot, id, vector: vectorOf(info, rec) };
    }
  }

  private expected(label: string, meta: VectorTypeMeta): ExpectedIndex {
    const { metric, m, efConstruction } = this.options;
    return { label, epoch: meta.epoch, generation: meta.generation, dimension: meta.dimension, live: meta.live, metric, m, efConstruction };
  }

  /**
   * Saves every index that reflects LMDB's current state and differs from its files; removes
   * files that no longer describe LMDB. Called on clean close (and usable as a checkpoint).
   */
  save(): void {
    for (const [label, index] of this.indexes) {
      const meta = this.dbs.vectorTypes.get([label]);
      const current = meta !== undefined && index.epoch === meta.epoch && index.generation === meta.generation;
      if (!current || meta === undefined || index.dimension === null) {
        // Writes still in flight (or nothing to save): files would be stale, and are ignored anyway.
        if (fs.existsSync(indexPaths(this.dataDir, label).meta)) removeIndexFiles(this.dataDir, label);
        continue;
      }
      if (this.savedGeneration.get(label) === meta.generation) continue;
      saveIndexFiles(this.dataDir, this.expected(label, meta), (file) => index.write(file));
      this.savedGeneration.set(label, meta.generation);
    }
  }
}

/** (slot, id) of every vector of the type in `txn`, in id order. */
function* slotsIn(dbs: StoreDbs, label: string, txn: Transaction): Iterable<IndexedVector> {
  const start: Key = [label];
  const end: Key = [label, MAX_KEY];
  for (const { key, value } of dbs.vectorIds.getRange({ start, end, transaction: txn })) yield { slot: value, id: key[1] as string };
}
