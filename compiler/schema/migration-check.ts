// `schema::N { .. }` blocks and `MIGRATION schema::A => schema::B { N::T => _::{ f: source, g: "lit", h: x AS U32 } }`.
// The highest version is the current schema; each migration becomes plain data in the schema
// descriptor, which the store applies to stored records when it opens (runtime/migrate/).
//
// A mapping's value is a field of the source type (`old` or `_::{old}`), ROUND/FLOOR/CEIL of a
// numeric one (`price: ROUND(price)`), or a literal; `AS T` converts it (exactly: AS never rounds). Fields of the target type that no mapping names keep the source field of the
// same name, else take their default.
import type * as A from "../syntax/ast.js";
import { helixTypeName } from "../../core/schema.js";
import { closest, error, type Diagnostic } from "../diagnostics/diagnostic.js";
import { checkSchema } from "./schema-check.js";
import { literalFitsType } from "../ir/value-types.js";
import type {
  MigrationDescriptor,
  MigrationFieldDescriptor,
  MigrationFn,
  MigrationItemDescriptor,
  SchemaDescriptor,
  ValueType,
} from "../../core/schema.js";
import { resolveValueType } from "./schema-check.js";
import { isFloatScalar } from "../../core/scalars.js";

/** Checked schemas of every declared version, by version number. */
export function checkVersions(versions: ReadonlyMap<number, A.SchemaItem[]>, diagnostics: Diagnostic[]): Map<number, SchemaDescriptor> {
  const out = new Map<number, SchemaDescriptor>();
  for (const [v, items] of versions) out.set(v, checkSchema(items, diagnostics).descriptor);
  return out;
}

export function checkMigrations(
  migrations: readonly A.Migration[],
  versions: ReadonlyMap<number, SchemaDescriptor>,
  diagnostics: Diagnostic[],
): MigrationDescriptor[] {
  const out: MigrationDescriptor[] = [];
  const seen = new Set<number>();
  for (const m of migrations) {
    const from = versions.get(m.fromVersion);
    const to = versions.get(m.toVersion);
    if (from === undefined || to === undefined) {
      const missing = from === undefined ? m.fromVersion : m.toVersion;
      diagnostics.push(
        error(
          "E311",
          `MIGRATION refers to schema::${missing}, which is not declared`,
          m.span,
          `declared: ${
            [...versions.keys()]
              .sort((a, b) => a - b)
              .map((v) => `schema::${v}`)
              .join(", ") || "none"
          }`,
        ),
      );
      continue;
    }
    if (m.toVersion <= m.fromVersion) {
      diagnostics.push(error("E311", `a MIGRATION goes to a higher version: schema::${m.fromVersion} => schema::${m.toVersion}`, m.span));
      continue;
    }
    if (seen.has(m.fromVersion)) {
      diagnostics.push(error("E311", `two migrations start at schema::${m.fromVersion}`, m.span, "a version migrates one way"));
      continue;
    }
    seen.add(m.fromVersion);
    const items: MigrationItemDescriptor[] = [];
    for (const item of m.items) {
      const checked = checkItem(item, from, to, diagnostics);
      if (checked !== null) items.push(checked);
    }
    out.push({ from: m.fromVersion, to: m.toVersion, items });
  }
  return out.sort((a, b) => a.from - b.from);
}

type TypeDesc = { name: string; fields: SchemaDescriptor["nodes"][number]["fields"] };

function typesOf(schema: SchemaDescriptor, kind: "N" | "E" | "V"): readonly TypeDesc[] {
  return kind === "N" ? schema.nodes : kind === "E" ? schema.edges : schema.vectors;
}

