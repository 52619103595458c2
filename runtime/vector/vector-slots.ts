// The graph writer's vector hook: each live vector's slot in `vector_ids`, its type's
// `vector_types` entry, each change in `vector_log` (replayed onto the saved HNSW checkpoint at
// open), and the write's in-memory change log, applied to the in-memory HNSW index only
// after the commit (runtime/vector/vector-indexes.ts).
import { randomUUID } from "node:crypto";
import type { NodeItem } from "../../core/items.js";
import type { StoreDbs } from "../store/dbs.js";
import type { VectorTypeInfo } from "../store/schema-info.js";
import { vectorLogBytes, type VectorTypeMeta } from "../store/vector-type-meta.js";
import type { VectorLog } from "./changes.js";
import { dimensionMismatch } from "./metric.js";
import { checkedVectorOf, sameVector, vectorOf } from "./vector-records.js";
import { itemKey } from "../store/keys.js";

export class VectorSlots {
  constructor(
    private readonly dbs: StoreDbs,
    private readonly log: VectorLog,
  ) {}

  added(info: VectorTypeInfo, record: NodeItem, vector: readonly number[]): void {
    this.assign(info, record.id, vector);
  }

  /** Field-only updates need nothing here (search reads the current record). */
  replaced(info: VectorTypeInfo, previous: NodeItem, next: NodeItem): void {
    const before = vectorOf(info, previous);
    const after = checkedVectorOf(info, next);
    if (sameVector(before, after)) return;
    this.release(info, previous.id);
    this.assign(info, next.id, after);
  }

  removed(info: VectorTypeInfo, record: NodeItem): void {
    this.release(info, record.id);
  }

  private assign(info: VectorTypeInfo, id: string, vector: readonly number[]): void {
    const label = info.name;
    const meta: VectorTypeMeta = this.dbs.vectorTypes.get([label]) ?? {
      epoch: randomUUID(),
      dimension: vector.length,
      nextSlot: 0,
      live: 0,
      generation: 0,
    };
    if (vector.length !== meta.dimension) throw dimensionMismatch(label, meta.dimension, vector.length);
    const slot = meta.nextSlot;
    const next: VectorTypeMeta = { ...meta, nextSlot: slot + 1, live: meta.live + 1, generation: meta.generation + 1 };
    this.dbs.vectorIds.putSync(itemKey(label, id), slot);
    this.dbs.vectorTypes.putSync([label], next);
    this.dbs.vectorLog.putSync([label, next.generation], ["a", slot, vectorLogBytes(vector)]);
    this.log.changes.push({ kind: "add", label, slot, id, vector, generation: next.generation, epoch: next.epoch });
  }

  private release(info: VectorTypeInfo, id: string): void {
    const label = info.name;
    const slot = this.dbs.vectorIds.get(itemKey(label, id));
    const meta = this.dbs.vectorTypes.get([label]);
    if (slot === undefined || meta === undefined) throw new Error(`V::${label} '${id}' has no slot`);
    const next: VectorTypeMeta = { ...meta, live: meta.live - 1, generation: meta.generation + 1 };
    this.dbs.vectorIds.removeSync(itemKey(label, id));
    this.dbs.vectorTypes.putSync([label], next);
    this.dbs.vectorLog.putSync([label, next.generation], ["r", slot]);
    this.log.changes.push({ kind: "remove", label, slot, generation: next.generation, epoch: next.epoch });
  }
}
