// The ids an import has loaded, exact, with the label of each: what lets the bulk loader check
// "id not taken" and "endpoint present with the declared type" without one LMDB lookup per label
// per record (bulk-loader.ts). An id is kept as its 128 bits (four 32-bit words) in an open
// addressing table of typed arrays, not as a JS string in a Map: a load of millions of records
// keeps no per-id object for the garbage collector to walk, and a Map stops at 2^24 entries.
// Past MAX_IDS the table stops growing and says so (`complete` false): callers then ask LMDB.
import { uuidWords } from "../store/id-words.js";

/**
 * Slots are at most half full; this many ids at most (1.3 GB of table). An import with more
 * (the store's ids included, stored-ids.ts) goes on asking LMDB, many times slower.
 */
const MAX_IDS = 1 << 25;

/** Words per slot of the table: the tag (0: empty), then the id's four words. */
const SLOT_WORDS = 5;

export class LoadedIds {
  /**
   * The table, a slot's tag and words side by side: a lookup in a table of millions of ids costs
   * the memory reads it makes, so one slot is one place in memory, not two.
   */
  private slots = new Int32Array(0);
  private capacity = 0;
  private mask = -1;
  private count = 0;
  private overflowed = false;
  private readonly scratch = new Int32Array(4);
  private reserved = 0;

  /** @param maxIds ids held at most (tests pass a small one) */
  constructor(private readonly maxIds = MAX_IDS) {
    this.resize(1 << 16);
  }

  /** The most ids reserve() was asked for: about how many the import expects to hold. */
  get expected(): number {
    return this.reserved;
  }

  /** How many ids the table holds. */
  get size(): number {
    return this.count;
  }

  /**
   * Makes room for `ids` ids in all (up to the limit) at once: growing step by step rehashes
   * every id at each step, a large share of a big import's time.
   */
  reserve(ids: number): void {
    this.reserved = Math.max(this.reserved, ids);
    const want = Math.min(ids, this.maxIds);
    let capacity = this.capacity;
    while (want * 2 > capacity) capacity *= 2;
    if (capacity > this.capacity) this.resize(capacity);
  }

  /** False once an id was left out (past MAX_IDS): a miss then proves nothing. */
  get complete(): boolean {
    return !this.overflowed;
  }

  /** The tag `id` was added with; 0 when it was not added; -1 when `id` is not a UUID. */
  get(id: string): number {
    const w = this.scratch;
    if (!uuidWords(id, w)) return -1;
    return this.getWords(w, 0);
  }

  /** The tag of the id whose words (uuidWords) are w[at, at + 4); 0 when it was not added. */
  getWords(w: Int32Array, at: number): number {
    return this.slots[this.find(w[at]!, w[at + 1]!, w[at + 2]!, w[at + 3]!)]!;
  }

  /** Adds `id` (a UUID, either case) with `tag` (1..65535); an id already held keeps its tag. */
  add(id: string, tag: number): void {
    const w = this.scratch;
    if (!uuidWords(id, w)) throw new Error(`LoadedIds.add: '${id}' is not a UUID`);
    this.addWords(w, 0, tag);
  }

  /**
   * add() of the id whose words (uuidWords) are w[at, at + 4); returns the tag it already had
   * (0: it was not held, and now is unless the table is full).
   */
  addWords(w: Int32Array, at: number, tag: number): number {
    const a = w[at]!;
    const b = w[at + 1]!;
    const c = w[at + 2]!;
    const d = w[at + 3]!;
    let slot = this.find(a, b, c, d);
    const held = this.slots[slot]!;
    if (held !== 0) return held;
    if (this.count >= this.maxIds) {
      this.overflowed = true;
      return 0;
    }
    if ((this.count + 1) * 2 > this.capacity) {
      this.resize(this.capacity * 2);
      slot = this.find(a, b, c, d);
    }
    this.put(slot, a, b, c, d, tag);
    return 0;
  }

  /** The slot holding these words, or the empty slot where they would go (linear probing); its offset in `slots`. */
  private find(a: number, b: number, c: number, d: number): number {
    // The last words are a UUID's random bits (v7 leads with a timestamp): hash those.
    let h = Math.imul(d ^ Math.imul(c, 0x9e3779b1), 0x85ebca6b) ^ Math.imul(b, 0xc2b2ae35);
    h ^= h >>> 15;
    const s = this.slots;
    for (let slot = h & this.mask; ; slot = (slot + 1) & this.mask) {
      const i = slot * SLOT_WORDS;
      if (s[i] === 0 || (s[i + 1] === a && s[i + 2] === b && s[i + 3] === c && s[i + 4] === d)) return i;
    }
  }

  private put(i: number, a: number, b: number, c: number, d: number, tag: number): void {
    const s = this.slots;
    s[i] = tag;
    s[i + 1] = a;
    s[i + 2] = b;
    s[i + 3] = c;
    s[i + 4] = d;
    this.count++;
  }

  private resize(capacity: number): void {
    const old = this.slots;
    this.slots = new Int32Array(capacity * SLOT_WORDS);
    this.capacity = capacity;
    this.mask = capacity - 1;
    this.count = 0;
    for (let i = 0; i < old.length; i += SLOT_WORDS) {
      const tag = old[i]!;
      if (tag === 0) continue;
      const a = old[i + 1]!;
      const b = old[i + 2]!;
      const c = old[i + 3]!;
      const d = old[i + 4]!;
      this.put(this.find(a, b, c, d), a, b, c, d, tag);
    }
  }
}
