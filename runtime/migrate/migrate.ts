// Stored records are made to fit the project's schema when a store opens, before anything is
// served or any index is loaded. Two things can make them not fit:
//
// - Migrations: a project whose `schema::N` is newer than the data's. The chain (stored version →
//   ... → current) rewrites every record of each type a MIGRATION item names.
// - Changed definitions: meta "schema_types" holds the definition of every type as the data was
//   last opened with (see keys.ts). A type whose definition differs now (a field added, removed,
//   retyped, (un)indexed, a DEFAULT, an edge's From/To/UNIQUE), with or without versions, has its
//   records revalidated. A store that holds records but no "schema_types" (written before it
//   existed) has every type revalidated once.
//
// Before either, records of a type the schema no longer declares (node, edge or vector type)
// refuse the open, with nothing written: they would be unreachable, and nothing is dropped silently.
//
// Both happen in ONE write transaction: records are checked against the current definition
// (fields in declaration order, defaults filled for absent fields), their index / unique /
// edge-unique entries rebuilt, and the BM25 marker dropped when a text-bearing record changed so
// the keyword index rebuilds. Anything that does not fit aborts the transaction and the store
// refuses to open, naming the type, record, field and value, and how to convert it: nothing is
// ever dropped or altered to fit, and the data stays as it was (the previous project can still
// open it). Only a MIGRATION item drops fields: the fields the type does not declare in that
// migration's target version (the item's `declared`), so over a chain a field a later version
// removes is dropped only by that later step's item, else the record refuses the open.
//
// meta "schema_version" holds the version the data is at. A store without it that already holds
// records predates versioning and is taken to be at the oldest version the migrations start from.
import { StrandError } from "../../core/errors.js";
import { setMember, type NodeItem, type PropValue } from "../../core/items.js";
import { math } from "../ops/math.js";
import { textFields } from "../search/document.js";
import type { JsonValue, MigrationDescriptor, MigrationFn, MigrationItemDescriptor, SchemaDescriptor, ValueType } from "../../core/schema.js";
import { checkValue, describeValue } from "../../core/values.js";
import type { StoreDbs } from "../store/dbs.js";
import { indexNew } from "../store/indexes.js";
import { edgeUniqueKey, MAX_KEY, uniqueKey, type ItemKind, type Key } from "../store/keys.js";
import { defaultFor } from "../store/records.js";
import { removedTypesMessage, type RemovedType } from "../store/removed-types.js";
import type { EdgeTypeInfo, SchemaInfo, TypeInfo, VectorTypeInfo } from "../store/schema-info.js";

export const SCHEMA_VERSION_KEY = "schema_version";
/**
 * meta: `{format: 1, types: {"N::User": definition, ..}}`, each type's definition the stored
 * records were last checked against. A store written before the format existed holds the bare
 * `types` map, read as format 1. A later change to the definitions' shape bumps `format`, and
 * `readDefinitions` converts the older shape instead of revalidating every type.
 */
export const SCHEMA_TYPES_KEY = "schema_types";
export const SCHEMA_TYPES_FORMAT = 1;
/** runtime/search/bm25-index.ts's marker of how the keyword index was built */
const BM25_MARKER_KEY = "bm25";

/** The store's data does not fit the project's schema (the open is refused; nothing changed). */
export class MigrationError extends StrandError {
  constructor(message: string) {
    super("SCHEMA_MISMATCH", message);
    this.name = "MigrationError";
  }
}

export interface MigrationOutcome {
  from: number | null;
  to: number | null;
  /** records rewritten by a MIGRATION item, by "N::Type" */
  rewritten: Record<string, number>;
  /** records checked because their type's definition changed (types without a MIGRATION item), by "N::Type" */
  revalidated: Record<string, number>;
}

type Definitions = Record<string, JsonValue>;

