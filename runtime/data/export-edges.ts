// The edges of one label for an export (export.ts), in id order: edges with fields from their
// records, edges without from `edge_ends` (records/edge-records.ts), merged as edgesOfLabel merges
// them. An edge without fields (on most graphs, most of an export) is written straight from the
// stored bytes: its id and from node from its entry in an `edge_ends` block, its to node from
// the from node's out list, read once for that node's consecutive edges. No id text, record
// object or iterator result is made per edge.
import type { Transaction } from "lmdb";
import type { EdgeItem } from "../../core/items.js";
import { ENTRY_BYTES, listKey, parseTail, readAdjacency } from "../adjacency/lists.js";
import type { StoreDbs } from "../store/dbs.js";
import { edgeEndsRange, ENDS_ENTRY } from "../records/edge-ends.js";
import { ID_BYTES, idBytes, readIdBytes } from "../store/id-bytes.js";
import { labelRange } from "../store/keys.js";
import { bareEdgePrefix, recordLine } from "./interchange.js";
import type { LineBuffer } from "./line-buffer.js";

const NIL = "00000000-0000-0000-0000-000000000000";
const EMPTY = new Uint8Array(0);

/** Writes every edge of `label` into `out`; returns how many. */
export async function exportEdges(dbs: StoreDbs, label: string, transaction: Transaction, out: LineBuffer): Promise<number> {
  const records = dbs.edges.getRange({ ...labelRange(label), transaction })[Symbol.iterator]();
  const prefix = Buffer.from(bareEdgePrefix(label), "utf8");
  const lists = new OutLists(dbs, label, transaction);
  let count = 0;
  let r = records.next();
  let recordId = r.done ? null : idBytes(r.value.value.id);
  // Writes the records whose id sorts before the bare edge's id at key[idAt] (all, for null).
  const recordsBefore = async (key: Uint8Array | null, idAt: number): Promise<void> => {
    while (recordId !== null && (key === null || compareIds(recordId, key, idAt) < 0)) {
      const full = out.add(recordLine("E", r.value!.value as EdgeItem));
      count++;
      r = records.next();
      recordId = r.done ? null : idBytes(r.value.value.id);
      if (full) await out.handOver();
    }
  };
  for (const { value: block } of dbs.edgeEnds.getRange({ ...edgeEndsRange(label), transaction })) {
    // A block of entries: an edge id's 16 bytes, then its from node's 16 (records/edge-ends.ts).
    for (let idAt = 0; idAt < block.length; idAt += ENDS_ENTRY) {
      const fromAt = idAt + ID_BYTES;
      if (recordId !== null) await recordsBefore(block, idAt);
      const list = lists.of(block, fromAt);
      const at = entryOf(list, block, idAt);
      if (at < 0) {
        throw new Error(
          `E::${label} '${readIdBytes(block, idAt)}' is not in the out list of its from node '${readIdBytes(block, fromAt)}'`,
        );
      }
      count++;
      if (out.addBareEdgeBytes(prefix, block, idAt, block, fromAt, list, at + ID_BYTES)) await out.handOver();
    }
  }
  await recordsBefore(null, 0);
  return count;
}

/** The out lists of one edge label, the last one read kept (a node's edges are usually consecutive). */
class OutLists {
  private readonly node = new Uint8Array(ID_BYTES);
  private list: Uint8Array = EMPTY;
  private read = false;
  /** The tail key of a list of this label; its first 16 bytes are the node's (adjacency/lists.ts). */
  private readonly key: Uint8Array;

  constructor(
    private readonly dbs: StoreDbs,
    private readonly label: string,
    private readonly transaction: Transaction,
  ) {
    this.key = listKey(NIL, label);
  }

  /** The entries of the out list of the node whose 16 bytes are at from[fromAt]. */
  of(from: Uint8Array, fromAt: number): Uint8Array {
    if (this.read && compareIds(this.node, from, fromAt) === 0) return this.list;
    this.node.set(from.subarray(fromAt, fromAt + ID_BYTES));
    this.key.set(this.node, 0);
    const tail = this.dbs.out.get(this.key, { transaction: this.transaction });
    const parsed = tail === undefined ? null : parseTail(tail);
    // Full chunks before the tail (a node of high degree): the whole list, through the store.
    this.list =
      parsed === null
        ? EMPTY
        : parsed.sealed === 0
          ? parsed.entries
          : readAdjacency(this.dbs.out, readIdBytes(this.node, 0), this.label, { transaction: this.transaction });
    this.read = true;
    return this.list;
  }
}

/** Offset of the entry of the edge whose 16 id bytes are at id[idAt], or -1. */
function entryOf(list: Uint8Array, id: Uint8Array, idAt: number): number {
  for (let off = 0; off < list.length; off += ENTRY_BYTES) {
    let i = 0;
    while (i < ID_BYTES && list[off + i] === id[idAt + i]) i++;
    if (i === ID_BYTES) return off;
  }
  return -1;
}

/** Compares the 16 id bytes of `a` with those at b[bAt] (ids sort as their bytes do). */
function compareIds(a: Uint8Array, b: Uint8Array, bAt: number): number {
  for (let i = 0; i < ID_BYTES; i++) {
    const d = a[i]! - b[bAt + i]!;
    if (d !== 0) return d;
  }
  return 0;
}
