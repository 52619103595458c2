// Reading a range whose values may not decode. A range read decodes as it goes, so one value whose
// bytes are damaged (a bit flip on disk) ended the whole read with the decoder's stack, naming no
// key. This reads the range as fast as a range read does and, from a value that does not decode on,
// reads the rest one key at a time: each value that still does not decode goes to `damaged` with
// its key, and the read goes on. Used by the integrity check and by export.
import type { Database, Key as LmdbKey, RangeOptions } from "lmdb";

export function* decodedRange<V, K extends LmdbKey>(
  db: Database<V, K>,
  range: RangeOptions,
  damaged: (key: K, error: Error) => void,
): Generator<{ key: K; value: V }> {
  let read = 0;
  const fast = db.getRange(range)[Symbol.iterator]();
  for (;;) {
    let next: IteratorResult<{ key: K; value: V }>;
    try {
      next = fast.next();
    } catch {
      fast.return?.();
      break;
    }
    if (next.done === true) return;
    read++;
    yield next.value;
  }
  // The rest, one key at a time, after the `read` keys the fast read already gave.
  const options = range.transaction === undefined ? undefined : { transaction: range.transaction };
  let passed = 0;
  for (const stored of db.getKeys(range)) {
    if (passed++ < read) continue;
    // lmdb reuses a binary key's memory from one read to the next.
    const key = (stored instanceof Uint8Array ? Uint8Array.prototype.slice.call(stored) : stored) as K;
    let value: V | undefined;
    try {
      value = db.get(key, options);
    } catch (error) {
      damaged(key, error as Error);
      continue;
    }
    if (value !== undefined) yield { key, value };
  }
}
