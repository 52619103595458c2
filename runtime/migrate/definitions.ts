// The definitions of the stored types (meta "schema_types"): each type's definition as plain
// data, as its records were last checked against. A type whose definition differs at open is
// revalidated (revalidate.ts).
import type { JsonValue, SchemaDescriptor, ValueType } from "../../core/schema.js";
import { MigrationError, NOTHING_CHANGED } from "./advice.js";

import type { StoreDbs } from "../store/dbs.js";
import { SCHEMA_TYPES_KEY, SCHEMA_VERSION_KEY } from "../store/keys.js";

export { SCHEMA_TYPES_KEY, SCHEMA_VERSION_KEY };

/**
 * meta "schema_types" (SCHEMA_TYPES_KEY): `{format: 1, types: {"N::User": definition, ..}}`, each type's definition the stored
 * records were last checked against. A store written before the format existed holds the bare
 * `types` map, read as format 1. A later change to the definitions' shape bumps `format`, and
 * `readDefinitions` converts the older shape instead of revalidating every type.
 */
export const SCHEMA_TYPES_FORMAT = 1;

export type Definitions = Record<string, JsonValue>;

/** Each type's definition as plain data in a fixed member order, keyed "N::User" / "E::Knows" / "V::Doc". */
export function typeDefinitions(descriptor: SchemaDescriptor): Definitions {
  const fields = (fs: SchemaDescriptor["nodes"][number]["fields"]): JsonValue =>
    fs.map((f) => {
      const d: JsonValue =
        f.default === null ? null : f.default.kind === "now" ? { kind: "now" } : { kind: "literal", value: f.default.value };
      return { name: f.name, type: valueType(f.type), index: f.index, default: d };
    });
  const out: Definitions = {};
  for (const n of descriptor.nodes) out[`N::${n.name}`] = { fields: fields(n.fields) };
  for (const v of descriptor.vectors ?? []) out[`V::${v.name}`] = { fields: fields(v.fields) };
  for (const e of descriptor.edges) out[`E::${e.name}`] = { from: e.from, to: e.to, unique: e.unique, fields: fields(e.fields) };
  return out;
}

function valueType(t: ValueType): JsonValue {
  switch (t.kind) {
    case "scalar":
      return { kind: "scalar", name: t.name };
    case "array":
      return { kind: "array", element: valueType(t.element) };
    case "object":
      return { kind: "object", fields: t.fields.map((f) => ({ name: f.name, type: valueType(f.type), optional: f.optional })) };
  }
}

/** Equal as stored data (members in the same order). */
export const same = (a: JsonValue | undefined, b: JsonValue | undefined): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * Meta "schema_types" as `{types, format}`: `{format: 1, types}`, or the bare types map written
 * before the format existed (format 1 too). A format this Strand does not know refuses the open.
 */
export function readDefinitions(value: unknown): { types: Definitions | undefined; format: number | undefined } {
  if (value === undefined || value === null) return { types: undefined, format: undefined };
  const v = value as Record<string, unknown>;
  if (typeof v.format !== "number") return { types: v as Definitions, format: undefined };
  if (v.format !== SCHEMA_TYPES_FORMAT) {
    throw new MigrationError(
      `the data's recorded type definitions are in format ${String(v.format)}, which this version of Strand does not read (it reads format ${SCHEMA_TYPES_FORMAT}); open it with the Strand that wrote it, or a newer one; ${NOTHING_CHANGED}`,
    );
  }
  return { types: v.types as Definitions, format: SCHEMA_TYPES_FORMAT };
}

/** The schema::N the data is at; inside the open's migration transaction. */
export function writeSchemaVersion(dbs: StoreDbs, version: number): void {
  dbs.meta.putSync(SCHEMA_VERSION_KEY, version);
}

/** Each type's definition as the stored records were last checked against. */
export function writeSchemaTypes(dbs: StoreDbs, value: { format: number; types: Record<string, JsonValue> }): void {
  dbs.meta.putSync(SCHEMA_TYPES_KEY, value);
}
