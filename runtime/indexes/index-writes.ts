// Secondary indexes (INDEX / UNIQUE INDEX fields) and edge-type uniqueness, maintained inside
// the write transaction of the record they describe. Checks run before any index write, so a
// violation leaves the indexes as they were.
import { StrandError } from "../../core/errors.js";
import type { NodeItem } from "../../core/items.js";
import type { JsonValue } from "../../core/schema.js";
import { describeValue } from "../../core/values.js";
import type { StoreDbs } from "../store/dbs.js";
import { edgeUniqueKey, holdsId, idValue, indexBound, indexKey, labelRange, MAX_KEY, uniqueKey } from "../store/keys.js";
import type { EdgeTypeInfo, FieldInfo, TypeInfo } from "../store/schema-info.js";

/** Stored values are canonical (objects in declared member order), so JSON equality is exact. */
function sameValue(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || typeof a !== "object" || typeof b !== "object") return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

function violation(info: TypeInfo, field: FieldInfo, record: NodeItem): StrandError {
  return new StrandError(
    "UNIQUE_VIOLATION",
    `UNIQUE INDEX violated: ${info.kind}::${info.name} field '${field.name}' already has value ${describeValue(record[field.name])}`,
  );
}

/** Throws UNIQUE_VIOLATION if writing `next` (replacing `prev`, if any) would break a UNIQUE INDEX. */
export function checkUnique(dbs: StoreDbs, info: TypeInfo, prev: NodeItem | null, next: NodeItem): void {
  for (const field of info.indexed) {
    if (field.descriptor.index !== "unique") continue;
    const v = next[field.name];
    if (v === undefined) continue;
    if (prev && sameValue(prev[field.name], v)) continue;
    const owner = dbs.unique.get(uniqueKey(info.kind, info.name, field.name, v));
    if (owner !== undefined && !holdsId(owner, next.id)) throw violation(info, field, next);
  }
}

function remove(dbs: StoreDbs, info: TypeInfo, field: FieldInfo, record: NodeItem): void {
  const v = record[field.name];
  if (v === undefined) return;
  if (field.descriptor.index === "unique") {
    // Only the owner's claim: the value may already belong to another item of this transaction.
    const key = uniqueKey(info.kind, info.name, field.name, v);
    if (holdsId(dbs.unique.get(key), record.id)) dbs.unique.removeSync(key);
  } else {
    dbs.index.removeSync(indexKey(info.kind, info.name, field.name, v, record.id));
  }
}

function insert(dbs: StoreDbs, info: TypeInfo, field: FieldInfo, record: NodeItem): void {
  const v = record[field.name];
  if (v === undefined) return;
  if (field.descriptor.index === "unique") dbs.unique.putSync(uniqueKey(info.kind, info.name, field.name, v), idValue(record.id));
  else dbs.index.putSync(indexKey(info.kind, info.name, field.name, v, record.id), null);
}

/** Index entries for a new record. */
export function indexNew(dbs: StoreDbs, info: TypeInfo, record: NodeItem): void {
  if (info.indexed.length === 0) return;
  checkUnique(dbs, info, null, record);
  for (const field of info.indexed) insert(dbs, info, field, record);
}

/** Moves index entries of fields whose value changed from `prev` to `next`. */
export function indexUpdate(dbs: StoreDbs, info: TypeInfo, prev: NodeItem, next: NodeItem): void {
  if (info.indexed.length === 0) return;
  checkUnique(dbs, info, prev, next);
  for (const field of info.indexed) {
    const a = prev[field.name];
    const b = next[field.name];
    if (sameValue(a, b)) continue;
    remove(dbs, info, field, prev);
    insert(dbs, info, field, next);
  }
}

/** Index entries of a record being deleted. */
export function indexRemove(dbs: StoreDbs, info: TypeInfo, record: NodeItem): void {
  for (const field of info.indexed) remove(dbs, info, field, record);
}

/** For `E::T UNIQUE`: claims (from, to) for this edge, or throws UNIQUE_VIOLATION. */
export function claimEdgeUnique(dbs: StoreDbs, info: EdgeTypeInfo, edgeId: string, fromId: string, toId: string): void {
  if (!info.unique) return;
  const key = edgeUniqueKey(info.name, fromId, toId);
  if (dbs.edgeUnique.get(key) !== undefined) {
    throw new StrandError("UNIQUE_VIOLATION", `E::${info.name} from ${fromId} to ${toId} already exists (the edge type is UNIQUE)`);
  }
  dbs.edgeUnique.putSync(key, idValue(edgeId));
}

/** For `E::T UNIQUE`: throws UNIQUE_VIOLATION when (from, to) is taken; writes nothing. */
export function checkEdgeUnique(dbs: StoreDbs, info: EdgeTypeInfo, fromId: string, toId: string): void {
  if (info.unique && dbs.edgeUnique.get(edgeUniqueKey(info.name, fromId, toId)) !== undefined) {
    throw new StrandError("UNIQUE_VIOLATION", `E::${info.name} from ${fromId} to ${toId} already exists (the edge type is UNIQUE)`);
  }
}

/** For `E::T UNIQUE`: frees (from, to) when the deleted edge holds it. */
export function releaseEdgeUnique(dbs: StoreDbs, info: EdgeTypeInfo, edgeId: string, fromId: string, toId: string): void {
  if (!info.unique) return;
  const key = edgeUniqueKey(info.name, fromId, toId);
  if (holdsId(dbs.edgeUnique.get(key), edgeId)) dbs.edgeUnique.removeSync(key);
}

/** Deletes every index entry and claim of the type (a migration's revalidation writes them again). */
export function clearTypeIndexes(dbs: StoreDbs, info: TypeInfo): void {
  const range = { start: [info.kind, info.name], end: [info.kind, info.name, MAX_KEY] };
  // Binary keys are copied: the commit log keeps each removed key, and lmdb reuses a read key's memory.
  const byValue = { start: indexBound([info.kind, info.name]), end: indexBound([info.kind, info.name], true) };
  for (const key of dbs.index.getKeys(byValue)) dbs.index.removeSync(Uint8Array.prototype.slice.call(key));
  for (const key of dbs.unique.getKeys(range)) dbs.unique.removeSync(key);
  if (info.kind === "E")
    for (const key of dbs.edgeUnique.getKeys(labelRange(info.name))) dbs.edgeUnique.removeSync(Uint8Array.prototype.slice.call(key));
}
