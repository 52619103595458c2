// The `edge_ends` database (format 4): the edges without a record (edge-records.ts), in blocks.
// A block holds up to ENDS_BLOCK entries of one edge label, sorted by edge id; an entry is the
// edge id's 16 bytes then its from node's 16 bytes. The block's key is the label's UTF-8, a 0x00
// byte and the 16 bytes of its first entry's edge id, so the block that holds (or would hold) an
// edge is the last one whose key is not after the edge's own key: one reverse seek.
//
// Why blocks: an LMDB entry costs 10 bytes of node header and page pointer plus its key, which
// for one edge per entry (format 3: key label + id, value the from node) was 31 of its 47 bytes.
// Sixteen edges per entry bring edge_ends from ~48 to ~34 bytes per edge (bench/storage.ts); the
// record such an edge would otherwise have in `edges` costs about 208.
// Writing is runtime/records/edge-ends-writes.ts's job.
import type { Transaction } from "lmdb";
import type { StoreDbs } from "../store/dbs.js";
import { ID_BYTES, idBytes, readIdBytes } from "../store/id-bytes.js";
import { itemKey, labelRange, parseItemKey } from "../store/keys.js";

type ReadOpts = { transaction: Transaction } | undefined;
export type EdgeEndsDb = StoreDbs["edgeEnds"];

/** Bytes of one entry: the edge id, then the from node id. */
export const ENDS_ENTRY = 2 * ID_BYTES;
/** Entries a block holds at most (16 × 32 bytes: 15 blocks fill an 8 KiB page). */
export const ENDS_BLOCK = 16;

/** A block's key: the itemKey of its first edge (store/keys.ts). */
export const edgeEndsKey: (label: string, id: string | Uint8Array) => Uint8Array = itemKey;

/** The label and (first) id of an `edge_ends` key. */
export const parseEdgeEndsKey: (key: Uint8Array) => { label: string; id: string } = parseItemKey;

/** Every `edge_ends` key of one label, in id order. */
export const edgeEndsRange: (label: string) => { start: Uint8Array; end: Uint8Array } = labelRange;

export interface EndsBlock {
  /** Copies (not lmdb's Buffers, whose memory the next read reuses; a Buffer's slice() is a view). */
  key: Uint8Array;
  entries: Uint8Array;
}

/** Is `value` a well-formed block (1..ENDS_BLOCK whole entries)? */
export function isEndsBlock(value: Uint8Array): boolean {
  return value.length > 0 && value.length % ENDS_ENTRY === 0 && value.length <= ENDS_BLOCK * ENDS_ENTRY;
}

/** The block of `label` that holds `id` or would: the last whose first id is not after it (null: none is). */
export function blockAtOrBefore(db: EdgeEndsDb, label: string, id: Uint8Array, opts: ReadOpts): EndsBlock | null {
  const range = { start: edgeEndsKey(label, id), end: edgeEndsRange(label).start, reverse: true, limit: 1, ...(opts ?? {}) };
  for (const { key, value } of db.getRange(range)) return { key: new Uint8Array(key), entries: new Uint8Array(value) };
  return null;
}

/** The label's first block (null: it has none). */
export function firstBlock(db: EdgeEndsDb, label: string, opts: ReadOpts): EndsBlock | null {
  for (const { key, value } of db.getRange({ ...edgeEndsRange(label), limit: 1, ...(opts ?? {}) })) {
    return { key: new Uint8Array(key), entries: new Uint8Array(value) };
  }
  return null;
}

/** The label's last block (null: it has none). */
export function lastBlock(db: EdgeEndsDb, label: string): EndsBlock | null {
  const { start, end } = edgeEndsRange(label);
  for (const { key, value } of db.getRange({ start: end, end: start, reverse: true, limit: 1 })) {
    return { key: new Uint8Array(key), entries: new Uint8Array(value) };
  }
  return null;
}

/** Compares the edge id of entry `i` with `id`. */
function compareEntry(entries: Uint8Array, i: number, id: Uint8Array): number {
  const at = i * ENDS_ENTRY;
  for (let b = 0; b < ID_BYTES; b++) {
    const d = entries[at + b]! - id[b]!;
    if (d !== 0) return d;
  }
  return 0;
}

/** The index of `id`'s entry in a block, or -(where it would go) - 1. */
export function findEntry(entries: Uint8Array, id: Uint8Array): number {
  let lo = 0;
  let hi = entries.length / ENDS_ENTRY - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const c = compareEntry(entries, mid, id);
    if (c === 0) return mid;
    if (c < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return -lo - 1;
}

/** The from node of the edge of this label and id without a record (undefined: there is none). */
export function bareEdgeFrom(db: EdgeEndsDb, label: string, id: string, opts: ReadOpts): string | undefined {
  let bytes: Uint8Array;
  try {
    bytes = idBytes(id);
  } catch {
    return undefined; // not a UUID: no edge is stored under it
  }
  const range = { start: edgeEndsKey(label, bytes), end: labelRange(label).start, reverse: true, limit: 1, ...(opts ?? {}) };
  // The block is searched where lmdb left it (read before the iterator moves on), not copied.
  for (const { value } of db.getRange(range)) {
    const i = findEntry(value, bytes);
    return i < 0 ? undefined : readIdBytes(value, i * ENDS_ENTRY + ID_BYTES);
  }
  return undefined;
}

/** Every edge without a record of one label, in id order: its id and from node. */
export function* bareEdgeEnds(db: EdgeEndsDb, label: string, opts: ReadOpts): Generator<{ id: string; from: string }> {
  for (const { value } of db.getRange({ ...edgeEndsRange(label), ...(opts ?? {}) })) {
    for (let at = 0; at + ENDS_ENTRY <= value.length; at += ENDS_ENTRY) {
      yield { id: readIdBytes(value, at), from: readIdBytes(value, at + ID_BYTES) };
    }
  }
}

/** The number of edges without a record of one label (reads its blocks' sizes). */
/** How many edges without a record the store holds, of every label. */
export function bareEdgeTotal(db: EdgeEndsDb): number {
  let count = 0;
  for (const { value } of db.getRange({})) count += value.length / ENDS_ENTRY;
  return count;
}

export function bareEdgeCount(db: EdgeEndsDb, label: string, opts: ReadOpts): number {
  let count = 0;
  for (const { value } of db.getRange({ ...edgeEndsRange(label), ...(opts ?? {}) })) count += value.length / ENDS_ENTRY;
  return count;
}
