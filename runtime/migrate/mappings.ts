// MIGRATION items: a mapping rewrites every record of its type (AS casts, ROUND / FLOOR / CEIL),
// unvalidated until the type's revalidation that follows in the same transaction.
import { setMember, type NodeItem, type PropValue } from "../../core/items.js";
import type { ProgressTask } from "../../core/progress.js";
import type { JsonValue, MigrationDescriptor, MigrationFn, MigrationItemDescriptor, ValueType } from "../../core/schema.js";
import { isIntegerScalar, isNumericScalar } from "../../core/scalars.js";
import { describeValue } from "../../core/values.js";
import { math } from "../ops/math.js";
import { recordsOfType } from "./records-of-type.js";
import type { StoreDbs } from "../store/dbs.js";
import type { SchemaInfo } from "../store/schema-info.js";
import type { MigrationWriter } from "../write/migration-writer.js";
import { MigrationError, NOTHING_CHANGED } from "./advice.js";
import { same } from "./definitions.js";
import { declares, typeInfo } from "./plan.js";

/**
 * Rewrites every record of the item's type with the mapping (unvalidated until `revalidate`), and
 * drops the fields the type does not declare in the migration's target version (`declared`): a
 * field is dropped only by the item of the migration whose new type no longer has it, never
 * because a later version removed it. A V type's vector (`data`, `embedding`) must come out
 * unchanged: the HNSW index holds it (the compiler refuses such a mapping, E314).
 */
export function applyItem(
  dbs: StoreDbs,
  writer: MigrationWriter,
  schema: SchemaInfo,
  item: MigrationItemDescriptor,
  m: MigrationDescriptor,
  current: number | undefined,
  task?: ProgressTask,
): number {
  const ref = `${item.kind}::${item.type}`;
  // A descriptor compiled before `declared` existed: only the migration to the current version drops.
  const declared =
    item.declared ??
    (m.to === current && declares(schema, item.kind, item.type) ? typeInfo(schema, item.kind, item.type).fields.map((f) => f.name) : null);
  const keep =
    declared === null
      ? null
      : new Set([
          "id",
          "label",
          ...(item.kind === "E" ? ["from_node", "to_node"] : []),
          ...(item.kind === "V" ? ["data"] : []),
          ...declared,
        ]);
  let n = 0;
  for (const rec of recordsOfType(dbs, item.kind, item.type)) {
    task?.advance(1);
    const next: NodeItem = { ...rec };
    for (const f of item.fields) {
      let raw: PropValue | undefined = f.source.kind === "literal" ? f.source.value : rec[f.source.name];
      if (raw === undefined || raw === null) {
        delete next[f.name];
        continue;
      }
      const where = `${item.kind}::${item.type} ${rec.id} field '${f.name}' (MIGRATION schema::${m.from} => schema::${m.to})`;
      if (f.source.kind === "field" && f.source.fn !== undefined) raw = applyFn(f.source.fn, f.source.name, raw, where);
      setMember(next, f.name, f.cast === null ? raw : cast(raw, f.cast, f.source.kind === "field" ? f.source.name : null, where));
    }
    // A field the mapping renamed away from is gone unless the mapping also keeps it.
    for (const f of item.fields) {
      const src = f.source;
      if (src.kind === "field" && src.name !== f.name && !item.fields.some((g) => g.name === src.name)) delete next[src.name];
    }
    if (item.kind === "V") {
      for (const member of ["data", "embedding"]) {
        // `embedding` is the vector when it holds one (an `embedding: [F64]` / `[F32]` field).
        if (member === "embedding" && !Array.isArray(rec[member]) && !Array.isArray(next[member])) continue;
        if (same(rec[member], next[member])) continue;
        throw new MigrationError(
          `${ref} ${rec.id}: MIGRATION schema::${m.from} => schema::${m.to} changes its vector ('${member}'), but vectors cannot be changed by a migration (the vector index holds them); ${NOTHING_CHANGED}. ` +
            `Leave '${member}' unmapped, and re-add the vectors (drop them and add them again) to change them`,
        );
      }
    }
    // The vector stays where it is: revalidate refuses one the new type keeps elsewhere.
    if (keep !== null)
      for (const member of Object.keys(next))
        if (!keep.has(member) && !(item.kind === "V" && member === "embedding" && Array.isArray(next[member]))) delete next[member];
    writer.storeMappedRecord(item.kind, item.type, next);
    n++;
  }
  return n;
}

/** `ROUND(f)`, `FLOOR(f)`, `CEIL(f)` in a mapping: the stored number (or numeric string) rounded. */
function applyFn(fn: MigrationFn, source: string, value: PropValue, where: string): number {
  const n = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
  if (!Number.isFinite(n)) throw new MigrationError(`${where}: ${fn}(${source}) needs a number, got ${describeValue(value)}`);
  return math(fn, [n]);
}

/**
 * `AS T`: numbers from numeric strings, strings from numbers and booleans, booleans from
 * "true"/"false". AS converts only what T represents exactly: 9.99 AS I64 is refused (ROUND,
 * FLOOR or CEIL in the mapping make an integer of it).
 */
function cast(value: PropValue, type: ValueType, source: string | null, where: string): JsonValue {
  if (type.kind !== "scalar") return value;
  const numeric = isNumericScalar(type.name);
  if (numeric) {
    const n = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
    if (!Number.isFinite(n)) throw new MigrationError(`${where}: cannot convert ${describeValue(value)} to ${type.name}`);
    if (isIntegerScalar(type.name) && !Number.isInteger(n)) {
      const f = source ?? "x";
      throw new MigrationError(
        `${where}: ${describeValue(value)} is not an integer: AS ${type.name} converts only values that are exactly an integer of ${type.name}, it never rounds; ` +
          `round it in the mapping with ROUND(${f}), FLOOR(${f}) or CEIL(${f}) (e.g. ${f}: ROUND(${f})), or keep the field a float (F64)`,
      );
    }
    return n;
  }
  if (type.name === "String")
    return typeof value === "string"
      ? value
      : typeof value === "number" || typeof value === "boolean"
        ? String(value)
        : JSON.stringify(value);
  if (type.name === "Boolean") {
    if (typeof value === "boolean") return value;
    if (value === "true" || value === "false") return value === "true";
    throw new MigrationError(`${where}: cannot convert ${describeValue(value)} to Boolean`);
  }
  return value;
}
