// Adjacency lists: for each (node, edge label) the incident edges in creation order, packed into
// binary values so that a node's neighbourhood is one `get` instead of a cursor walk (an lmdb
// range costs several times a get, and graph steps do one per input node).
//
// A list is a sequence of 32-byte entries: the edge id's 16 bytes, then the other node's 16 bytes
// (store/id-bytes.ts; ids are text everywhere else). It is stored under binary keys (format 3):
//   nodeId (16 bytes) + edgeLabel (UTF-8)                    → u32 LE <sealed> + up to CHUNK entries (the open tail)
//   nodeId (16 bytes) + edgeLabel + 0x00 + i (u32 BE)        → exactly CHUNK entries, i < sealed (full chunks)
// so a node's lists are one key range (its 16 bytes), a list's tail sorts before its chunks, and
// chunks sort by i (type names hold no 0x00 byte).
// so appending (runtime/adjacency/list-writes.ts) touches at most the tail plus one new full
// chunk, reading a node of degree d costs 1 + floor(d / CHUNK) gets, and a list's length is known
// from its tail alone (adjacencyCount). Removing entries (DROP) rewrites the list from the chunk
// of the first removed entry on, so it stays in this form. An empty list has no keys. Both
// databases use lmdb's `binary` key and value encodings. (Format 1 stored 72-character text
// entries; format 2 had the keys `[nodeId, edgeLabel]` and `[nodeId, edgeLabel, i]` with the id
// as text.)
import type { Database, Transaction } from "lmdb";
import { ID_BYTES, idBytesEqual, readIdBytes, writeIdBytes } from "../store/id-bytes.js";
import { type Key, labelBytes } from "../store/keys.js";

export const ENTRY_BYTES = 2 * ID_BYTES;
export const CHUNK = 32;
export const CHUNK_BYTES = CHUNK * ENTRY_BYTES;
/** The tail's header: the number of sealed chunks before it, u32 little-endian. */
export const TAIL_HEADER = 4;

export type AdjacencyDb = Database<Uint8Array, Uint8Array>;
type ReadOpts = { transaction: Transaction } | undefined;

const EMPTY = new Uint8Array(0);
const utf8Decoder = new TextDecoder();

/** The tail key of the list of (node, edge label). Throws when nodeId is not a UUID. */
export function listKey(nodeId: string, edgeLabel: string): Uint8Array {
  const label = labelBytes(edgeLabel);
  const key = new Uint8Array(ID_BYTES + label.length);
  writeIdBytes(nodeId, key, 0);
  key.set(label, ID_BYTES);
  return key;
}

/** The key of full chunk `i` of the list of (node, edge label). */
export function chunkKey(nodeId: string, edgeLabel: string, i: number): Uint8Array {
  const label = labelBytes(edgeLabel);
  const key = new Uint8Array(ID_BYTES + label.length + 5);
  writeIdBytes(nodeId, key, 0);
  key.set(label, ID_BYTES);
  const at = ID_BYTES + label.length + 1; // after the 0x00 separator
  key[at] = (i >>> 24) & 0xff;
  key[at + 1] = (i >>> 16) & 0xff;
  key[at + 2] = (i >>> 8) & 0xff;
  key[at + 3] = i & 0xff;
  return key;
}

/** A stored key as `[nodeId, edgeLabel]` (a tail) or `[nodeId, edgeLabel, i]` (a chunk), as reports name lists. */
export function parseListKey(key: Uint8Array): Key {
  if (key.length <= ID_BYTES) throw new Error(`adjacency key of ${key.length} bytes is malformed`);
  const nodeId = readIdBytes(key, 0);
  const sep = key.indexOf(0, ID_BYTES);
  if (sep < 0) return [nodeId, utf8Decoder.decode(key.subarray(ID_BYTES))];
  if (key.length !== sep + 5) throw new Error(`adjacency key of ${key.length} bytes is malformed`);
  const i = ((key[sep + 1]! << 24) | (key[sep + 2]! << 16) | (key[sep + 3]! << 8) | key[sep + 4]!) >>> 0;
  return [nodeId, utf8Decoder.decode(key.subarray(ID_BYTES, sep)), i];
}

/** The tail key of a list, or null when nodeId is no UUID (no list is stored under it). */
function tailKeyOf(nodeId: string, edgeLabel: string): Uint8Array | null {
  try {
    return listKey(nodeId, edgeLabel);
  } catch {
    return null;
  }
}

/** A tail value split: the number of full chunks before it, and its own entries. */
export function parseTail(tail: Uint8Array): { sealed: number; entries: Uint8Array } {
  if (tail.length < TAIL_HEADER || (tail.length - TAIL_HEADER) % ENTRY_BYTES !== 0) {
    throw new Error(`adjacency tail of ${tail.length} bytes is not a header and whole entries`);
  }
  const sealed = (tail[0]! | (tail[1]! << 8) | (tail[2]! << 16) | (tail[3]! << 24)) >>> 0;
  return { sealed, entries: tail.subarray(TAIL_HEADER) };
}

