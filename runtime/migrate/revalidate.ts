// Revalidation: every record of a type checked against the type's current definition, and its
// index entries and claims rebuilt, through the graph writer. Each record is rebuilt in
// declaration order, absent fields given their DEFAULT, each value checked (checkValue), an edge's
// ends looked up under its From/To types, a vector still where its type keeps it; a new UNIQUE
// INDEX or `E::T UNIQUE` over duplicates refuses, naming both ids and the value. A record that
// holds a field the type no longer declares refuses the open (only a MIGRATION item drops
// fields); unchanged records of an unmigrated type are not rewritten. Revalidating 100k records of
// one type takes about 1 s (a new INDEX) to 2 s (a new field with a DEFAULT: every record
// rewritten); when that changes stored text, the BM25 rebuild that follows dominates (about 9 s
// for 100k records with three text fields).
import { setMember, type NodeItem, type PropValue } from "../../core/items.js";
import type { ProgressTask } from "../../core/progress.js";
import { checkValue } from "../../core/values.js";
import { textFields } from "../search/document.js";
import { recordsOfType } from "./records-of-type.js";
import type { StoreDbs } from "../store/dbs.js";
import { edgeUniqueKey, holdsId, idOfValue, itemKey, uniqueKey } from "../store/keys.js";
import { defaultFor } from "../records/records.js";
import type { EdgeTypeInfo, SchemaInfo, TypeInfo, VectorTypeInfo } from "../store/schema-info.js";
import type { MigrationWriter } from "../write/migration-writer.js";
import { duplicate, duplicateEdge, MigrationError, misfit, NOTHING_CHANGED, undeclared, type Revalidation } from "./advice.js";
import { same } from "./definitions.js";

/**
 * Checks every record of the type against its current definition: fields in declaration order,
 * defaults for absent fields, values that fit their types, edges whose ends are of the declared
 * From/To types, vectors still in place; then rebuilds the type's index, unique and edge-unique
 * entries. Throws MigrationError (aborting the open's transaction) on the first misfit.
 */
export function revalidate(
  dbs: StoreDbs,
  writer: MigrationWriter,
  schema: SchemaInfo,
  info: TypeInfo,
  r: Revalidation,
  task?: ProgressTask,
): { checked: number; textChanged: boolean } {
  const { kind, name: type } = info;
  const ref = `${kind}::${type}`;
  writer.clearTypeIndexes(info);
  const edge = kind === "E" ? (info as EdgeTypeInfo) : null;
  const vector = kind === "V" ? (info as VectorTypeInfo) : null;
  const members = new Set([
    "id",
    "label",
    ...(edge ? ["from_node", "to_node"] : []),
    ...(vector && !vector.embedding ? ["data"] : []),
    ...info.fields.map((f) => f.name),
  ]);
  // BM25 documents are the String / [String] fields of node and vector records (runtime/search/document.ts).
  const text = kind === "E" ? [] : textFields(info.fields.map((f) => f.descriptor));
  const now = new Date().toISOString();
  let checked = 0;
  let textChanged = false;
  for (const rec of recordsOfType(dbs, kind, type)) {
    checked++;
    task?.advance(1);
    if (vector) checkVectorPlace(vector, rec, r);
    // Only a MIGRATION item drops fields (applyItem, the fields its new type does not declare).
    for (const member of Object.keys(rec)) if (!members.has(member)) throw undeclared(ref, rec, member, r.advice);
    const next: NodeItem = { id: rec.id, label: rec.label };
    if (edge) {
      next.from_node = rec.from_node!;
      next.to_node = rec.to_node!;
      checkEnd(dbs, schema, edge, rec, "From");
      checkEnd(dbs, schema, edge, rec, "To");
    }
    if (vector && !vector.embedding && rec.data !== undefined) next.data = rec.data!;
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
      if (owner !== undefined && !holdsId(owner, rec.id)) throw duplicate(ref, field.name, v, idOfValue(owner), rec.id, r);
    }
    if (edge?.unique) {
      const owner = dbs.edgeUnique.get(edgeUniqueKey(type, next.from_node as string, next.to_node as string));
      if (owner !== undefined) throw duplicateEdge(edge, idOfValue(owner), rec, r);
    }
    // A MIGRATION item already rewrote the record (unseen here): its text may differ from the index's.
    const rewrite = r.mode === "migrated" || !sameRecord(rec, next);
    writer.storeRevalidatedRecord(info, next, rewrite);
    if (r.mode === "migrated") {
      if (kind !== "E") textChanged = true;
    } else if (rewrite && text.some((f) => !same(rec[f], next[f]))) {
      textChanged = true;
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
  if (dbs.nodes.doesExist(itemKey(label, id), undefined as never)) return;
  // The type the node is of (what E::T was declared with when the edge was stored).
  const actual = [...schema.labelsOf("N"), ...schema.labelsOf("V")].find((l) => dbs.nodes.doesExist(itemKey(l, id), undefined as never));
  throw new MigrationError(
    `E::${edge.name} ${rec.id}: its ${end} node ${id} is ${actual !== undefined ? `of type ${actual}, not ${label}` : `not a ${label}`}, but E::${edge.name} is now declared ${end}: ${label}; ${NOTHING_CHANGED}. ` +
      `Drop or re-create those edges with the previous project${actual !== undefined ? `, or keep ${end}: ${actual}` : ""}`,
  );
}

/** The vector must stay where the type keeps it: `data`, or its `embedding` field. */
function checkVectorPlace(info: VectorTypeInfo, rec: NodeItem, r: Revalidation): void {
  const has = (v: PropValue | undefined): boolean => Array.isArray(v);
  if (info.embedding ? has(rec[info.embedding.name]) : has(rec.data)) return;
  const where = info.embedding
    ? `V::${info.name} now keeps it in its '${info.embedding.name}' field`
    : `V::${info.name} no longer declares an 'embedding' field, so it would be lost`;
  const inData = has(rec.data);
  const stored = inData ? "'data'" : "its 'embedding' field";
  const after = r.migration ? ` after MIGRATION schema::${r.migration.from} => schema::${r.migration.to}` : "";
  const keep = inData
    ? `keep the vector in 'data' (declare no 'embedding' field in V::${info.name})`
    : `keep the 'embedding' field of V::${info.name}`;
  throw new MigrationError(
    `V::${info.name} ${rec.id}: its vector is stored in ${stored}${after}, but ${where}; moving a stored vector is not supported: ${NOTHING_CHANGED}. ` +
      `${keep[0]!.toUpperCase()}${keep.slice(1)}, or drop the vectors with the previous project and re-add them with the new one`,
  );
}
