// Vector records: where a V type keeps its vector, and the record an AddV or UpsertV stores.
// Storing them (record, index entries, slot, log) is runtime/write/graph-writer.ts's job.
import { StrandError } from "../../core/errors.js";
import { uuidv7 } from "../store/ids.js";
import type { NodeItem, PropValue, Props } from "../../core/items.js";
import { newNodeRecord, updatedRecord, validateProps } from "../records/records.js";
import type { VectorTypeInfo } from "../store/schema-info.js";
import { f32Vector } from "../store/vector-encoding.js";
import { checkVector } from "./metric.js";

/** The vector a stored record holds: its `embedding` field or its `data` member. */
export function vectorOf(info: VectorTypeInfo, rec: NodeItem): readonly number[] {
  const v = info.embedding ? rec[info.embedding.name] : rec.data;
  if (!Array.isArray(v)) throw new Error(`V::${info.name} '${rec.id}' has no stored vector`);
  return v as number[];
}

/** The vector a record about to be stored holds, checked (INVALID_VALUE when it is not one). */
export function checkedVectorOf(info: VectorTypeInfo, rec: NodeItem): number[] {
  return checkVector(info.embedding ? rec[info.embedding.name] : rec.data, `V::${info.name}.${info.embedding?.name ?? "data"}`);
}

function vectorAsProperty(info: VectorTypeInfo): StrandError {
  return new StrandError(
    "INVALID_VALUE",
    `V::${info.name}.${info.embedding!.name} is the vector itself: pass it as the vector, not as a property`,
  );
}

/** A new record {id, label, data, ...fields}, or {id, label, ...fields} with the vector in `embedding`. */
export function newVectorRecord(info: VectorTypeInfo, vector: unknown, props: Props, nowIso: string, id = uuidv7()): NodeItem {
  // Stored as f32 (store/vector-encoding.ts): the record holds what every later read returns.
  const v = f32Vector(checkVector(vector, `vector for V::${info.name}`));
  const values = validateProps(info, props);
  if (info.embedding) {
    if (values.has(info.embedding.name)) throw vectorAsProperty(info);
    return newNodeRecord(info, id, new Map(values).set(info.embedding.name, v), nowIso);
  }
  const fields = newNodeRecord(info, id, values, nowIso);
  const rec: NodeItem = { id, label: info.name, data: v };
  for (const key in fields) if (key !== "id" && key !== "label") rec[key] = fields[key] as PropValue;
  return rec;
}

/** UpsertV on an existing vector: its props change as by UPDATE and its vector becomes `vector`. */
export function replacedVectorRecord(info: VectorTypeInfo, current: NodeItem, vector: unknown, props: Props): NodeItem {
  const v = f32Vector(checkVector(vector, `vector for V::${info.name}`));
  const values = validateProps(info, props);
  if (info.embedding) {
    if (values.has(info.embedding.name)) throw vectorAsProperty(info);
    return updatedRecord(info, current, new Map(values).set(info.embedding.name, v));
  }
  const fields = updatedRecord(info, current, values);
  const next: NodeItem = { id: current.id, label: current.label, data: v };
  for (const key in fields) if (key !== "id" && key !== "label" && key !== "data") next[key] = fields[key] as PropValue;
  return next;
}

export function sameVector(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
