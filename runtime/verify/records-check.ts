// Records against their secondary state: every record is keyed by its own label and id under a
// declared type and holds only declared members with canonical values of their types, every
// edge's ends exist with the declared types, and INDEX entries, UNIQUE
// INDEX claims and edge-type UNIQUE claims exist exactly for the values the records hold.
import type { EdgeItem, NodeItem } from "../../core/items.js";
import { checkValue } from "../../core/values.js";
import {
  edgeUniqueKey,
  holdsId,
  idOfValue,
  indexKey,
  indexValue,
  itemKey,
  parseEdgeUniqueKey,
  parseIndexKey,
  parseItemKey,
  uniqueKey,
  type Key,
} from "../store/keys.js";
import type { EdgeTypeInfo, SchemaInfo, TypeInfo, VectorTypeInfo } from "../store/schema-info.js";
import { otherEndOf, readAdjacency } from "../store/adjacency.js";
import { ENDS_ENTRY, isEndsBlock, parseEdgeEndsKey } from "../store/edge-ends.js";
import { bareEdge, edgeById, edgeHasFields } from "../store/edge-records.js";
import { ID_BYTES, idBytes, readIdBytes } from "../store/id-bytes.js";
import type { CheckContext } from "./report.js";

/** The edges the check met, for the adjacency check. */
export type StoredEdge = Pick<EdgeItem, "id" | "label" | "from_node" | "to_node">;

export function checkRecords(ctx: CheckContext, schema: SchemaInfo): StoredEdge[] {
  const { dbs, read } = ctx;
  for (const { key: stored, value } of dbs.nodes.getRange(read)) {
    ctx.tick();
    const key = itemKeyParts(ctx, "nodes", stored);
    if (key === null) continue;
    const info = schema.nodes.get(key[0] as string) ?? schema.vectors.get(key[0] as string);
    if (!checkKey(ctx, "nodes", key, value, info)) continue;
    if (info!.kind === "V") ctx.counts.vectors++;
    else ctx.counts.nodes++;
    checkMembers(ctx, "nodes", key, value, info!);
    checkIndexed(ctx, info!, value);
  }
  const edges: StoredEdge[] = [];
  for (const { key: stored, value } of dbs.edges.getRange(read)) {
    ctx.tick();
    const key = itemKeyParts(ctx, "edges", stored);
    if (key === null) continue;
    const info = schema.edges.get(key[0] as string);
    if (!checkKey(ctx, "edges", key, value, info)) continue;
    ctx.counts.edges++;
    if (!edgeHasFields(value))
      ctx.report("record", "edges", key, "an edge record without field values (such an edge is an edge_ends entry)");
    edges.push({ id: value.id, label: value.label, from_node: value.from_node, to_node: value.to_node });
    checkEnds(ctx, info as EdgeTypeInfo, key, value);
    checkMembers(ctx, "edges", key, value, info!);
    checkIndexed(ctx, info!, value);
  }
  checkBareEdges(ctx, schema, edges);
  checkIndexEntries(ctx, schema);
  checkUniqueClaims(ctx, schema);
  checkEdgeUniqueClaims(ctx, schema);
  return edges;
}

/** A record key as [label, id]; null (reported) when it is not one. */
function itemKeyParts(ctx: CheckContext, db: "nodes" | "edges", key: Uint8Array): Key | null {
  try {
    const { label, id } = parseItemKey(key);
    return [label, id];
  } catch {
    ctx.report("record", db, key, "a malformed key (not a label, 0x00 and 16 id bytes)");
    return null;
  }
}

/**
 * Edges without a record (store/edge-records.ts), in their `edge_ends` blocks (edge-ends.ts): each
 * block is keyed by its first edge, sorted, within the size; each edge names a declared type, a
 * from node whose out list lists it, and has no record too.
 */
function checkBareEdges(ctx: CheckContext, schema: SchemaInfo, edges: StoredEdge[]): void {
  const { dbs, read } = ctx;
  let previous: { label: string; lastId: string } | null = null;
  for (const { key, value } of dbs.edgeEnds.getRange(read)) {
    ctx.tick();
    let parsed: { label: string; id: string };
    try {
      parsed = parseEdgeEndsKey(key);
    } catch {
      ctx.report("record", "edge_ends", [Buffer.from(key).toString("hex")], "a malformed key (not a label, 0x00 and 16 id bytes)");
      continue;
    }
    const { label, id: firstId } = parsed;
    const info = schema.edges.get(label);
    if (info === undefined) {
      ctx.report("record", "edge_ends", [label, firstId], `an edge of type '${label}', which the schema does not declare`);
      continue;
    }
    if (!isEndsBlock(value)) {
      ctx.report("record", "edge_ends", [label, firstId], `a block of ${value.length} bytes (1 to 16 entries of 32)`);
      continue;
    }
    const ids: string[] = [];
    for (let at = 0; at < value.length; at += ENDS_ENTRY) ids.push(readIdBytes(value, at));
    const after = previous?.label === label ? previous.lastId : "";
    if (ids[0] !== firstId || ids.some((id, i) => id <= (i === 0 ? after : ids[i - 1]!))) {
      ctx.report("record", "edge_ends", [label, firstId], "a block not keyed by its first edge, or not in edge id order");
    }
    previous = { label, lastId: ids[ids.length - 1]! };
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      const k: Key = [label, id];
      ctx.counts.edges++;
      if (dbs.edges.doesExist(itemKey(label, id), undefined as never, read))
        ctx.report("record", "edge_ends", k, "the edge also has a record");
      const from = readIdBytes(value, i * ENDS_ENTRY + ID_BYTES);
      const to = otherEndOf(readAdjacency(dbs.out, from, label, read), idBytes(id));
      if (to === undefined) {
        ctx.report(
          "adjacency",
          "edge_ends",
          k,
          `E::${label} '${id}' is not in the out list of its from node '${from}', so it has no to node`,
        );
        continue;
      }
      const edge = bareEdge(label, id, from, to);
      edges.push(edge);
      checkEnds(ctx, info, k, edge, "edge_ends");
      checkIndexed(ctx, info, edge);
    }
  }
}

