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
//
// Bounded twice: in entries (`strand serve --cache-entries`, 0 disables it) and in bytes
// (`--cache-size`), each value's heap size estimated on the high side as it is frozen; the oldest
// entries go until a new one fits, and a value above an eighth of the budget is not cached. A
// bulk load (strand import) marks every key at once (beginBulkWrite): the cache is emptied and no
// reader fills it until the load has settled. A write context never reads the cache.

import { getHeapStatistics } from "node:v8";

export const DEFAULT_CACHE_ENTRIES = 250_000;

/**
 * The default byte budget: a quarter of V8's heap limit, at most 1 GiB. Entries alone did not
 * bound memory: 250,000 records near the body limit, or adjacency lists of hub nodes, are many
 * times the heap, and a client reading them ran the server out of memory.
 */
export function defaultCacheBytes(): number {
  return Math.min(2 ** 30, Math.floor(getHeapStatistics().heap_size_limit / 4));
}

/** One cached value and its estimated size (entryBytes). */
interface Entry {
  readonly value: unknown;
  readonly bytes: number;
}

export class ReadCache {
  private readonly entries = new Map<string, Entry>();
  /**
   * The keys in fill order, as a ring from `head` (the oldest) holding `count` keys: evicting
   * takes the oldest. Not `entries.keys().next()`: V8 leaves a hole for each deleted Map entry
   * until the table is rehashed and that iterator walks every hole, so evicting one key at a time
   * cost 17 µs at 50k entries and 44 µs at 250k (measured) — more than the read it saved. A key a
   * write dropped and a read filled again is in the ring twice: its older place evicts the newer
   * entry a little early; every entry has a place, so the Map never holds more than `capacity`.
   */
  private readonly order: Array<string | undefined> = [];
  private head = 0;
  private count = 0;
  /** The estimated bytes of every entry held (never above maxBytes). */
  private heldBytes = 0;
  /** key → number of write transactions in flight that change it */
  private readonly pending = new Map<string, number>();
  /** Bulk loads in flight: each counts as changing every key (beginBulkWrite). */
  private bulkWrites = 0;
  /** A value estimated above this is not cached: alone it would push out an eighth of the cache. */
  private readonly maxEntryBytes: number;

  /**
   * At most `capacity` entries (0 disables caching) of at most `maxBytes` estimated bytes in all
   * (entryBytes); the oldest entries are evicted first.
   */
  constructor(
    readonly capacity: number = DEFAULT_CACHE_ENTRIES,
    readonly maxBytes: number = defaultCacheBytes(),
  ) {
    if (!Number.isInteger(capacity) || capacity < 0) throw new RangeError(`cache capacity must be an integer >= 0, got ${capacity}`);
    if (!Number.isInteger(maxBytes) || maxBytes < 0) throw new RangeError(`cache bytes must be an integer >= 0, got ${maxBytes}`);
    this.maxEntryBytes = Math.floor(maxBytes / 8);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The estimated bytes of the values held. */
  get bytes(): number {
    return this.heldBytes;
  }

  get(key: string): unknown {
    return this.entries.get(key)?.value;
  }

  /** Remembers what a read snapshot returned for `key`, unless a write to it is in flight. */
  fill<T>(key: string, value: T): T {
    if (this.capacity === 0 || this.bulkWrites > 0 || this.pending.has(key)) return value;
    const bytes = entryBytes(value);
    if (bytes > this.maxEntryBytes) return value; // not shared, so not frozen either
    this.drop(key); // two readers that both missed the key fill it twice: it is held once
    if (this.count === this.capacity) this.evictOldest();
    while (this.heldBytes + bytes > this.maxBytes && this.count > 0) this.evictOldest();
    this.order[(this.head + this.count) % this.capacity] = key;
    this.count++;
    this.entries.set(key, { value: deepFreeze(value), bytes });
    this.heldBytes += bytes;
    return value;
  }

  private evictOldest(): void {
    const key = this.order[this.head];
    this.order[this.head] = undefined;
    this.head = this.head + 1 === this.capacity ? 0 : this.head + 1;
    this.count--;
    if (key !== undefined) this.drop(key);
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.heldBytes -= entry.bytes;
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
      const rec = this.entries.get(recordKey(ids[i]!))?.value as { id?: unknown } | undefined;
      if (rec !== undefined && rec.id === ids[i]) ids[i] = rec.id as string;
    }
    return list;
  }

  /** A write transaction is about to change `key`; `touched` collects the keys to settle later. */
  beginWrite(key: string, touched: string[]): void {
    this.drop(key);
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
    this.order.length = 0;
    this.head = 0;
    this.count = 0;
    this.heldBytes = 0;
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

/** Whether `key` is an adjacency list's (adjacencyKey), not a record's. */
export function isAdjacencyKey(key: string): boolean {
  return key.charCodeAt(0) === 0;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const member of Object.values(value)) deepFreeze(member);
  }
  return value;
}

/**
 * A value's size on the V8 heap, estimated on the high side: a string 16 bytes plus 2 per
 * character (two-byte strings take 2), a number, boolean or null 8, an array 16 plus 8 per slot,
 * an object 24 plus 16 per property, plus their members. Strings shared between values
 * (shareRecordIds) are counted in each.
 */
export function entryBytes(value: unknown): number {
  if (typeof value === "string") return 16 + 2 * value.length;
  if (typeof value !== "object" || value === null) return 8;
  if (Array.isArray(value)) {
    let bytes = 16 + 8 * value.length;
    for (const member of value) bytes += entryBytes(member);
    return bytes;
  }
  let bytes = 24;
  for (const member of Object.values(value)) bytes += 16 + entryBytes(member);
  return bytes;
}
