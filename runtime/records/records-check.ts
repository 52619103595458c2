// The records: every record is keyed by its own label and id under a declared type and holds only
// declared members with canonical values of their types, every edge's ends exist with the declared
// types, and each record's indexed values are indexed (indexes/index-check.ts).
import type { EdgeItem, NodeItem } from "../../core/items.js";
import { checkValue } from "../../core/values.js";
import { itemKey, parseItemKey, type Key } from "../store/keys.js";
import { checkIndexed, checkIndexes } from "../indexes/index-check.js";
import type { EdgeTypeInfo, SchemaInfo, TypeInfo, VectorTypeInfo } from "../store/schema-info.js";
import { otherEndOf, readAdjacency } from "../adjacency/lists.js";
import { ENDS_ENTRY, isEndsBlock, parseEdgeEndsKey } from "./edge-ends.js";
import { bareEdge, edgeById, edgeHasFields } from "./edge-records.js";
import { ID_BYTES, idBytes, readIdBytes } from "../store/id-bytes.js";
import { type CheckContext, decodedEntries, type StoredEdge } from "../store/integrity.js";

/** The edges the check met, for the adjacency check. */
export function checkRecords(ctx: CheckContext, schema: SchemaInfo): StoredEdge[] {
  for (const { key: stored, value } of decodedEntries(ctx, ctx.dbs.nodes, ctx.read, { check: "record", db: "nodes" })) {
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
  for (const { key: stored, value } of decodedEntries(ctx, ctx.dbs.edges, ctx.read, { check: "record", db: "edges" })) {
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
  checkIndexes(ctx, schema, (info, id) => (info.kind === "E" ? anyEdge(ctx, info.name, id) : anyNode(ctx, info.name, id)));
  return edges;
}

/** A node record, or undefined when it is absent or does not decode (reported by decodedRecords). */
function anyNode(ctx: CheckContext, label: string, id: string): NodeItem | undefined {
  try {
    return ctx.dbs.nodes.get(itemKey(label, id), ctx.read);
  } catch {
    return undefined;
  }
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
 * Edges without a record (records/edge-records.ts), in their `edge_ends` blocks (edge-ends.ts): each
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
