// Putting keys that mostly sort after everything a binary database holds (new lists of new nodes,
// new edge_ends blocks, a bulk load written in key order) with LMDB's MDB_APPEND: a page that
// fills is then left full instead of split in half, so such pages are packed to the brim. Inside
// a write transaction only.
import type { Database } from "lmdb";

export const APPEND = { append: true } as const;

/**
 * The database's last key as a run of puts (one flush, one fold, one writer) last saw it: read
 * once, then raised by the run's own appends, so a run of new keys costs one cursor read, not
 * one each. It may fall behind the real last key (a chunk sealed at the end, a removal): then an
 * append is tried and refused, or a plain put is used where an append was possible; both are
 * correct.
 */
export interface LastKey {
  key: Uint8Array | null;
}

/** The database's last key (an empty array when it has none). */
export function lastKeyOf(db: Database<Uint8Array, Uint8Array>): Uint8Array {
  for (const last of db.getKeys({ reverse: true, limit: 1 })) return last;
  return new Uint8Array(0);
}

export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/**
 * Puts (key, value): appended when the key sorts after `last` (and LMDB agrees), else a plain
 * put. A key that grows in place (the same as the last) is a plain put: LMDB then splits a page
 * at the end, leaving the left page full.
 */
export function putAfterLast(db: Database<Uint8Array, Uint8Array>, key: Uint8Array, value: Uint8Array, last: LastKey): void {
  last.key ??= lastKeyOf(db);
  // A refused append (the key is not last after all) writes nothing and returns false: then a plain put.
  if (compareBytes(key, last.key) > 0 && db.putSync(key, value, APPEND)) last.key = key;
  else db.putSync(key, value);
}
