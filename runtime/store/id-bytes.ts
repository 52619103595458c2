// Ids in binary: a textual UUID (36 characters, lower-case hex) as its 16 bytes and back. Ids
// stay text everywhere the runtime hands them out; only the on-disk encoding is binary (the
// adjacency entries, see adjacency/lists.ts). Byte order is the text's order, so binary ids sort as
// their text does.

const HEX: string[] = [];
for (let i = 0; i < 256; i++) HEX.push(i.toString(16).padStart(2, "0"));

/** Value of a lower- or upper-case hex digit's char code, -1 for anything else. */
const NIBBLE = new Int8Array(128).fill(-1);
for (let i = 0; i < 10; i++) NIBBLE[48 + i] = i;
for (let i = 0; i < 6; i++) {
  NIBBLE[97 + i] = 10 + i;
  NIBBLE[65 + i] = 10 + i;
}

/** Where the hex pairs of a UUID start in its text (the dashes are at 8, 13, 18 and 23). */
const PAIR_AT = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];

export const ID_BYTES = 16;

/**
 * Writes the 16 bytes of `id` at `offset`. The caller passes a UUID (every stored id is one);
 * anything else is a bug, so it throws rather than storing garbage.
 */
export function writeIdBytes(id: string, target: Uint8Array, offset: number): void {
  if (id.length !== 36) throw new Error(`not a UUID: ${JSON.stringify(id)}`);
  for (let i = 0; i < ID_BYTES; i++) {
    const at = PAIR_AT[i]!;
    const hi = NIBBLE[id.charCodeAt(at)] ?? -1;
    const lo = NIBBLE[id.charCodeAt(at + 1)] ?? -1;
    if (hi < 0 || lo < 0) throw new Error(`not a UUID: ${JSON.stringify(id)}`);
    target[offset + i] = (hi << 4) | lo;
  }
}

/**
 * Copies `length` bytes from `source` at `from` to `target` at `to`: for the few bytes of an id or
 * an entry, a loop costs less than `target.set(source.subarray(..))`, whose view is an object
 * allocated per call (a FOR-loop write of 1,000 edges made ~4,000 of them).
 */
export function copyBytes(source: Uint8Array, from: number, target: Uint8Array, to: number, length: number): void {
  for (let i = 0; i < length; i++) target[to + i] = source[from + i]!;
}

export function idBytes(id: string): Uint8Array {
  const bytes = new Uint8Array(ID_BYTES);
  writeIdBytes(id, bytes, 0);
  return bytes;
}

/** Char codes of each byte's two lower-case hex digits. */
const HI = new Uint8Array(256);
const LO = new Uint8Array(256);
for (let i = 0; i < 256; i++) {
  HI[i] = HEX[i]!.charCodeAt(0);
  LO[i] = HEX[i]!.charCodeAt(1);
}
const DASH = 45;

/**
 * The lower-case textual UUID of the 16 bytes at `offset`. Built by one String.fromCharCode, not
 * by `+`: concatenation leaves a rope of ~20 cons-string nodes (~480 heap bytes per id instead
 * of 56), which every id a cache or a result keeps holds on to (RSS under load).
 */
export function readIdBytes(source: Uint8Array, offset: number): string {
  const b = source;
  const o = offset;
  // biome-ignore format: one line per group of the UUID's text
  return String.fromCharCode(
    HI[b[o]!]!, LO[b[o]!]!, HI[b[o + 1]!]!, LO[b[o + 1]!]!, HI[b[o + 2]!]!, LO[b[o + 2]!]!, HI[b[o + 3]!]!, LO[b[o + 3]!]!, DASH,
    HI[b[o + 4]!]!, LO[b[o + 4]!]!, HI[b[o + 5]!]!, LO[b[o + 5]!]!, DASH,
    HI[b[o + 6]!]!, LO[b[o + 6]!]!, HI[b[o + 7]!]!, LO[b[o + 7]!]!, DASH,
    HI[b[o + 8]!]!, LO[b[o + 8]!]!, HI[b[o + 9]!]!, LO[b[o + 9]!]!, DASH,
    HI[b[o + 10]!]!, LO[b[o + 10]!]!, HI[b[o + 11]!]!, LO[b[o + 11]!]!, HI[b[o + 12]!]!, LO[b[o + 12]!]!,
    HI[b[o + 13]!]!, LO[b[o + 13]!]!, HI[b[o + 14]!]!, LO[b[o + 14]!]!, HI[b[o + 15]!]!, LO[b[o + 15]!]!,
  );
}

/** Do the 16 bytes at `offset` hold `id` (as writeIdBytes writes it)? */
export function idBytesEqual(source: Uint8Array, offset: number, id: Uint8Array): boolean {
  for (let i = 0; i < ID_BYTES; i++) if (source[offset + i] !== id[i]) return false;
  return true;
}
