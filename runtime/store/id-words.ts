// Ids as numbers: a textual UUID as its four 32-bit words, and those words as the id's 16 bytes
// (id-bytes.ts) and back. What lets a bulk load keep millions of ids in typed arrays, with no
// string per id (load/loaded-ids.ts, adjacency/bulk-lists.ts, records/edge-ends-writes.ts).

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

/** Reads the 16 id bytes at bytes[from] (store/id-bytes.ts) as the words writeUuidWords wrote: out[at, at + 4). */
export function readUuidWords(bytes: Uint8Array, from: number, out: Int32Array, at: number): void {
  for (let i = 0; i < 4; i++) {
    const b = from + i * 4;
    out[at + i] = (bytes[b]! << 24) | (bytes[b + 1]! << 16) | (bytes[b + 2]! << 8) | bytes[b + 3]!;
  }
}
