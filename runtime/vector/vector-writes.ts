// Vector writes inside a write transaction: the record in `nodes`, its index entries, its slot
// in `vector_ids` and the type's `vector_types` entry change together, and each change is logged
// for the in-memory index (applied after the commit, see vector-indexes.ts).
import { randomUUID } from "node:crypto";
import { StrandError } from "../../core/errors.js";
import { uuidv7 } from "../store/ids.js";
import type { NodeItem, PropValue, Props } from "../../core/items.js";
import type { StoreDbs } from "../store/dbs.js";
import { indexNew, indexUpdate } from "../store/indexes.js";
import { newNodeRecord, updatedRecord, validateProps } from "../store/records.js";
import type { VectorTypeInfo } from "../store/schema-info.js";
import type { VectorLog } from "./changes.js";
import { checkVector, dimensionMismatch } from "./metric.js";
import type { VectorTypeMeta } from "../store/vector-type-meta.js";

/** The vector a stored record holds: its `embedding` field or its `data` member. */
export function vectorOf(info: VectorTypeInfo, rec: NodeItem): readonly number[] {
  const v = info.embedding ? rec[info.embedding.name] : rec.data;
  if (!Array.isArray(v)) throw new Error(`V::${info.name} '${rec.id}' has no stored vector`);
  return v as number[];
}

function assignSlot(dbs: StoreDbs, info: VectorTypeInfo, id: string, vector: readonly number[], log: VectorLog): void {
  const label = info.name;
  const meta: VectorTypeMeta = dbs.vectorTypes.get([label]) ?? { epoch: randomUUID(), dimension: vector.length, nextSlot: 0, live: 0, generation: 0 };
  if (vector.length !== meta.dimension) throw dimensionMismatch(label, meta.dimension, vector.length);
  const slot = meta.nextSlot;
  const next: VectorTypeMeta = { ...meta, nextSlot: slot + 1, live: meta.live + 1, generation: meta.generation + 1 };
  dbs.vectorIds.putSync([label, id], slot);
  dbs.vectorTypes.putSync([label], next);
  log.changes.push({ kind: "add", label, slot, id, vector, generation: next.generation, epoch: next.epoch });
}

function releaseSlot(dbs: StoreDbs, info: VectorTypeInfo, id: string, log: VectorLog): void {
  const label = info.name;
  const slot = dbs.vectorIds.get([label, id]);
  const meta = dbs.vectorTypes.get([label]);
  if (slot === undefined || meta === undefined) throw new Error(`V::${label} '${id}' has no slot`);
  const next: VectorTypeMeta = { ...meta, live: meta.live - 1, generation: meta.generation + 1 };
  dbs.vectorIds.removeSync([label, id]);
  dbs.vectorTypes.putSync([label], next);
  log.changes.push({ kind: "remove", label, slot, generation: next.generation, epoch: next.epoch });
}

/** A new record {id, label, data, ...fields}, or {id, label, ...fields} with the vector in `embedding`. */
function newVectorRecord(info: VectorTypeInfo, vector: number[], props: Props, nowIso: string): NodeItem {
  const values = validateProps(info, props);
  const id = uuidv7();
  if (info.embedding) {
    if (values.has(info.embedding.name)) {
      throw new StrandError("INVALID_VALUE", `V::${info.name}.${info.embedding.name} is the vector itself: pass it as the vector, not as a property`);
    }
    values.set(info.embedding.name, vector);
    return newNodeRecord(info, id, values, nowIso);
  }
  const fields = newNodeRecord(info, id, values, nowIso);
  const rec: NodeItem = { id, label: info.name, data: vector };
  for (const key in fields) if (key !== "id" && key !== "label") rec[key] = fields[key] as PropValue;
  return rec;
}

export function addVector(dbs: StoreDbs, info: VectorTypeInfo, vector: unknown, props: Props, nowIso: string, log: VectorLog): NodeItem {
  const v = checkVector(vector, `vector for V::${info.name}`);
  const rec = newVectorRecord(info, v, props, nowIso);
  indexNew(dbs, info, rec);
  assignSlot(dbs, info, rec.id, v, log);
  dbs.nodes.putSync([info.name, rec.id], rec);
  return rec;
}

/**
 * Removes a vector: its slot (so searches stop returning it), its index entries and its record.
 * Edges to or from it are the caller's to remove.
 */
export function dropVector(dbs: StoreDbs, info: VectorTypeInfo, rec: NodeItem, log: VectorLog): void {
  releaseSlot(dbs, info, rec.id, log);
  indexUpdate(dbs, info, rec, { id: rec.id, label: rec.label });
  dbs.nodes.removeSync([info.name, rec.id]);
}

/**
 * After an update rewrote a vector record (`next` replaces `prev`): when the vector changed it
 * moves to a new slot; field-only updates need nothing here (search reads the current record).
 */
export function vectorUpdated(dbs: StoreDbs, info: VectorTypeInfo, prev: NodeItem, next: NodeItem, log: VectorLog): void {
  const before = vectorOf(info, prev);
  const after = checkVector(info.embedding ? next[info.embedding.name] : next.data, `V::${info.name}.${info.embedding?.name ?? "data"}`);
  if (before.length === after.length && before.every((x, i) => x === after[i])) return;
  releaseSlot(dbs, info, prev.id, log);
  assignSlot(dbs, info, next.id, after, log);
}

/** UpsertV on an existing vector: its props change as by UPDATE and its vector becomes `vector`. */
export function replaceVector(dbs: StoreDbs, info: VectorTypeInfo, current: NodeItem, vector: unknown, props: Props, log: VectorLog): NodeItem {
  const v = checkVector(vector, `vector for V::${info.name}`);
  const values = validateProps(info, props);
  let next: NodeItem;
  if (info.embedding) {
    if (values.has(info.embedding.name)) {
      throw new StrandError("INVALID_VALUE", `V::${info.name}.${info.embedding.name} is the vector itself: pass it as the vector, not as a property`);
    }
    values.set(info.embedding.name, v);
    next = updatedRecord(info, current, values);
  } else {
    const fields = updatedRecord(info, current, values);
    next = { id: current.id, label: current.label, data: v };
    for (const key in fields) if (key !== "id" && key !== "label" && key !== "data") next[key] = fields[key] as PropValue;
  }
  vectorUpdated(dbs, info, current, next, log);
  indexUpdate(dbs, info, current, next);
  dbs.nodes.putSync([info.name, current.id], next);
  return next;
}
