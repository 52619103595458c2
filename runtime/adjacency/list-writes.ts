// Changes to adjacency lists (layout in runtime/adjacency/lists.ts). Only the graph writer calls
// these, inside the write transaction of the edge records they describe.
import { CHUNK_BYTES, ENTRY_BYTES, chunkKey, listKey, parseTail, tailValue, type AdjacencyDb } from "./lists.js";
import { readIdBytes } from "../store/id-bytes.js";
import { type LastKey, putAfterLast } from "../store/append-put.js";

/**
 * Appends `entries` (whole 32-byte entries, oldest first) to the list in one rewrite: the tail is
 * read once, every chunk it fills is sealed and the rest becomes the new tail. Must run inside a
 * write transaction. `entries` is only read during the call (the caller may reuse it). `last`:
 * see LastKey (without it, a new list reads the database's last key itself).
 */
export function appendAdjacency(db: AdjacencyDb, nodeId: string, edgeLabel: string, entries: Uint8Array, last?: LastKey): void {
  appendToList(db, listKey(nodeId, edgeLabel), entries, last ?? { key: null });
}

/** The key of full chunk `i` of the list whose tail key is `key` (as chunkKey builds it). */
function chunkKeyOf(key: Uint8Array, i: number): Uint8Array {
  const chunk = new Uint8Array(key.length + 5);
  chunk.set(key, 0);
  chunk[key.length + 1] = (i >>> 24) & 0xff;
  chunk[key.length + 2] = (i >>> 16) & 0xff;
  chunk[key.length + 3] = (i >>> 8) & 0xff;
  chunk[key.length + 4] = i & 0xff;
  return chunk;
}

/**
 * What a database that logs a list's append as one op has (commit-log/change-recorder.ts): the
 * append goes through it, so a write's log entry holds the entries appended, not the list's new
 * tail and chunks (for 1,000 edges from random sources, ~140 KB of tails instead of ~32 KB).
 */
export const LOGGED_APPEND: unique symbol = Symbol("logged list append");

export interface LoggedAppend {
  readonly [LOGGED_APPEND]?: (key: Uint8Array, entries: Uint8Array, last: LastKey) => void;
}

/** appendAdjacency for the list whose tail key (node id bytes, label) is `key`. */
export function appendToList(db: AdjacencyDb, key: Uint8Array, entries: Uint8Array, last: LastKey): void {
  const logged = (db as LoggedAppend)[LOGGED_APPEND];
  if (logged !== undefined) logged(key, entries, last);
  else writeAppend(db, key, entries, last);
}

function writeAppend(db: AdjacencyDb, key: Uint8Array, entries: Uint8Array, last: LastKey): void {
  const tail = db.get(key);
  if (tail === undefined) {
    newList(db, key, entries, last);
    return;
  }
  const parsed = parseTail(tail);
  let sealed = parsed.sealed;
  const all = new Uint8Array(parsed.entries.length + entries.length);
  all.set(parsed.entries, 0);
  all.set(entries, parsed.entries.length);
  let off = 0;
  // putSync copies the value into the transaction before it returns: views need no copy.
  for (; all.length - off >= CHUNK_BYTES; off += CHUNK_BYTES) db.putSync(chunkKeyOf(key, sealed++), all.subarray(off, off + CHUNK_BYTES));
  db.putSync(key, tailValue(sealed, all.subarray(off)));
}

/**
 * Writes a list that has no keys yet: its tail, then its full chunks (which sort after it). A list
 * whose keys sort after every key of the database (a new node's, whose UUID v7 is the newest;
 * every list of a bulk load into an empty store, which writes them in key order) is appended
 * (store/append-put.ts).
 */
function newList(db: AdjacencyDb, key: Uint8Array, entries: Uint8Array, last: LastKey): void {
  const sealed = Math.floor(entries.length / CHUNK_BYTES);
  putAfterLast(db, key, tailValue(sealed, entries.subarray(sealed * CHUNK_BYTES)), last);
  for (let i = 0; i < sealed; i++) putAfterLast(db, chunkKeyOf(key, i), entries.slice(i * CHUNK_BYTES, (i + 1) * CHUNK_BYTES), last);
}

/**
 * Cuts the entries whose edge id is in `edgeIds` out of the list; must run inside a write
 * transaction. The list stays compact (full chunks, then a tail of fewer than CHUNK entries, in
 * creation order): chunks before the first removed entry are kept as they are, every later
 * entry shifts left, so the chunk holding that entry and all chunks after it are rewritten and
 * chunk keys no longer needed are deleted. A list left empty has no keys at all.
 * Returns the number of entries removed (0: nothing was written).
 */
export function removeAdjacency(db: AdjacencyDb, nodeId: string, edgeLabel: string, edgeIds: ReadonlySet<string>): number {
  const key = listKey(nodeId, edgeLabel);
  const tail = db.get(key);
  if (tail === undefined) return 0;
  const { sealed, entries: tailEntries } = parseTail(tail);
  // Chunk index `sealed` stands for the tail. Chunks before the first removed entry stay.
  let first = -1;
  const rest: Uint8Array[] = [];
  let restBytes = 0;
  let removed = 0;
  for (let i = 0; i <= sealed; i++) {
    const part = i < sealed ? db.get(chunkKey(nodeId, edgeLabel, i)) : tailEntries;
    if (part === undefined) throw new Error(`adjacency chunk ${nodeId}/${edgeLabel}/${i} missing`);
    for (let off = 0; off < part.length; off += ENTRY_BYTES) {
      if (edgeIds.has(readIdBytes(part, off))) {
        if (first < 0) {
          first = i;
          rest.push(part.subarray(0, off));
          restBytes += off;
        }
        removed++;
      } else if (first >= 0) {
        rest.push(part.subarray(off, off + ENTRY_BYTES));
        restBytes += ENTRY_BYTES;
      }
    }
  }
  if (first < 0) return 0;
  const all = new Uint8Array(restBytes);
  let at = 0;
  for (const r of rest) {
    all.set(r, at);
    at += r.length;
  }
  const fullChunks = Math.floor(all.length / CHUNK_BYTES);
  const newSealed = first + fullChunks;
  for (let j = 0; j < fullChunks; j++)
    db.putSync(chunkKey(nodeId, edgeLabel, first + j), all.slice(j * CHUNK_BYTES, (j + 1) * CHUNK_BYTES));
  for (let i = newSealed; i < sealed; i++) db.removeSync(chunkKey(nodeId, edgeLabel, i));
  const newTail = all.subarray(fullChunks * CHUNK_BYTES);
  if (newSealed === 0 && newTail.length === 0) db.removeSync(key);
  else db.putSync(key, tailValue(newSealed, newTail));
  return removed;
}

/** Deletes every key of the list (tail and chunks); must run inside a write transaction. */
export function deleteAdjacency(db: AdjacencyDb, nodeId: string, edgeLabel: string): void {
  const key = listKey(nodeId, edgeLabel);
  const tail = db.get(key);
  if (tail === undefined) return;
  const { sealed } = parseTail(tail);
  for (let i = 0; i < sealed; i++) db.removeSync(chunkKey(nodeId, edgeLabel, i));
  db.removeSync(key);
}