function checkItem(
  item: A.MigrationItem,
  from: SchemaDescriptor,
  to: SchemaDescriptor,
  diagnostics: Diagnostic[],
): MigrationItemDescriptor | null {
  const source = typesOf(from, item.itemKind).find((t) => t.name === item.from.name);
  const target = typesOf(to, item.itemKind).find((t) => t.name === item.to.name);
  if (source === undefined || target === undefined) {
    const [name, schema] = source === undefined ? [item.from, from] : [item.to, to];
    const guess = closest(
      name.name,
      typesOf(schema, item.itemKind).map((t) => t.name),
    );
    diagnostics.push(
      error(
        "E101",
        `unknown type '${name.name}' in that schema version`,
        name.span,
        guess !== undefined ? `did you mean '${guess}'?` : undefined,
      ),
    );
    return null;
  }
  if (source.name !== target.name) {
    diagnostics.push(error("E900", "renaming a type in a migration is not supported yet", item.to.span));
    return null;
  }
  const fields: MigrationFieldDescriptor[] = [];
  // A V type's vector (`data`, or its `embedding: [F64]` field) is in the HNSW index too: a
  // migration that rewrote it would desync the index.
  const vectorMember = item.itemKind === "V" ? vectorMemberOf(target) : null;
  for (const m of item.mappings) {
    if (item.itemKind === "V" && (m.field.name === "data" || m.field.name === vectorMember)) {
      diagnostics.push(
        error(
          "E314",
          `'${m.field.name}' holds the vector of ${target.name}: vectors cannot be changed by a migration`,
          m.field.span,
          "leave it unmapped, and re-add the vectors (drop them and add them again) to change them",
        ),
      );
      continue;
    }
    const field = target.fields.find((f) => f.name === m.field.name);
    if (field === undefined) {
      const guess = closest(
        m.field.name,
        target.fields.map((f) => f.name),
      );
      diagnostics.push(
        error(
          "E110",
          `unknown field '${m.field.name}' on ${target.name} in the new schema`,
          m.field.span,
          guess !== undefined ? `did you mean '${guess}'?` : undefined,
        ),
      );
      continue;
    }
    const cast = m.cast === null ? null : resolveValueType(m.cast, diagnostics);
    if (m.value.kind === "Literal") {
      const fit = literalFitsType(m.value.literal, cast ?? field.type);
      if (!fit.ok) {
        diagnostics.push(error("E201", fit.message, m.value.span));
        continue;
      }
      fields.push({ name: field.name, source: { kind: "literal", value: fit.value }, cast });
      continue;
    }
    // ROUND(f), FLOOR(f), CEIL(f): the number of f, rounded (AS never rounds).
    const call = m.value.kind === "Call" && ROUNDING.has(m.value.callee.name) ? m.value : null;
    if (call !== null && (call.args.length !== 1 || call.args[0]!.name !== null)) {
      diagnostics.push(
        error(
          "E209",
          `${call.callee.name} takes one field of the old type`,
          call.span,
          `e.g. ${field.name}: ${call.callee.name}(${field.name})`,
        ),
      );
      continue;
    }
    const ref = sourceFieldName(call !== null ? call.args[0]!.value : m.value);
    if (ref === null) {
      diagnostics.push(
        error(
          "E209",
          "a migration maps a field to a field of the old type, ROUND/FLOOR/CEIL of one, or a literal",
          m.value.span,
          "e.g. fullName: name, age: years AS U32, or price: ROUND(price)",
        ),
      );
      continue;
    }
    const old = source.fields.find((f) => f.name === ref.name);
    if (old === undefined) {
      const guess = closest(
        ref.name,
        source.fields.map((f) => f.name),
      );
      diagnostics.push(
        error(
          "E110",
          `unknown field '${ref.name}' on ${source.name} in the old schema`,
          ref.span,
          guess !== undefined ? `did you mean '${guess}'?` : undefined,
        ),
      );
      continue;
    }
    if (call === null) {
      fields.push({ name: field.name, source: { kind: "field", name: ref.name }, cast });
      continue;
    }
    const fn = call.callee.name as MigrationFn;
    if (!isNumberOrString(old.type) || !isNumber(cast ?? field.type)) {
      const what = !isNumberOrString(old.type)
        ? `the old field '${ref.name}' is ${helixTypeName(old.type)}`
        : `the new field '${field.name}' is ${helixTypeName(cast ?? field.type)}`;
      diagnostics.push(error("E214", `${fn} rounds a number into a number field, but ${what}`, call.span));
      continue;
    }
    fields.push({ name: field.name, source: { kind: "field", name: ref.name, fn }, cast });
  }
  return { kind: item.itemKind, type: target.name, fields, declared: target.fields.map((f) => f.name) };
}

/** The field that holds a V type's vector (`embedding: [F64]` or `[F32]`), or null: it is `data`. */
function vectorMemberOf(t: TypeDesc): string | null {
  const f = t.fields.find((x) => x.name === "embedding");
  const ty = f?.type;
  return ty?.kind === "array" && ty.element.kind === "scalar" && isFloatScalar(ty.element.name) ? "embedding" : null;
}

const ROUNDING: ReadonlySet<string> = new Set<MigrationFn>(["ROUND", "FLOOR", "CEIL"]);

const isNumber = (t: ValueType): boolean => t.kind === "scalar" && /^[IUF]\d+$/.test(t.name);
/** A String may hold a number ("9.99"); the store refuses the records whose string does not. */
const isNumberOrString = (t: ValueType): boolean => isNumber(t) || (t.kind === "scalar" && t.name === "String");

function sourceFieldName(value: A.Expr): A.Identifier | null {
  if (value.kind === "Ident") return { name: value.name, span: value.span };
  if (value.kind === "Traversal" && value.source.kind === "Anonymous" && value.steps.length === 1) {
    const step = value.steps[0]!;
    if (step.kind === "Projection" && step.fields.length === 1 && step.fields[0]!.value === null) return step.fields[0]!.key;
  }
  return null;
}