/** Each type's definition as plain data in a fixed member order, keyed "N::User" / "E::Knows" / "V::Doc". */
export function typeDefinitions(descriptor: SchemaDescriptor): Definitions {
  const fields = (fs: SchemaDescriptor["nodes"][number]["fields"]): JsonValue =>
    fs.map((f) => {
      const d: JsonValue = f.default === null ? null : f.default.kind === "now" ? { kind: "now" } : { kind: "literal", value: f.default.value };
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

const same = (a: JsonValue | undefined, b: JsonValue | undefined): boolean => JSON.stringify(a) === JSON.stringify(b);

/** How the refusal messages tell the user to convert what does not fit. */
interface Advice {
  /** the project's current version, or undefined without versions */
  current: number | undefined;
  /** the version the data is at (meta "schema_version") before this open, if any */
  stored: number | undefined;
  /** the MIGRATION that leads to `current` when one runs at this open */
  last: MigrationDescriptor | null;
}

interface TypeRef {
  kind: ItemKind;
  type: string;
}

export function migrateStore(dbs: StoreDbs, schema: SchemaInfo, descriptor: SchemaDescriptor): MigrationOutcome {
  const current = descriptor.version;
  const migrations = descriptor.migrations ?? [];
  const empty = isEmpty(dbs);
  const outcome: MigrationOutcome = { from: null, to: null, rewritten: {}, revalidated: {} };
  const storedVersion = dbs.meta.get(SCHEMA_VERSION_KEY) as number | undefined;

  // 1. The migration chain from the data's version (checked before anything is written).
  const chain: MigrationDescriptor[] = [];
  let writeVersion = false;
  if (current !== undefined) {
    let stored = storedVersion;
    if (stored === undefined) {
      stored = empty ? current : Math.min(current, ...migrations.map((m) => m.from));
      writeVersion = true;
    }
    if (stored > current) {
      throw new MigrationError(`the data is at schema::${stored}, but the project declares schema::${current}; deploy schema::${stored} or newer`);
    }
    for (let v = stored; v < current; ) {
      const m = migrations.find((x) => x.from === v);
      if (m === undefined) throw new MigrationError(`the data is at schema::${v} and the project declares schema::${current}, but no MIGRATION starts at schema::${v}`);
      chain.push(m);
      v = m.to;
    }
    if (chain.length > 0) writeVersion = true;
    outcome.from = stored;
    outcome.to = current;
  }

  // 2. Types whose definition differs from the one the records were last checked against.
  const definitions = typeDefinitions(descriptor);
  const { types: stored, format } = readDefinitions(dbs.meta.get(SCHEMA_TYPES_KEY));
  // Records of a type the schema no longer declares would be unreachable: refuse, as for a removed field.
  if (!empty) checkRemovedTypes(dbs, schema, stored);
  const writeDefinitions = stored === undefined || !same(stored, definitions) || format !== SCHEMA_TYPES_FORMAT;
  const migrated = new Map<string, TypeRef>();
  for (const m of chain) for (const item of m.items) migrated.set(`${item.kind}::${item.type}`, { kind: item.kind, type: item.type });
  const changed: TypeRef[] = [];
  if (!empty) {
    for (const key of Object.keys(definitions)) {
      if (migrated.has(key)) continue;
      if (stored !== undefined && same(stored[key], definitions[key])) continue;
      changed.push({ kind: key.slice(0, 1) as ItemKind, type: key.slice(3) });
    }
  }
  if (!writeVersion && !writeDefinitions && chain.length === 0 && changed.length === 0) return outcome;

  const advice: Advice = { current, stored: storedVersion, last: chain.length > 0 ? chain[chain.length - 1]! : null };
  dbs.env.transactionSync(() => {
    for (const m of chain) {
      for (const item of m.items) {
        const n = applyItem(dbs, schema, item, m, current);
        const key = `${item.kind}::${item.type}`;
        outcome.rewritten[key] = (outcome.rewritten[key] ?? 0) + n;
      }
    }
    let textChanged = false;
    for (const { kind, type } of migrated.values()) {
      // A type a later version removed: checkRemovedTypes saw that it has no records.
      if (!declares(schema, kind, type)) continue;
      const item = chain.flatMap((m) => m.items.filter((i) => i.kind === kind && i.type === type).map((i) => ({ m, i }))).pop()!;
      if (revalidate(dbs, schema, typeInfo(schema, kind, type), { mode: "migrated", advice, migration: item.m, item: item.i }).textChanged) textChanged = true;
    }
    for (const { kind, type } of changed) {
      const r = revalidate(dbs, schema, typeInfo(schema, kind, type), { mode: "changed", advice, migration: null, item: null });
      outcome.revalidated[`${kind}::${type}`] = r.checked;
      if (r.textChanged) textChanged = true;
    }
    if (writeVersion) dbs.meta.putSync(SCHEMA_VERSION_KEY, current!);
    if (writeDefinitions) dbs.meta.putSync(SCHEMA_TYPES_KEY, { format: SCHEMA_TYPES_FORMAT, types: definitions });
    // Stored text changed: without its marker the keyword index rebuilds on open.
    if (textChanged) dbs.meta.removeSync(BM25_MARKER_KEY);
  });
  return outcome;
}

/**
 * Refuses the open when the data holds records of a node, edge or vector type the schema does not
 * declare (removed, or renamed): no query could reach them, and a DROP of a node that still has
 * such edges could not remove them. Nothing is dropped silently. Reads only; runs before any write.
 */
function checkRemovedTypes(dbs: StoreDbs, schema: SchemaInfo, stored: Definitions | undefined): void {
  const removed: RemovedType[] = [];
  const look = (db: StoreDbs["nodes"] | StoreDbs["edges"], kindOf: (label: string) => ItemKind | null): void => {
    for (const { label, sample } of storedLabels(db)) {
      const kind = kindOf(label);
      if (kind === null) continue;
      const count = db.getCount(rangeOf(label));
      removed.push({ ref: `${kind}::${label}`, drop: `DROP ${kind}<${label}>`, count, sample });
    }
  };
  look(dbs.nodes, (label) => {
    if (schema.nodes.has(label) || schema.vectors.has(label)) return null;
    return stored?.[`V::${label}`] !== undefined || dbs.vectorTypes.get([label]) !== undefined ? "V" : "N";
  });
  look(dbs.edges, (label) => (schema.edges.has(label) ? null : "E"));
  if (removed.length === 0) return;
  throw new MigrationError(removedTypesMessage(removed, `stored records are never dropped silently, so ${NOTHING_CHANGED}`));
}

/** The labels of a records db (each with its first id), one seek per label. */
function* storedLabels(db: StoreDbs["nodes"] | StoreDbs["edges"]): Iterable<{ label: string; sample: string }> {
  let start: Key | undefined;
  for (;;) {
    let first: Key | undefined;
    for (const key of db.getKeys(start === undefined ? { limit: 1 } : { start, limit: 1 })) first = key as Key;
    if (first === undefined) return;
    const label = first[0] as string;
    yield { label, sample: String(first[1]) };
    start = [label, MAX_KEY];
  }
}

function declares(schema: SchemaInfo, kind: ItemKind, type: string): boolean {
  return (kind === "E" ? schema.edges : kind === "V" ? schema.vectors : schema.nodes).has(type);
}

function typeInfo(schema: SchemaInfo, kind: ItemKind, type: string): TypeInfo {
  if (!declares(schema, kind, type)) throw new MigrationError(`${kind}::${type} is not declared by the current schema, but its records were to be checked against it; ${NOTHING_CHANGED}`);
  return kind === "E" ? schema.edge(type) : kind === "V" ? schema.vector(type) : schema.node(type);
}

/**
 * Meta "schema_types" as `{types, format}`: `{format: 1, types}`, or the bare types map written
 * before the format existed (format 1 too). A format this Strand does not know refuses the open.
 */
function readDefinitions(value: unknown): { types: Definitions | undefined; format: number | undefined } {
  if (value === undefined || value === null) return { types: undefined, format: undefined };
  const v = value as Record<string, unknown>;
  if (typeof v["format"] !== "number") return { types: v as Definitions, format: undefined };
  if (v["format"] !== SCHEMA_TYPES_FORMAT) {
    throw new MigrationError(`the data's recorded type definitions are in format ${String(v["format"])}, which this version of Strand does not read (it reads format ${SCHEMA_TYPES_FORMAT}); open it with the Strand that wrote it, or a newer one; ${NOTHING_CHANGED}`);
  }
  return { types: v["types"] as Definitions, format: SCHEMA_TYPES_FORMAT };
}

function isEmpty(dbs: StoreDbs): boolean {
  for (const _ of dbs.nodes.getKeys({ limit: 1 })) return false;
  for (const _ of dbs.edges.getKeys({ limit: 1 })) return false;
  return true;
}

function rangeOf(type: string): { start: Key; end: Key } {
  return { start: [type], end: [type, MAX_KEY] };
}

/**
 * Rewrites every record of the item's type with the mapping (unvalidated until `revalidate`), and
 * drops the fields the type does not declare in the migration's target version (`declared`): a
 * field is dropped only by the item of the migration whose new type no longer has it, never
 * because a later version removed it. A V type's vector (`data`, `embedding`) must come out
 * unchanged: the HNSW index holds it (the compiler refuses such a mapping, E314).
 */
function applyItem(dbs: StoreDbs, schema: SchemaInfo, item: MigrationItemDescriptor, m: MigrationDescriptor, current: number | undefined): number {
  const db = item.kind === "E" ? dbs.edges : dbs.nodes;
  const ref = `${item.kind}::${item.type}`;
  // A descriptor compiled before `declared` existed: only the migration to the current version drops.
  const declared = item.declared ?? (m.to === current && declares(schema, item.kind, item.type) ? typeInfo(schema, item.kind, item.type).fields.map((f) => f.name) : null);
  const keep = declared === null ? null : new Set(["id", "label", ...(item.kind === "E" ? ["from_node", "to_node"] : []), ...(item.kind === "V" ? ["data"] : []), ...declared]);
  let n = 0;
  for (const { key, value } of db.getRange(rangeOf(item.type))) {
    const rec = value as NodeItem;
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
    if (keep !== null) for (const member of Object.keys(next)) if (!keep.has(member) && !(item.kind === "V" && member === "embedding" && Array.isArray(next[member]))) delete next[member];
    db.putSync(key as Key, next as never);
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

const INTEGER_TYPE = /^[IU]\d+$/;

/**
 * `AS T`: numbers from numeric strings, strings from numbers and booleans, booleans from
 * "true"/"false". AS converts only what T represents exactly: 9.99 AS I64 is refused (ROUND,
 * FLOOR or CEIL in the mapping make an integer of it).
 */
function cast(value: PropValue, type: ValueType, source: string | null, where: string): JsonValue {
  if (type.kind !== "scalar") return value;
  const numeric = /^(I|U|F)\d+$/.test(type.name);
  if (numeric) {
    const n = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
    if (!Number.isFinite(n)) throw new MigrationError(`${where}: cannot convert ${describeValue(value)} to ${type.name}`);
    if (INTEGER_TYPE.test(type.name) && !Number.isInteger(n)) {
      const f = source ?? "x";
      throw new MigrationError(
        `${where}: ${describeValue(value)} is not an integer: AS ${type.name} converts only values that are exactly an integer of ${type.name}, it never rounds; ` +
          `round it in the mapping with ROUND(${f}), FLOOR(${f}) or CEIL(${f}) (e.g. ${f}: ROUND(${f})), or keep the field a float (F64)`,
      );
    }
    return n;
  }
  if (type.name === "String") return typeof value === "string" ? value : typeof value === "number" || typeof value === "boolean" ? String(value) : JSON.stringify(value);
  if (type.name === "Boolean") {
    if (typeof value === "boolean") return value;
    if (value === "true" || value === "false") return value === "true";
    throw new MigrationError(`${where}: cannot convert ${describeValue(value)} to Boolean`);
  }
  return value;
}

interface Revalidation {
  /** "migrated": a MIGRATION item of the chain rewrote the records (each is written back);
   *  "changed": the definition changed without one. Either way a stored field the type no longer
   *  declares refuses the open: applyItem already dropped what the migrations drop. */
  mode: "migrated" | "changed";
  advice: Advice;
  migration: MigrationDescriptor | null;
  item: MigrationItemDescriptor | null;
}

const NOTHING_CHANGED = "nothing was changed (the data still opens with the previous project)";

/**
 * Checks every record of the type against its current definition: fields in declaration order,
 * defaults for absent fields, values that fit their types, edges whose ends are of the declared
 * From/To types, vectors still in place; then rebuilds the type's index, unique and edge-unique
 * entries. Throws MigrationError (aborting the open's transaction) on the first misfit.
 */
function revalidate(dbs: StoreDbs, schema: SchemaInfo, info: TypeInfo, r: Revalidation): { checked: number; textChanged: boolean } {
  const { kind, name: type } = info;
  const db = kind === "E" ? dbs.edges : dbs.nodes;
  const ref = `${kind}::${type}`;
  for (const key of dbs.index.getKeys({ start: [kind, type], end: [kind, type, MAX_KEY] })) dbs.index.removeSync(key as Key);
  for (const key of dbs.unique.getKeys({ start: [kind, type], end: [kind, type, MAX_KEY] })) dbs.unique.removeSync(key as Key);
  if (kind === "E") for (const key of dbs.edgeUnique.getKeys(rangeOf(type))) dbs.edgeUnique.removeSync(key as Key);
  const edge = kind === "E" ? (info as EdgeTypeInfo) : null;
  const vector = kind === "V" ? (info as VectorTypeInfo) : null;
  const members = new Set(["id", "label", ...(edge ? ["from_node", "to_node"] : []), ...(vector && !vector.embedding ? ["data"] : []), ...info.fields.map((f) => f.name)]);
  // BM25 documents are the String / [String] fields of node and vector records (runtime/search/document.ts).
  const text = kind === "E" ? [] : textFields(info.fields.map((f) => f.descriptor));
  const now = new Date().toISOString();
  let checked = 0;
  let textChanged = false;
  for (const { key, value } of db.getRange(rangeOf(type))) {
    const rec = value as NodeItem;
    checked++;
    if (vector) checkVectorPlace(vector, rec, r);
    // Only a MIGRATION item drops fields (applyItem, the fields its new type does not declare).
    for (const member of Object.keys(rec)) if (!members.has(member)) throw undeclared(ref, rec, member, r.advice);
    const next: NodeItem = { id: rec.id, label: rec.label };
    if (edge) {
      next["from_node"] = rec["from_node"]!;
      next["to_node"] = rec["to_node"]!;
      checkEnd(dbs, schema, edge, rec, "From");
      checkEnd(dbs, schema, edge, rec, "To");
    }
    if (vector && !vector.embedding && rec["data"] !== undefined) next["data"] = rec["data"]!;
    for (const field of info.fields) {
      let v: PropValue | undefined = rec[field.name];
      if (v === undefined || v === null) {
        v = defaultFor(field, now);
        if (v === undefined) continue;
      }
      const checkedValue = checkValue(field.descriptor.type, v, field.name);
      if (!checkedValue.ok) throw misfit(ref, rec, field.name, field.descriptor.type, v, checkedValue.message, r);
      setMember(next, field.name, checkedValue.value);
    }
    for (const field of info.indexed) {
      const v = next[field.name];
      if (field.descriptor.index !== "unique" || v === undefined) continue;
      const owner = dbs.unique.get(uniqueKey(kind, type, field.name, v));
      if (owner !== undefined && owner !== rec.id) throw duplicate(ref, field.name, v, owner, rec.id, r);
    }
    indexNew(dbs, info, next);
    if (edge?.unique) {
      const k = edgeUniqueKey(type, next["from_node"] as string, next["to_node"] as string);
      const owner = dbs.edgeUnique.get(k);
      if (owner !== undefined) throw duplicateEdge(edge, owner, rec, r);
      dbs.edgeUnique.putSync(k, rec.id);
    }
    // A MIGRATION item already rewrote the record (unseen here): its text may differ from the index's.
    if (r.mode === "migrated") {
      db.putSync(key as Key, next as never);
      if (kind !== "E") textChanged = true;
    } else if (!sameRecord(rec, next)) {
      db.putSync(key as Key, next as never);
      if (text.some((f) => !same(rec[f], next[f]))) textChanged = true;
    }
  }
  return { checked, textChanged };
}

function sameRecord(a: NodeItem, b: NodeItem): boolean {
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i] || !same(a[ka[i]!], b[kb[i]!])) return false;
  return true;
}

function checkEnd(dbs: StoreDbs, schema: SchemaInfo, edge: EdgeTypeInfo, rec: NodeItem, end: "From" | "To"): void {
  const label = end === "From" ? edge.from : edge.to;
  const id = rec[end === "From" ? "from_node" : "to_node"] as string;
  if (dbs.nodes.get([label, id]) !== undefined) return;
  // The type the node is of (what E::T was declared with when the edge was stored).
  const actual = [...schema.labelsOf("N"), ...schema.labelsOf("V")].find((l) => dbs.nodes.get([l, id]) !== undefined);
  throw new MigrationError(
    `E::${edge.name} ${rec.id}: its ${end} node ${id} is ${actual !== undefined ? `of type ${actual}, not ${label}` : `not a ${label}`}, but E::${edge.name} is now declared ${end}: ${label}; ${NOTHING_CHANGED}. ` +
      `Drop or re-create those edges with the previous project${actual !== undefined ? `, or keep ${end}: ${actual}` : ""}`,
  );
}

/** The vector must stay where the type keeps it: `data`, or its `embedding` field. */
function checkVectorPlace(info: VectorTypeInfo, rec: NodeItem, r: Revalidation): void {
  const has = (v: PropValue | undefined): boolean => Array.isArray(v);
  if (info.embedding ? has(rec[info.embedding.name]) : has(rec["data"])) return;
  const where = info.embedding ? `V::${info.name} now keeps it in its '${info.embedding.name}' field` : `V::${info.name} no longer declares an 'embedding' field, so it would be lost`;
  const inData = has(rec["data"]);
  const stored = inData ? "'data'" : "its 'embedding' field";
  const after = r.migration ? ` after MIGRATION schema::${r.migration.from} => schema::${r.migration.to}` : "";
  const keep = inData ? `keep the vector in 'data' (declare no 'embedding' field in V::${info.name})` : `keep the 'embedding' field of V::${info.name}`;
  throw new MigrationError(
    `V::${info.name} ${rec.id}: its vector is stored in ${stored}${after}, but ${where}; moving a stored vector is not supported: ${NOTHING_CHANGED}. ` +
      `${keep[0]!.toUpperCase()}${keep.slice(1)}, or drop the vectors with the previous project and re-add them with the new one`,
  );
}

function misfit(ref: string, rec: NodeItem, field: string, type: ValueType, value: PropValue, message: string, r: Revalidation): MigrationError {
  const mapping = suggestMapping(field, type, value);
  if (r.mode === "migrated") {
    const mapped = r.item!.fields.find((f) => f.name === field);
    const m = `MIGRATION schema::${r.migration!.from} => schema::${r.migration!.to}`;
    const fix = mapped ? `the mapping of '${field}' in ${m} does not produce a value of its new type` : `${m} does not map '${field}'${mapping ? `: convert it there, e.g. ${ref} => _::{ ${mapping} }` : ""}`;
    return new MigrationError(`${ref} ${rec.id}: ${message}; ${fix}; ${NOTHING_CHANGED}`);
  }
  return new MigrationError(`${ref} ${rec.id}: ${message}. The definition of ${ref} changed since this record was stored, and stored records must fit it; ${NOTHING_CHANGED}. ${convert(ref, mapping ?? `${field}: <a literal of the new type>`, r.advice)}`);
}

function undeclared(ref: string, rec: NodeItem, member: string, advice: Advice): MigrationError {
  return new MigrationError(
    `${ref} ${rec.id}: holds field '${member}' (${describeValue(rec[member])}), which ${ref} no longer declares; stored values are never dropped silently, so ${NOTHING_CHANGED}. ` +
      `Declare the field again, or drop or rename it with a migration. ${convert(ref, "", advice)}: a MIGRATION item drops the fields the new type does not declare, and newName: ${member} renames one`,
  );
}

function duplicate(ref: string, field: string, value: PropValue, owner: string, id: string, r: Revalidation): MigrationError {
  const what = r.mode === "migrated" ? `after MIGRATION schema::${r.migration!.from} => schema::${r.migration!.to}, records ${owner} and ${id} of ${ref} both hold ${describeValue(value)} in field '${field}', a UNIQUE INDEX` : `${ref} field '${field}' is now a UNIQUE INDEX, but records ${owner} and ${id} both hold ${describeValue(value)}`;
  return new MigrationError(
    `${what}; ${NOTHING_CHANGED}. ` +
      `Make the values distinct with the previous project, or declare the field INDEX instead of UNIQUE INDEX`,
  );
}

function duplicateEdge(edge: EdgeTypeInfo, owner: string, rec: NodeItem, r: Revalidation): MigrationError {
  const when = r.mode === "migrated" ? ` after MIGRATION schema::${r.migration!.from} => schema::${r.migration!.to}` : "";
  return new MigrationError(
    `E::${edge.name} is UNIQUE, but edges ${owner} and ${rec.id} both go from ${String(rec["from_node"])} to ${String(rec["to_node"])}${when}; ${NOTHING_CHANGED}. ` +
      `Drop one of them with the previous project, or declare E::${edge.name} without UNIQUE`,
  );
}

/** A mapping that would convert `value` to `type`, or null when no conversion exists. */
function suggestMapping(field: string, type: ValueType, value: PropValue): string | null {
  if (type.kind !== "scalar") return null;
  const name = type.name;
  if (INTEGER_TYPE.test(name) && typeof value === "number" && Number.isFinite(value) && !Number.isInteger(value)) return `${field}: ROUND(${field})`;
  if (/^(I|U|F)\d+$/.test(name) && typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) {
    return INTEGER_TYPE.test(name) && !Number.isInteger(Number(value)) ? `${field}: ROUND(${field})` : `${field}: ${field} AS ${name}`;
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
