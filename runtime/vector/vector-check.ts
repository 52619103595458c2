// Vectors against their slots and index: every record of a vector type has a slot in vector_ids
// and every slot a record; slots are distinct and below the type's nextSlot, `live` counts them,
// every vector has the type's dimension; and the HNSW index (when given) reflects the type's
// epoch and generation, maps exactly these slots to these ids, and holds exactly them as live
// points (a dropped vector's point is marked deleted).
import type { VectorIndexContents } from "./vector-index.js";
import type { SchemaInfo, VectorTypeInfo } from "../store/schema-info.js";
import type { VectorTypeMeta } from "../store/vector-type-meta.js";
import { itemKey, type Key, keyId, labelRange } from "../store/keys.js";
import { decodedEntries, keyParts, type CheckContext } from "../store/integrity.js";

/** The type's HNSW index to compare, or a reason it is not compared. */
export type IndexSource = (label: string, meta: VectorTypeMeta) => VectorIndexContents | string;

/** Returns what was not checked, and why. */
export function checkVectors(ctx: CheckContext, schema: SchemaInfo, indexOf: IndexSource): string[] {
  const skipped: string[] = [];
  for (const key of ctx.dbs.vectorTypes.getKeys(ctx.read)) {
    const label = keyParts(key)[0] as string;
    if (!schema.vectors.has(label)) ctx.report("vector-slot", "vector_types", key, `an entry of '${label}', which is not a vector type`);
  }
  for (const info of schema.vectors.values()) {
    const meta = ctx.dbs.vectorTypes.get([info.name], ctx.read);
    const slots = checkSlots(ctx, info, meta);
    if (meta === undefined) continue;
    const index = indexOf(info.name, meta);
    if (typeof index === "string") skipped.push(`V::${info.name} index: ${index}`);
    else compareIndex(ctx, info, meta, slots, index);
  }
  return skipped;
}

const range = (ctx: CheckContext, label: string) => ({ ...ctx.read, ...labelRange(label) });

/** slot → id of the type's vector_ids entries that name a record. */
function checkSlots(ctx: CheckContext, info: VectorTypeInfo, meta: VectorTypeMeta | undefined): Map<number, string> {
  const { dbs } = ctx;
  const label = info.name;
  const slots = new Map<number, string>();
  let entries = 0;
  for (const { key, value: slot } of dbs.vectorIds.getRange(range(ctx, label))) {
    entries++;
    const id = keyId(key);
    if (!dbs.nodes.doesExist(itemKey(label, id), undefined as never, ctx.read))
      ctx.report("vector-slot", "vector_ids", key, `slot ${slot} names no V::${label} record`);
    if (meta !== undefined && !(Number.isSafeInteger(slot) && slot >= 0 && slot < meta.nextSlot)) {
      ctx.report("vector-slot", "vector_ids", key, `slot ${slot} is not below nextSlot ${meta.nextSlot}`);
    }
    const other = slots.get(slot);
    if (other !== undefined) ctx.report("vector-slot", "vector_ids", key, `slot ${slot} is also '${other}'`);
    else slots.set(slot, id);
  }
  let records = 0;
  // A record that does not decode is skipped here: the records check reports it.
  for (const { key, value: rec } of decodedEntries(ctx, dbs.nodes, range(ctx, label))) {
    if (rec.id !== keyId(key)) continue; // a record under another's key: the record check reports it
    records++;
    if (dbs.vectorIds.get(itemKey(label, rec.id), ctx.read) === undefined)
      ctx.report("vector-slot", "vector_ids", [label, rec.id], `V::${label} '${rec.id}' has no slot`);
    const vector = info.embedding ? rec[info.embedding.name] : rec.data;
    const length = Array.isArray(vector) ? vector.length : -1;
    if (meta !== undefined && length !== meta.dimension) {
      ctx.report(
        "vector-slot",
        "nodes",
        [label, rec.id],
        length < 0 ? "the record holds no vector" : `a vector of ${length} dimensions in a type of ${meta.dimension}`,
      );
    }
  }
  if (meta === undefined) {
    if (records + entries > 0) ctx.report("vector-slot", "vector_types", [label], `missing, the type has ${records} vectors`);
  } else if (meta.live !== entries) {
    ctx.report("vector-slot", "vector_types", [label], `live is ${meta.live}, vector_ids holds ${entries} slots`);
  }
  return slots;
}

function compareIndex(
  ctx: CheckContext,
  info: VectorTypeInfo,
  meta: VectorTypeMeta,
  slots: ReadonlyMap<number, string>,
  index: VectorIndexContents,
): void {
  ctx.counts.vectorIndexes++;
  const label = info.name;
  const at = `the index of V::${label}`;
  if (index.epoch !== meta.epoch || index.generation !== meta.generation) {
    ctx.report(
      "vector-index",
      "vector_types",
      [label],
      `${at} reflects epoch ${String(index.epoch)} generation ${index.generation}, LMDB epoch ${meta.epoch} generation ${meta.generation}`,
    );
  }
  for (const [slot, id] of slots) {
    const key: Key = [label, id];
    if (index.ids.get(slot) !== id)
      ctx.report(
        "vector-index",
        "vector_ids",
        key,
        `${at} maps slot ${slot} to ${index.ids.has(slot) ? `'${index.ids.get(slot)!}'` : "nothing"}`,
      );
    if (!index.liveSlots.has(slot)) ctx.report("vector-index", "vector_ids", key, `${at} has no live point for slot ${slot}`);
  }
  for (const [slot, id] of index.ids) {
    if (!slots.has(slot))
      ctx.report("vector-index", "vector_ids", [label, id], `${at} maps slot ${slot}, which LMDB does not hold, to '${id}'`);
  }
  for (const slot of index.liveSlots) {
    if (!slots.has(slot))
      ctx.report(
        "vector-index",
        "vector_types",
        [label],
        `${at} holds slot ${slot} as live, which LMDB does not hold (a dropped vector still searchable)`,
      );
  }
}
