// Edges without properties have no record (format 2). An edge whose record would hold nothing but
// id, label, from_node and to_node is one entry of an `edge_ends` block (edge-ends.ts): its id
// and the 16 bytes of its from node; its to node is read from that node's out list
// (adjacency/lists.ts), which lists the edge. An edge with at least one field value
// keeps its record in `edges` under itemKey(label, id) (store/keys.ts), as before. Every reader of edges goes through
// this module (or falls back to it on a miss in `edges`), so both forms read the same: as the
// record `{id, label, from_node, to_node}` (E<T>(id), DROP, UPDATE, export, verify); OutE and InE
// build it from the list entry without a read. An UPDATE that gives it a field value moves it to
// `edges`, and one that clears its last moves it back (GraphWriter putEdge).
import type { Transaction } from "lmdb";
import type { EdgeItem } from "../../core/items.js";
import { otherEndOf, readAdjacency, type AdjacencyDb } from "../adjacency/lists.js";
import type { StoreDbs } from "../store/dbs.js";
import { bareEdgeCount, bareEdgeEnds, bareEdgeFrom } from "./edge-ends.js";
import { idBytes } from "../store/id-bytes.js";
import { itemKey, labelRange } from "../store/keys.js";

type ReadOpts = { transaction: Transaction } | undefined;

/** Does the record hold a field value (and so need a record in `edges`)? */
export function edgeHasFields(rec: EdgeItem): boolean {
  for (const key in rec) if (key !== "id" && key !== "label" && key !== "from_node" && key !== "to_node") return true;
  return false;
}

/** The edge `{id, label, from_node, to_node}` of an edge without a record. */
export function bareEdge(label: string, id: string, from: string, to: string): EdgeItem {
  return { id, label, from_node: from, to_node: to };
}

/** Its to node: found in the from node's out list (undefined when the list does not list it). */
function toOf(out: AdjacencyDb, label: string, id: string, from: string, opts: ReadOpts): string | undefined {
  return otherEndOf(readAdjacency(out, from, label, opts), idBytes(id));
}

/** An edge without a record, by label and id (undefined when there is none). */
export function bareEdgeById(dbs: StoreDbs, label: string, id: string, opts: ReadOpts): EdgeItem | undefined {
  const fromId = bareEdgeFrom(dbs.edgeEnds, label, id, opts);
  if (fromId === undefined) return undefined;
  const to = toOf(dbs.out, label, id, fromId, opts);
  if (to === undefined) throw new Error(`E::${label} '${id}' is not in the out list of its from node '${fromId}'`);
  return bareEdge(label, id, fromId, to);
}

/** An edge by label and id, in either form. */
export function edgeById(dbs: StoreDbs, label: string, id: string, opts: ReadOpts): EdgeItem | undefined {
  return dbs.edges.get(itemKey(label, id), opts) ?? bareEdgeById(dbs, label, id, opts);
}

/** Is there an edge of this label and id, in either form? */
export function edgeExists(dbs: StoreDbs, label: string, id: string, opts: ReadOpts): boolean {
  return dbs.edges.doesExist(itemKey(label, id), undefined as never, opts) || bareEdgeFrom(dbs.edgeEnds, label, id, opts) !== undefined;
}

/** The edges without a record of one label, in id order; `to` undefined when the out list lacks it. */
export function* bareEdgesOfLabel(
  dbs: StoreDbs,
  label: string,
  opts: ReadOpts,
): Generator<{ id: string; from: string; to: string | undefined }> {
  // Edges of one node are usually consecutive (created together): its out list is read once for them.
  let listOf = "";
  let list: Uint8Array = new Uint8Array(0);
  for (const { id, from } of bareEdgeEnds(dbs.edgeEnds, label, opts)) {
    if (from !== listOf) {
      listOf = from;
      list = readAdjacency(dbs.out, from, label, opts);
    }
    yield { id, from, to: otherEndOf(list, idBytes(id)) };
  }
}

/** Every edge of one label, both forms merged, in id order. */
export function* edgesOfLabel(dbs: StoreDbs, label: string, opts: ReadOpts): Generator<EdgeItem> {
  const records = dbs.edges.getRange({ ...labelRange(label), ...(opts ?? {}) })[Symbol.iterator]();
  const bare = bareEdgesOfLabel(dbs, label, opts);
  let r = records.next();
  let b = bare.next();
  while (!r.done || !b.done) {
    if (!b.done && (r.done || b.value.id < r.value.value.id)) {
      const { id, from, to } = b.value;
      if (to === undefined) throw new Error(`E::${label} '${id}' is not in the out list of its from node '${from}'`);
      yield bareEdge(label, id, from, to);
      b = bare.next();
    } else if (!r.done) {
      yield r.value.value;
      r = records.next();
    }
  }
}

/** The number of edges of one label, both forms. */
export function edgeCount(dbs: StoreDbs, label: string, opts: ReadOpts): number {
  return dbs.edges.getKeysCount({ ...labelRange(label), ...(opts ?? {}) }) + bareEdgeCount(dbs.edgeEnds, label, opts);
}
