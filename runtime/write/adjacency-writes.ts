// Changes to adjacency lists (layout in runtime/store/adjacency.ts). Only the graph writer calls
// these, inside the write transaction of the edge records they describe.
import { CHUNK, ENTRY_LENGTH, ID_LENGTH, parseTail, type AdjacencyDb } from "../store/adjacency.js";
import type { Key } from "../store/keys.js";

/**
 * Appends `entries` (whole 72-character entries, oldest first) to the list in one rewrite: the
 * tail is read once, every chunk it fills is sealed and the rest becomes the new tail. Must run
 * inside a write transaction.
 */
export function appendAdjacency(db: AdjacencyDb, nodeId: string, edgeLabel: string, entries: string): void {
  const key: Key = [nodeId, edgeLabel];
  const tail = db.get(key);
  let { sealed, entries: all } = tail === undefined ? { sealed: 0, entries: "" } : parseTail(tail);
  all += entries;
  const chunkLength = CHUNK * ENTRY_LENGTH;
  let off = 0;
  for (; all.length - off >= chunkLength; off += chunkLength) db.putSync([nodeId, edgeLabel, sealed++], all.slice(off, off + chunkLength));
  db.putSync(key, `${sealed}|${all.slice(off)}`);
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
  const key: Key = [nodeId, edgeLabel];
  const tail = db.get(key);
  if (tail === undefined) return 0;
  const { sealed, entries: tailEntries } = parseTail(tail);
  // Chunk index `sealed` stands for the tail. Chunks before the first removed entry stay.
  let first = -1;
  let rest = "";
  let removed = 0;
  for (let i = 0; i <= sealed; i++) {
    const part = i < sealed ? db.get([nodeId, edgeLabel, i]) : tailEntries;
    if (part === undefined) throw new Error(`adjacency chunk ${nodeId}/${edgeLabel}/${i} missing`);
    for (let off = 0; off < part.length; off += ENTRY_LENGTH) {
      if (edgeIds.has(part.slice(off, off + ID_LENGTH))) {
        if (first < 0) {
          first = i;
          rest = part.slice(0, off);
        }
        removed++;
      } else if (first >= 0) {
        rest += part.slice(off, off + ENTRY_LENGTH);
      }
    }
  }
  if (first < 0) return 0;
  const fullChunks = Math.floor(rest.length / (CHUNK * ENTRY_LENGTH));
  const newSealed = first + fullChunks;
  for (let j = 0; j < fullChunks; j++) {
    db.putSync([nodeId, edgeLabel, first + j], rest.slice(j * CHUNK * ENTRY_LENGTH, (j + 1) * CHUNK * ENTRY_LENGTH));
  }
  for (let i = newSealed; i < sealed; i++) db.removeSync([nodeId, edgeLabel, i]);
  const newTail = rest.slice(fullChunks * CHUNK * ENTRY_LENGTH);
  if (newSealed === 0 && newTail === "") db.removeSync(key);
  else db.putSync(key, `${newSealed}|${newTail}`);
  return removed;
}

/** Deletes every key of the list (tail and chunks); must run inside a write transaction. */
export function deleteAdjacency(db: AdjacencyDb, nodeId: string, edgeLabel: string): void {
  const key: Key = [nodeId, edgeLabel];
  const tail = db.get(key);
  if (tail === undefined) return;
  const { sealed } = parseTail(tail);
  for (let i = 0; i < sealed; i++) db.removeSync([nodeId, edgeLabel, i]);
  db.removeSync(key);
}
