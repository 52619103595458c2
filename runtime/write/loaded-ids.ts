// The ids an import has loaded, exact, with the label of each: what lets the bulk loader check
// "id not taken" and "endpoint present with the declared type" without one LMDB lookup per label
// per record (bulk-loader.ts). An id is kept as its 128 bits (four 32-bit words) in an open
// addressing table of typed arrays, not as a JS string in a Map: a load of millions of records
// keeps no per-id object for the garbage collector to walk, and a Map stops at 2^24 entries.
// Past MAX_IDS the table stops growing and says so (`complete` false): callers then ask LMDB.

/** Slots are at most half full; this many ids at most (about 150 MB of table). */
const MAX_IDS = 1 << 22;

/** The value of each hex digit by char code, -1 for anything else. */
const HEX_DIGIT = new Int8Array(128).fill(-1);
for (let i = 0; i < 10; i++) HEX_DIGIT[48 + i] = i;
for (let i = 0; i < 6; i++) {
  HEX_DIGIT[65 + i] = 10 + i;
  HEX_DIGIT[97 + i] = 10 + i;
}

/** Positions of the 32 hex digits of a textual UUID (8-4-4-4-12). */
const DIGIT_AT = [...Array(36).keys()].filter((i) => i !== 8 && i !== 13 && i !== 18 && i !== 23);

/**
 * Reads a textual UUID (any version, either case) into `out` as four words; false when `s` is
 * not one (the same strings `isUuid` of store/ids.ts refuses).
 */
export function uuidWords(s: string, out: Int32Array): boolean {
  return s.length === 36 && uuidWordsAt(s, 0, out, 0);
}

/**
 * Reads the textual UUID at s[from, from + 36) into out[at, at + 4) (as uuidWords); false when
 * those characters are not one (the caller checks that the text is long enough).
 */
export function uuidWordsAt(s: string, from: number, out: Int32Array, at: number): boolean {
  if (s.charCodeAt(from + 8) !== 45 || s.charCodeAt(from + 13) !== 45 || s.charCodeAt(from + 18) !== 45 || s.charCodeAt(from + 23) !== 45)
    return false;
  for (let w = 0; w < 4; w++) {
    let acc = 0;
    for (let k = 0; k < 8; k++) {
      const c = s.charCodeAt(from + DIGIT_AT[w * 8 + k]!);
      const d = c < 128 ? HEX_DIGIT[c]! : -1;
      if (d < 0) return false;
      acc = (acc << 4) | d;
    }
    out[at + w] = acc;
  }
  return true;
}

/** Writes the words w[at, at + 4) (uuidWords) as the UUID's 16 bytes at out[to] (store/id-bytes.ts). */
export function writeUuidWords(out: Uint8Array, to: number, w: Int32Array, at: number): void {
  for (let i = 0; i < 4; i++) {
    const x = w[at + i]!;
    out[to + i * 4] = x >>> 24;
    out[to + i * 4 + 1] = (x >>> 16) & 0xff;
    out[to + i * 4 + 2] = (x >>> 8) & 0xff;
    out[to + i * 4 + 3] = x & 0xff;
  }
}

export class LoadedIds {
  private words = new Int32Array(0);
  /** Per slot: 0 empty, else the tag the id was added with. */
  private tags = new Uint16Array(0);
  private mask = -1;
  private count = 0;
  private overflowed = false;
  private readonly scratch = new Int32Array(4);

  /** @param maxIds ids held at most (tests pass a small one) */
  constructor(private readonly maxIds = MAX_IDS) {
    this.resize(1 << 16);
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
    const want = Math.min(ids, this.maxIds);
    let slots = this.tags.length;
    while (want * 2 > slots) slots *= 2;
    if (slots > this.tags.length) this.resize(slots);
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
    return this.tags[this.find(w[at]!, w[at + 1]!, w[at + 2]!, w[at + 3]!)]!;
  }

  /** Adds `id` (a UUID, either case) with `tag` (1..65535); an id already held keeps its tag. */
  add(id: string, tag: number): void {
    const w = this.scratch;
    if (!uuidWords(id, w)) throw new Error(`LoadedIds.add: '${id}' is not a UUID`);
    this.addWords(w, 0, tag);
  }

  /** add() of the id whose words (uuidWords) are w[at, at + 4). */
  addWords(w: Int32Array, at: number, tag: number): void {
    const a = w[at]!;
    const b = w[at + 1]!;
    const c = w[at + 2]!;
    const d = w[at + 3]!;
    if (this.tags[this.find(a, b, c, d)] !== 0) return;
    if (this.count >= this.maxIds) {
      this.overflowed = true;
      return;
    }
    if ((this.count + 1) * 2 > this.tags.length) this.resize(this.tags.length * 2);
    this.put(this.find(a, b, c, d), a, b, c, d, tag);
  }

  /** The slot holding these words, or the empty slot where they would go (linear probing). */
  private find(a: number, b: number, c: number, d: number): number {
    // The last words are a UUID's random bits (v7 leads with a timestamp): hash those.
    let h = Math.imul(d ^ Math.imul(c, 0x9e3779b1), 0x85ebca6b) ^ Math.imul(b, 0xc2b2ae35);
    h ^= h >>> 15;
    let slot = h & this.mask;
    for (;;) {
      if (this.tags[slot] === 0) return slot;
      const i = slot * 4;
      if (this.words[i] === a && this.words[i + 1] === b && this.words[i + 2] === c && this.words[i + 3] === d) return slot;
      slot = (slot + 1) & this.mask;
    }
  }

  private put(slot: number, a: number, b: number, c: number, d: number, tag: number): void {
    const i = slot * 4;
    this.words[i] = a;
    this.words[i + 1] = b;
    this.words[i + 2] = c;
    this.words[i + 3] = d;
    this.tags[slot] = tag;
    this.count++;
  }

  private resize(slots: number): void {
    const { words, tags } = this;
    this.words = new Int32Array(slots * 4);
    this.tags = new Uint16Array(slots);
    this.mask = slots - 1;
    this.count = 0;
    for (let s = 0; s < tags.length; s++) {
      const tag = tags[s]!;
      if (tag === 0) continue;
      const i = s * 4;
      const slot = this.find(words[i]!, words[i + 1]!, words[i + 2]!, words[i + 3]!);
      this.put(slot, words[i]!, words[i + 1]!, words[i + 2]!, words[i + 3]!, tag);
    }
  }
}