/** An edge in either form; one whose from node's list lacks it counts as absent (reported by checkBareEdges). */
function anyEdge(ctx: CheckContext, label: string, id: string): EdgeItem | undefined {
  try {
    return edgeById(ctx.dbs, label, id, ctx.read);
  } catch {
    return undefined;
  }
}

function checkKey(ctx: CheckContext, db: "nodes" | "edges", key: Key, rec: NodeItem, info: TypeInfo | undefined): boolean {
  if (info === undefined) {
    ctx.report("record", db, key, `a record of type '${String(key[0])}', which the schema does not declare`);
    return false;
  }
  if (rec.label !== key[0] || rec.id !== key[1]) {
    ctx.report("record", db, key, `the record says label '${String(rec.label)}' and id '${String(rec.id)}'`);
    return false;
  }
  return true;
}

/** Members every record of the kind carries besides its fields (a vector's `data` unless it has an embedding field). */
function builtIn(info: TypeInfo): readonly string[] {
  if (info.kind === "E") return ["id", "label", "from_node", "to_node"];
  if (info.kind === "V" && (info as VectorTypeInfo).embedding === null) return ["id", "label", "data"];
  return ["id", "label"];
}

/** Only declared members, each field's value canonical for its type (as writes and migrations store them). */
function checkMembers(ctx: CheckContext, db: "nodes" | "edges", key: Key, rec: NodeItem, info: TypeInfo): void {
  const members = builtIn(info);
  for (const name of Object.keys(rec)) {
    if (members.includes(name)) continue;
    const field = info.fieldByName.get(name);
    if (field === undefined) {
      ctx.report("record", db, key, `a member '${name}', which ${info.kind}::${info.name} does not declare`);
      continue;
    }
    const checked = checkValue(field.descriptor.type, rec[name], name);
    if (!checked.ok) ctx.report("record", db, key, `${checked.message}`);
    else if (JSON.stringify(checked.value) !== JSON.stringify(rec[name]))
      ctx.report("record", db, key, `${name} is ${JSON.stringify(rec[name])}, not in its canonical form ${JSON.stringify(checked.value)}`);
  }
}

function checkEnds(ctx: CheckContext, info: EdgeTypeInfo, key: Key, edge: EdgeItem, db: "edges" | "edge_ends" = "edges"): void {
  for (const [end, label, id] of [
    ["from", info.from, edge.from_node],
    ["to", info.to, edge.to_node],
  ] as const) {
    if (!ctx.dbs.nodes.doesExist(itemKey(label, id), undefined as never, ctx.read)) {
      ctx.report("endpoint", db, key, `its ${end} node ${label} '${id}' does not exist`);
    }
  }
}

/** Each indexed value of the record has its INDEX entry or UNIQUE claim; an edge of a UNIQUE type its claim. */
function checkIndexed(ctx: CheckContext, info: TypeInfo, rec: NodeItem): void {
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
function mismatch(ctx: CheckContext, info: TypeInfo, field: string, value: unknown, id: string): string | null {
  const rec = info.kind === "E" ? anyEdge(ctx, info.name, id) : ctx.dbs.nodes.get(itemKey(info.name, id), ctx.read);
  if (rec === undefined) return `names ${info.kind}::${info.name} '${id}', which does not exist`;
  const v = rec[field];
  if (v === undefined) return `names ${info.kind}::${info.name} '${id}', which has no ${field}`;
  if (indexValue(v) !== value) return `names ${info.kind}::${info.name} '${id}', whose ${field} is ${JSON.stringify(v)}`;
  return null;
}

function checkIndexEntries(ctx: CheckContext, schema: SchemaInfo): void {
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
    const problem = mismatch(ctx, info, f.name, value, id);
    if (problem !== null) ctx.report("index", "index", key, `the entry ${problem}`);
  }
}

function checkUniqueClaims(ctx: CheckContext, schema: SchemaInfo): void {
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
    const problem = mismatch(ctx, info, f.name, value, id);
    if (problem !== null) ctx.report("unique", "unique", key, `the claim ${problem}`);
  }
}

function checkEdgeUniqueClaims(ctx: CheckContext, schema: SchemaInfo): void {
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
    const edge = anyEdge(ctx, label, id);
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