/** The tail value for `sealed` full chunks before it and these entries. */
export function tailValue(sealed: number, entries: Uint8Array): Uint8Array {
  const value = new Uint8Array(TAIL_HEADER + entries.length);
  value[0] = sealed & 0xff;
  value[1] = (sealed >>> 8) & 0xff;
  value[2] = (sealed >>> 16) & 0xff;
  value[3] = (sealed >>> 24) & 0xff;
  value.set(entries, TAIL_HEADER);
  return value;
}

/** All entries of the list, concatenated, in creation order (empty when there are none). */
export function readAdjacency(db: AdjacencyDb, nodeId: string, edgeLabel: string, opts: ReadOpts): Uint8Array {
  const key = tailKeyOf(nodeId, edgeLabel);
  if (key === null) return EMPTY;
  const tail = db.get(key, opts);
  if (tail === undefined) return EMPTY;
  const { sealed, entries } = parseTail(tail);
  if (sealed === 0) return entries;
  const all = new Uint8Array(sealed * CHUNK_BYTES + entries.length);
  for (let i = 0; i < sealed; i++) {
    const chunk = db.get(chunkKey(nodeId, edgeLabel, i), opts);
    if (chunk === undefined || chunk.length !== CHUNK_BYTES) throw new Error(`adjacency chunk ${nodeId}/${edgeLabel}/${i} missing or torn`);
    all.set(chunk, i * CHUNK_BYTES);
  }
  all.set(entries, sealed * CHUNK_BYTES);
  return all;
}

/** The number of entries of the list, from its tail alone (one get, no chunk read). */
export function adjacencyCount(db: AdjacencyDb, nodeId: string, edgeLabel: string, opts: ReadOpts): number {
  const key = tailKeyOf(nodeId, edgeLabel);
  if (key === null) return 0;
  const tail = db.get(key, opts);
  if (tail === undefined) return 0;
  const { sealed, entries } = parseTail(tail);
  return sealed * CHUNK + entries.length / ENTRY_BYTES;
}

/** One entry: the edge's id and the other node's id, 32 bytes. */
export function adjacencyEntry(edgeId: string, otherId: string): Uint8Array {
  const entry = new Uint8Array(ENTRY_BYTES);
  writeAdjacencyEntry(entry, 0, edgeId, otherId);
  return entry;
}

/** Writes one entry (ENTRY_BYTES) at `offset` of `target`, as adjacencyEntry lays it out. */
export function writeAdjacencyEntry(target: Uint8Array, offset: number, edgeId: string, otherId: string): void {
  writeIdBytes(edgeId, target, offset);
  writeIdBytes(otherId, target, offset + ID_BYTES);
}

/** Entries joined into one list, in the given order. */
export function joinEntries(parts: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const p of parts) length += p.length;
  const all = new Uint8Array(length);
  let off = 0;
  for (const p of parts) {
    all.set(p, off);
    off += p.length;
  }
  return all;
}

/** A list split into parallel arrays: edge i goes to (or comes from) node otherIds[i]. */
export interface Adjacency {
  readonly edgeIds: readonly string[];
  readonly otherIds: readonly string[];
}

/** The list's entries as parallel arrays; with `limit`, its first `limit` entries only. */
export function splitAdjacency(list: Uint8Array, limit = Number.POSITIVE_INFINITY): Adjacency {
  const n = Math.min(list.length / ENTRY_BYTES, limit);
  const edgeIds = new Array<string>(n);
  const otherIds = new Array<string>(n);
  for (let i = 0, off = 0; i < n; i++, off += ENTRY_BYTES) {
    edgeIds[i] = readIdBytes(list, off);
    otherIds[i] = readIdBytes(list, off + ID_BYTES);
  }
  return { edgeIds, otherIds };
}

/** The other node of the entry of edge `edgeId` (its 16 bytes) in `list`, or undefined. */
export function otherEndOf(list: Uint8Array, edgeId: Uint8Array): string | undefined {
  for (let off = 0; off < list.length; off += ENTRY_BYTES) {
    if (idBytesEqual(list, off, edgeId)) return readIdBytes(list, off + ID_BYTES);
  }
  return undefined;
}

/** The edge labels for which the node has a list in `db` (its tail keys), in key order. */
export function adjacencyLabels(db: AdjacencyDb, nodeId: string, opts: ReadOpts): string[] {
  const labels: string[] = [];
  const start = new Uint8Array(ID_BYTES);
  try {
    writeIdBytes(nodeId, start, 0);
  } catch {
    return labels; // no UUID: no lists
  }
  const end = new Uint8Array(ID_BYTES + 1);
  end.set(start, 0);
  end[ID_BYTES] = 0xff; // above every label's first UTF-8 byte
  for (const key of db.getKeys({ start, end, ...(opts ?? {}) })) {
    if (key.indexOf(0, ID_BYTES) < 0) labels.push(utf8Decoder.decode(key.subarray(ID_BYTES)));
  }
  return labels;
}
