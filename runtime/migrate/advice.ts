// The refusal messages of a migration or revalidation that does not fit: what did not fit, and
// how to convert the stored records (a mapping to write, in the migration to write).
import { StrandError } from "../../core/errors.js";
import type { NodeItem, PropValue } from "../../core/items.js";
import type { MigrationDescriptor, MigrationItemDescriptor, ValueType } from "../../core/schema.js";
import { isIntegerScalar, isNumericScalar } from "../../core/scalars.js";
import { describeValue } from "../../core/values.js";
import type { EdgeTypeInfo } from "../store/schema-info.js";

/** The store's data does not fit the project's schema (the open is refused; nothing changed). */
export class MigrationError extends StrandError {
  constructor(message: string) {
    super("SCHEMA_MISMATCH", message);
    this.name = "MigrationError";
  }
}

/** Ends every refusal: an open that refuses writes nothing. */
export const NOTHING_CHANGED = "nothing was changed (the data still opens with the previous project)";

/** How the refusal messages tell the user to convert what does not fit. */
export interface Advice {
  /** the project's current version, or undefined without versions */
  current: number | undefined;
  /** the version the data is at (meta "schema_version") before this open, if any */
  stored: number | undefined;
  /** the MIGRATION that leads to `current` when one runs at this open */
  last: MigrationDescriptor | null;
}

export interface Revalidation {
  /** "migrated": a MIGRATION item of the chain rewrote the records (each is written back);
   *  "changed": the definition changed without one. Either way a stored field the type no longer
   *  declares refuses the open: applyItem already dropped what the migrations drop. */
  mode: "migrated" | "changed";
  advice: Advice;
  migration: MigrationDescriptor | null;
  item: MigrationItemDescriptor | null;
}

export function misfit(
  ref: string,
  rec: NodeItem,
  field: string,
  type: ValueType,
  value: PropValue,
  message: string,
  r: Revalidation,
): MigrationError {
  const mapping = suggestMapping(field, type, value);
  if (r.mode === "migrated") {
    const mapped = r.item!.fields.find((f) => f.name === field);
    const m = `MIGRATION schema::${r.migration!.from} => schema::${r.migration!.to}`;
    const fix = mapped
      ? `the mapping of '${field}' in ${m} does not produce a value of its new type`
      : `${m} does not map '${field}'${mapping ? `: convert it there, e.g. ${ref} => _::{ ${mapping} }` : ""}`;
    return new MigrationError(`${ref} ${rec.id}: ${message}; ${fix}; ${NOTHING_CHANGED}`);
  }
  return new MigrationError(
    `${ref} ${rec.id}: ${message}. The definition of ${ref} changed since this record was stored, and stored records must fit it; ${NOTHING_CHANGED}. ${convert(ref, mapping ?? `${field}: <a literal of the new type>`, r.advice)}`,
  );
}

export function undeclared(ref: string, rec: NodeItem, member: string, advice: Advice): MigrationError {
  return new MigrationError(
    `${ref} ${rec.id}: holds field '${member}' (${describeValue(rec[member])}), which ${ref} no longer declares; stored values are never dropped silently, so ${NOTHING_CHANGED}. ` +
      `Declare the field again, or drop or rename it with a migration. ${convert(ref, "", advice)}: a MIGRATION item drops the fields the new type does not declare, and newName: ${member} renames one`,
  );
}

export function duplicate(ref: string, field: string, value: PropValue, owner: string, id: string, r: Revalidation): MigrationError {
  const what =
    r.mode === "migrated"
      ? `after MIGRATION schema::${r.migration!.from} => schema::${r.migration!.to}, records ${owner} and ${id} of ${ref} both hold ${describeValue(value)} in field '${field}', a UNIQUE INDEX`
      : `${ref} field '${field}' is now a UNIQUE INDEX, but records ${owner} and ${id} both hold ${describeValue(value)}`;
  return new MigrationError(
    `${what}; ${NOTHING_CHANGED}. ` +
      `Make the values distinct with the previous project, or declare the field INDEX instead of UNIQUE INDEX`,
  );
}

export function duplicateEdge(edge: EdgeTypeInfo, owner: string, rec: NodeItem, r: Revalidation): MigrationError {
  const when = r.mode === "migrated" ? ` after MIGRATION schema::${r.migration!.from} => schema::${r.migration!.to}` : "";
  return new MigrationError(
    `E::${edge.name} is UNIQUE, but edges ${owner} and ${rec.id} both go from ${String(rec.from_node)} to ${String(rec.to_node)}${when}; ${NOTHING_CHANGED}. ` +
      `Drop one of them with the previous project, or declare E::${edge.name} without UNIQUE`,
  );
}

/** A mapping that would convert `value` to `type`, or null when no conversion exists. */
function suggestMapping(field: string, type: ValueType, value: PropValue): string | null {
  if (type.kind !== "scalar") return null;
  const name = type.name;
  if (isIntegerScalar(name) && typeof value === "number" && Number.isFinite(value) && !Number.isInteger(value))
    return `${field}: ROUND(${field})`;
  if (isNumericScalar(name) && typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) {
    return isIntegerScalar(name) && !Number.isInteger(Number(value)) ? `${field}: ROUND(${field})` : `${field}: ${field} AS ${name}`;
  }
  if (name === "String" && (typeof value === "number" || typeof value === "boolean")) return `${field}: ${field} AS String`;
  if (name === "Boolean" && (value === "true" || value === "false")) return `${field}: ${field} AS Boolean`;
  return null;
}

/**
 * How to convert stored records: a migration to write, as fits the project's versions and the
 * data's. The next version is one past the project's current version or, without versions, past
 * the version the data is at (a store migrated once is at schema::N however the project is written).
 */
function convert(ref: string, mapping: string, advice: Advice): string {
  const item = mapping === "" ? `${ref} => _::{}` : `${ref} => _::{ ${mapping} }`;
  if (advice.last !== null) {
    return `List ${ref} in MIGRATION schema::${advice.last.from} => schema::${advice.last.to}, e.g. ${item}`;
  }
  const v = advice.current ?? advice.stored ?? 1;
  const declare =
    advice.current !== undefined
      ? `keep schema::${v} as the data was written, declare the new definition as schema::${v + 1}`
      : `declare versions: put the schema the data was written with in schema::${v} { .. }${advice.stored !== undefined ? ` (the data is at schema::${v})` : ""} and the new one in schema::${v + 1} { .. }`;
  return `To convert stored records, ${declare}, and add a migration, e.g. MIGRATION schema::${v} => schema::${v + 1} { ${item} }`;
}
