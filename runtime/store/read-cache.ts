// Decoded records and adjacency lists of recent reads, shared by all read transactions. A graph
// walk is mostly point gets, and each lmdb get costs a native call plus a msgpack decode (2–4 µs
// measured here) where a Map hit costs ~0.2 µs; a 2-hop expansion of degree 10 does 121 of them.
//
// Why a reader can never see a value newer or older than its snapshot through the cache:
//  1. Only read contexts fill the cache, each with what its own snapshot returned.
//  2. A write context calls `beginWrite(key)` before it changes a key: the entry is dropped and
//     the key is *pending*. Pending keys are never filled, so a reader still on a snapshot from
//     before the commit cannot cache the old value for later readers.
//  3. `settle(keys)` releases the pending marks only after the write transaction has committed
//     and been flushed (or failed), when every new read snapshot already includes it.
// Reads and write callbacks both run on the JS thread, so (1)–(3) never interleave mid-step.
// The store must be the only writer of its data directory (GraphStore holds a lock for that).
//
// Cached values are deep-frozen: every request shares them, so code that tried to modify a
// record in place would fail loudly instead of corrupting other requests' results.

export const DEFAULT_CACHE_ENTRIES = 250_000;

export class ReadCache {
  private readonly entries = new Map<string, unknown>();
  /**
   * The keys in fill order, as a ring: filling slot i evicts the key filled there `capacity`
   * fills ago. Not `entries.keys().next()`: V8 leaves a hole for each deleted Map entry until
   * the table is rehashed and that iterator walks every hole, so evicting one key at a time
   * cost 17 µs at 50k entries and 44 µs at 250k (measured) — more than the read it saved. A
   * slot whose key was since dropped and filled again evicts the newer entry a little early;
   * every entry has a slot, so the Map never holds more than `capacity`.
   */
  private readonly order: Array<string | undefined>;
  private next = 0;
  /** key → number of write transactions in flight that change it */
  private readonly pending = new Map<string, number>();
  /** Bulk loads in flight: each counts as changing every key (beginBulkWrite). */
  private bulkWrites = 0;

  /** `capacity` 0 disables caching. Oldest entries are evicted first. */
  constructor(readonly capacity: number = DEFAULT_CACHE_ENTRIES) {
    if (!Number.isInteger(capacity) || capacity < 0) throw new RangeError(`cache capacity must be an integer >= 0, got ${capacity}`);
    this.order = [];
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string): unknown {
    return this.entries.get(key);
  }

  /** Remembers what a read snapshot returned for `key`, unless a write to it is in flight. */
  fill<T>(key: string, value: T): T {
    if (this.capacity === 0 || this.bulkWrites > 0 || this.pending.has(key)) return value;
    const evicted = this.order[this.next];
    if (evicted !== undefined) this.entries.delete(evicted);
    this.order[this.next] = key;
    this.next = this.next + 1 === this.capacity ? 0 : this.next + 1;
    this.entries.set(key, deepFreeze(value));
    return value;
  }

  /**
   * `list` with each of its `otherIds` replaced by the id string of its cached record, where
   * there is one: a node's id is in the adjacency lists of all its neighbours, and a cached list
   * that keeps the record's string instead of its own copy saves 56 bytes per entry (lists are
   * most of the cache) and turns the record lookups by it into pointer comparisons. Records are
   * filled under their own id string (TxnQueryContext), so the Map's key is that string too.
   */
  shareRecordIds<T extends { readonly otherIds: readonly string[] }>(list: T): T {
    const ids = list.otherIds as string[];
    for (let i = 0; i < ids.length; i++) {
      const rec = this.entries.get(recordKey(ids[i]!)) as { id?: unknown } | undefined;
      if (rec !== undefined && rec.id === ids[i]) ids[i] = rec.id as string;
    }
    return list;
  }

  /** A write transaction is about to change `key`; `touched` collects the keys to settle later. */
  beginWrite(key: string, touched: string[]): void {
    this.entries.delete(key);
    this.pending.set(key, (this.pending.get(key) ?? 0) + 1);
    touched.push(key);
  }

  /**
   * A bulk load is about to change keys it does not name one by one (a million-edge import would
   * mark hundreds of thousands of lists): the cache is emptied and fills nothing until
   * settleBulkWrite, as if every key were pending.
   */
  beginBulkWrite(): void {
    this.entries.clear();
    this.bulkWrites++;
  }

  /** The bulk load of beginBulkWrite has committed and flushed, or failed. */
  settleBulkWrite(): void {
    this.bulkWrites--;
  }

  /** The write transaction that touched these keys has committed and flushed, or failed. */
  settle(touched: readonly string[]): void {
    for (const key of touched) {
      const n = this.pending.get(key);
      if (n === undefined) continue;
      if (n <= 1) this.pending.delete(key);
      else this.pending.set(key, n - 1);
    }
  }
}

/**
 * Records are cached under their id alone: ids are unique across nodes and edges, and using the
 * very string objects an adjacency list holds lets the Map reuse their cached hashes (a key built
 * by concatenation per lookup cost more than the lookup itself). Callers check the label.
 */
export function recordKey(id: string): string {
  return id;
}

/** Cannot collide with a record key: ids are UUIDs, these start with a NUL character. */
export function adjacencyKey(direction: "out" | "in", nodeId: string, edgeLabel: string): string {
  return `\u0000${direction === "out" ? "O" : "I"}${edgeLabel}\u0000${nodeId}`;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const member of Object.values(value)) deepFreeze(member);
  }
  return value;
}
