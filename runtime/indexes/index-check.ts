// The secondary indexes against the records: INDEX entries, UNIQUE INDEX claims and edge-type
// UNIQUE claims exist exactly for the values the records hold. The records check (records/) calls
// checkIndexed for each record it reads, then checkIndexes for the entries themselves, handing in
// how to read the record an entry names.
import type { EdgeItem, NodeItem } from "../../core/items.js";
import type { CheckContext } from "../store/integrity.js";
import { edgeUniqueKey, holdsId, idOfValue, indexKey, indexValue, parseEdgeUniqueKey, parseIndexKey, uniqueKey } from "../store/keys.js";
import type { EdgeTypeInfo, SchemaInfo, TypeInfo } from "../store/schema-info.js";

/** The record of `info`'s type with this id, as stored (an edge in either form); undefined when there is none. */
export type RecordOf = (info: TypeInfo, id: string) => NodeItem | undefined;

/** Every index entry, UNIQUE claim and edge-type UNIQUE claim names a record that holds its value. */
export function checkIndexes(ctx: CheckContext, schema: SchemaInfo, recordOf: RecordOf): void {
  checkIndexEntries(ctx, schema, recordOf);
  checkUniqueClaims(ctx, schema, recordOf);
  checkEdgeUniqueClaims(ctx, schema, recordOf);
}

/** Each indexed value of the record has its INDEX entry or UNIQUE claim; an edge of a UNIQUE type its claim. */
export function checkIndexed(ctx: CheckContext, info: TypeInfo, rec: NodeItem): void {
  const { dbs, read } = ctx;
  const ref = `${info.kind}::${info.name} '${rec.id}'`;
  for (const field of info.indexed) {
    const v = rec[field.name];
    if (v === undefined) continue;
    if (field.descriptor.index === "unique") {
      const key = uniqueKey(info.kind, info.name, field.name, v);
      const owner = dbs.unique.get(key, read);
      if (holdsId(owner, rec.id)) continue;
      const who = owner === undefined ? "no claim" : `the claim of '${idText(owner)}'`;
      ctx.report("unique", "unique", key, `${ref} has ${field.name} ${JSON.stringify(v)} but the value has ${who}`);
    } else {
      const key = indexKey(info.kind, info.name, field.name, v, rec.id);
      if (dbs.index.get(key, read) === undefined)
        ctx.report("index", "index", key, `${ref} has ${field.name} ${JSON.stringify(v)} but no index entry`);
    }
  }
  const edge = info as EdgeTypeInfo;
  if (info.kind !== "E" || !edge.unique) return;
  const e = rec as EdgeItem;
  const key = edgeUniqueKey(info.name, e.from_node, e.to_node);
  const stored = dbs.edgeUnique.get(key, read);
  const owner = stored === undefined ? undefined : idText(stored);
  if (owner !== rec.id)
    ctx.report(
      "edge-unique",
      "edge_unique",
      key,
      `${ref} is not the claim of its (from, to), which is ${owner === undefined ? "unclaimed" : `'${owner}'`}`,
    );
}

/** An id value as text: the id, or its bytes in hex when it is not 16 bytes (then no record has it). */
function idText(value: Uint8Array): string {
  return value.length === 16 ? idOfValue(value) : Buffer.from(value).toString("hex");
}

function typeOf(schema: SchemaInfo, kind: unknown, type: unknown): TypeInfo | undefined {
  const name = type as string;
  return kind === "N"
    ? schema.nodes.get(name)
    : kind === "V"
      ? schema.vectors.get(name)
      : kind === "E"
        ? schema.edges.get(name)
        : undefined;
}

/** The record an index entry or claim names, when it holds `value` (an indexValue) in `field`; else why not. */
function mismatch(recordOf: RecordOf, info: TypeInfo, field: string, value: unknown, id: string): string | null {
  const rec = recordOf(info, id);
  if (rec === undefined) return `names ${info.kind}::${info.name} '${id}', which does not exist`;
  const v = rec[field];
  if (v === undefined) return `names ${info.kind}::${info.name} '${id}', which has no ${field}`;
  if (indexValue(v) !== value) return `names ${info.kind}::${info.name} '${id}', whose ${field} is ${JSON.stringify(v)}`;
  return null;
}

function checkIndexEntries(ctx: CheckContext, schema: SchemaInfo, recordOf: RecordOf): void {
  for (const key of ctx.dbs.index.getKeys(ctx.read)) {
    ctx.tick();
    ctx.counts.indexEntries++;
    let parts: ReturnType<typeof parseIndexKey>;
    try {
      parts = parseIndexKey(key);
    } catch {
      ctx.report("index", "index", key, "a malformed key (not [kind, type, field, value], 0x00 and 16 id bytes)");
      continue;
    }
    const { kind, type, field, value, id } = parts;
    const info = typeOf(schema, kind, type);
    const f = info?.fieldByName.get(field as string);
    if (info === undefined || f === undefined || f.descriptor.index !== "index") {
      ctx.report("index", "index", key, "an entry for a field that is not declared INDEX");
      continue;
    }
    const problem = mismatch(recordOf, info, f.name, value, id);
    if (problem !== null) ctx.report("index", "index", key, `the entry ${problem}`);
  }
}

function checkUniqueClaims(ctx: CheckContext, schema: SchemaInfo, recordOf: RecordOf): void {
  for (const { key, value: stored } of ctx.dbs.unique.getRange(ctx.read)) {
    ctx.tick();
    ctx.counts.uniqueClaims++;
    const id = idText(stored);
    const [kind, type, field, value] = key;
    const info = typeOf(schema, kind, type);
    const f = info?.fieldByName.get(field as string);
    if (info === undefined || f === undefined || f.descriptor.index !== "unique") {
      ctx.report("unique", "unique", key, "a claim for a field that is not declared UNIQUE INDEX");
      continue;
    }
    const problem = mismatch(recordOf, info, f.name, value, id);
    if (problem !== null) ctx.report("unique", "unique", key, `the claim ${problem}`);
  }
}

function checkEdgeUniqueClaims(ctx: CheckContext, schema: SchemaInfo, recordOf: RecordOf): void {
  for (const { key, value: stored } of ctx.dbs.edgeUnique.getRange(ctx.read)) {
    ctx.tick();
    ctx.counts.uniqueClaims++;
    const id = idText(stored);
    let parts: ReturnType<typeof parseEdgeUniqueKey>;
    try {
      parts = parseEdgeUniqueKey(key);
    } catch {
      ctx.report("edge-unique", "edge_unique", key, "a malformed key (not a label, 0x00 and two ids of 16 bytes)");
      continue;
    }
    const { label, from, to } = parts;
    const info = schema.edges.get(label);
    if (info === undefined || !info.unique) {
      ctx.report("edge-unique", "edge_unique", key, `a claim for E::${label}, which is not a UNIQUE edge type`);
      continue;
    }
    const edge = recordOf(info, id) as EdgeItem | undefined;
    if (edge === undefined) ctx.report("edge-unique", "edge_unique", key, `the claim names E::${label} '${id}', which does not exist`);
    else if (edge.from_node !== from || edge.to_node !== to) {
      ctx.report(
        "edge-unique",
        "edge_unique",
        key,
        `the claim names E::${label} '${id}', which goes from '${edge.from_node}' to '${edge.to_node}'`,
      );
    }
  }
}
