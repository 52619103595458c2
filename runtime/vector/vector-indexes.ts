// The vector indexes of one store: one VectorIndex per V type, loaded from its files or rebuilt
// from LMDB at open, fed each write's changes after the write committed, saved on close.
import type { Transaction } from "lmdb";
import type { NodeItem } from "../../core/items.js";
import { silentProgress, type ProgressSink } from "../../core/progress.js";
import type { StoreDbs } from "../store/dbs.js";
import { itemKey } from "../store/keys.js";
import type { SchemaInfo, VectorTypeInfo } from "../store/schema-info.js";
import { VectorLog, type VectorAdd, type VectorChange } from "./changes.js";
import { saveIndexFiles } from "./index-files.js";
import { loadCheckpoint, slotsOf } from "./index-load.js";
import type { VectorOptions } from "./metric.js";
import { searchVectors, type SearchOutcome, type VectorSnapshot } from "./search.js";
import type { VectorTypeMeta } from "../store/vector-type-meta.js";
import { VectorIndex, type IndexedVector, type VectorIndexContents } from "./vector-index.js";
import { vectorOf } from "./vector-records.js";

/** How a type's in-memory index came to be (for tests, logs and `strand` diagnostics). */
export interface VectorIndexStatus {
  label: string;
  /**
   * empty: the type has no vectors in LMDB; loaded: from its checkpoint files, which were
   * current; replayed: from its checkpoint plus the changes logged since; rebuilt: from LMDB.
   */
  source: "empty" | "loaded" | "replayed" | "rebuilt";
  /** Why the files were not used (rebuilt only): "missing", "stale: …", "corrupt: …", … */
  reason: string | null;
  live: number;
  generation: number;
  /** Logged changes replayed onto the checkpoint at open (replayed only; 0 otherwise). */
  replayed: number;
}

export class VectorIndexes {
  private readonly indexes = new Map<string, VectorIndex>();
  private readonly statuses = new Map<string, VectorIndexStatus>();
  /** Logs of writes that have not committed (or failed) yet. */
  private readonly pending = new Set<VectorLog>();
  /** Generation of each type's newest checkpoint on disk (absent: none usable). */
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

  search(
    info: VectorTypeInfo,
    snapshot: VectorSnapshot,
    query: unknown,
    k: unknown,
    ef: unknown,
    keep?: (rec: NodeItem) => boolean,
  ): SearchOutcome {
    const index = this.indexes.get(info.name)!;
    const pending: VectorAdd[] = [];
    for (const log of this.pending) {
      for (const c of log.changes) if (c.kind === "add" && c.label === info.name && c.generation > index.generation) pending.push(c);
    }
    return searchVectors({ info, index, pending, snapshot, options: this.options, query, k, ef, keep });
  }

  // ---- load, rebuild, save

  private initialise(info: VectorTypeInfo, progress: ProgressSink): void {
    const txn = this.dbs.env.useReadTransaction();
    try {
      const meta = this.dbs.vectorTypes.get([info.name], { transaction: txn });
      if (meta === undefined) {
        this.indexes.set(info.name, new VectorIndex(info.name, this.options));
        this.statuses.set(info.name, { label: info.name, source: "empty", reason: null, live: 0, generation: 0, replayed: 0 });
        return;
      }
      const loaded = loadCheckpoint(this.dbs, this.dataDir, info.name, meta, this.options, txn);
      if (loaded.ok) {
        const { index, replayed } = loaded;
        if (index.wantsExactCopy()) index.fillExactCopy(this.vectorsIn(info, txn));
        this.indexes.set(info.name, index);
        this.savedGeneration.set(info.name, loaded.savedGeneration);
        const source = replayed === 0 ? "loaded" : "replayed";
        this.statuses.set(info.name, { label: info.name, source, reason: null, live: index.live, generation: index.generation, replayed });
        return;
      }
      this.rebuild(info, meta, txn, loaded.reason, progress);
      // One line: a rebuild costs time proportional to the type's size, so say why it happened.
      if (loaded.reason !== "missing" || meta.live > 0)
        console.warn(`vector index V::${info.name}: rebuilt from LMDB (${meta.live} vectors) because the saved index is ${loaded.reason}`);
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
    this.statuses.set(info.name, {
      label: info.name,
      source: "rebuilt",
      reason,
      live: index.live,
      generation: index.generation,
      replayed: 0,
    });
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
    for (const { slot, id } of slotsOf(this.dbs, info.name, txn)) {
      const rec: NodeItem | undefined = this.dbs.nodes.get(itemKey(info.name, id), { transaction: txn });
      if (rec === undefined) throw new Error(`V::${info.name} '${id}' has a slot but no record`);
      yield { slot, id, vector: vectorOf(info, rec) };
    }
  }

  /** Changes applied to the in-memory indexes since they were last saved (or loaded), over all types. */
  unsavedChanges(): number {
    let n = 0;
    for (const [label, index] of this.indexes) n += index.generation - (this.savedGeneration.get(label) ?? 0);
    return n;
  }

  /**
   * Saves a checkpoint of every index that changed since its last save: the index as of the
   * generation it has applied (LMDB may be ahead; the log covers the rest). Returns the
   * checkpoints written, so the caller can prune the log up to them. A failed save throws
   * IndexSaveError after trying the other types; the previous checkpoint stays valid.
   */
  save(): SavedCheckpoint[] {
    const saved: SavedCheckpoint[] = [];
    let failure: unknown = null;
    for (const [label, index] of this.indexes) {
      if (index.epoch === null || index.dimension === null) continue; // never had a vector
      if (this.savedGeneration.get(label) === index.generation) continue;
      const { metric, m, efConstruction } = this.options;
      const state = {
        label,
        epoch: index.epoch,
        dimension: index.dimension,
        metric,
        m,
        efConstruction,
        generation: index.generation,
        live: index.live,
      };
      try {
        saveIndexFiles(this.dataDir, state, index.elements, (file) => index.write(file));
      } catch (error) {
        failure ??= error;
        continue;
      }
      this.savedGeneration.set(label, index.generation);
      saved.push({ label, generation: index.generation });
    }
    if (failure !== null) throw failure;
    return saved;
  }
}

/** A checkpoint written by save(): the log of `label` up to `generation` is no longer needed. */
export interface SavedCheckpoint {
  label: string;
  generation: number;
}
