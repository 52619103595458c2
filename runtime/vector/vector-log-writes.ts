// Pruning of `vector_log` (store/keys.ts): once a type's HNSW checkpoint is durably saved at some
// generation, the open never replays the changes up to it again.
import type { StoreDbs } from "../store/dbs.js";

/** Removes the type's log entries with generation <= upTo; returns how many. Call in a write transaction. */
export function pruneVectorLog(dbs: StoreDbs, label: string, upTo: number): number {
  // Collected first: the cursor is not moved under its own deletions.
  const keys = [...dbs.vectorLog.getKeys({ start: [label], end: [label, upTo + 1] })];
  for (const key of keys) dbs.vectorLog.removeSync(key);
  return keys.length;
}
