// The schema as the runtime sees it: plain JSON data emitted by the compiler into `schema.ts`.
// The runtime validates every written value against it and keeps the indexes it declares.

export type { ScalarName } from "./scalars.js";
import type { ScalarName } from "./scalars.js";

export type ValueType =
  | { kind: "scalar"; name: ScalarName }
  | { kind: "array"; element: ValueType }
  | { kind: "object"; fields: ObjectFieldType[] };

export interface ObjectFieldType {
  name: string;
  type: ValueType;
  optional: boolean;
}

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export type FieldDefault = { kind: "literal"; value: JsonValue } | { kind: "now" };

export interface FieldDescriptor {
  name: string;
  type: ValueType;
  index: "none" | "index" | "unique";
  default: FieldDefault | null;
}

export interface NodeTypeDescriptor {
  name: string;
  fields: FieldDescriptor[];
}

export interface VectorTypeDescriptor {
  name: string;
  fields: FieldDescriptor[];
}

export interface EdgeTypeDescriptor {
  name: string;
  from: string;
  to: string;
  /** `E::T UNIQUE`: at most one edge of this type per (from, to). */
  unique: boolean;
  fields: FieldDescriptor[];
}

export interface SchemaDescriptor {
  nodes: NodeTypeDescriptor[];
  vectors: VectorTypeDescriptor[];
  edges: EdgeTypeDescriptor[];
  /** `schema::N` of a versioned project (absent when the project declares no versions) */
  version?: number;
  /** how stored records of older versions become records of this one, oldest first */
  migrations?: MigrationDescriptor[];
}

/** `MIGRATION schema::from => schema::to { .. }` as data (see runtime/migrate/). */
export interface MigrationDescriptor {
  from: number;
  to: number;
  items: MigrationItemDescriptor[];
}

export interface MigrationItemDescriptor {
  kind: "N" | "E" | "V";
  type: string;
  /** the fields the mapping names; other fields of the new type keep the old field of that name */
  fields: MigrationFieldDescriptor[];
  /**
   * The field names the type declares in the migration's target version: the item drops every
   * other field (a later version's definition never drops fields). Absent in descriptors compiled
   * before it existed: then only an item of the migration to the current version drops fields.
   */
  declared?: string[];
}

/** The rounding functions a mapping may apply to a field: `price: ROUND(price)`. */
export type MigrationFn = "ROUND" | "FLOOR" | "CEIL";

export interface MigrationFieldDescriptor {
  name: string;
  /** a field of the old type (`fn` rounds its number first), or a literal */
  source: { kind: "field"; name: string; fn?: MigrationFn } | { kind: "literal"; value: JsonValue };
  /** `AS T`: convert the value to this type first */
  cast: ValueType | null;
}

/** Names every record carries besides its fields; a schema may not declare them. */
export const RESERVED_FIELD_NAMES: readonly string[] = ["id", "label", "from_node", "to_node"];

/** Vectors also carry their embedding and, in search results, a similarity score. */
export const RESERVED_VECTOR_FIELD_NAMES: readonly string[] = [...RESERVED_FIELD_NAMES, "data", "score"];

/** The HelixQL spelling of a value type: `String`, `[F64]`, `{name: String, age?: U32}`. */
export function helixTypeName(type: ValueType): string {
  switch (type.kind) {
    case "scalar":
      return type.name;
    case "array":
      return `[${helixTypeName(type.element)}]`;
    case "object":
      return `{${type.fields.map((f) => `${f.name}${f.optional ? "?" : ""}: ${helixTypeName(f.type)}`).join(", ")}}`;
  }
}
