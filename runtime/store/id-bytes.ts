// Ids in binary: a textual UUID (36 characters, lower-case hex) as its 16 bytes and back. Ids
// stay text everywhere the runtime hands them out; only the on-disk encoding is binary (the
// adjacency entries, see adjacency.ts). Byte order is the text's order, so binary ids sort as
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

export function idBytes(id: string): Uint8Array {
  const bytes = new Uint8Array(ID_BYTES);
  writeIdBytes(id, bytes, 0);
  return bytes;
}

/** The lower-case textual UUID of the 16 bytes at `offset`. */
export function readIdBytes(source: Uint8Array, offset: number): string {
  const b = source;
  const o = offset;
  return (
    HEX[b[o]!]! +
    HEX[b[o + 1]!]! +
    HEX[b[o + 2]!]! +
    HEX[b[o + 3]!]! +
    "-" +
    HEX[b[o + 4]!]! +
    HEX[b[o + 5]!]! +
    "-" +
    HEX[b[o + 6]!]! +
    HEX[b[o + 7]!]! +
    "-" +
    HEX[b[o + 8]!]! +
    HEX[b[o + 9]!]! +
    "-" +
    HEX[b[o + 10]!]! +
    HEX[b[o + 11]!]! +
    HEX[b[o + 12]!]! +
    HEX[b[o + 13]!]! +
    HEX[b[o + 14]!]! +
    HEX[b[o + 15]!]!
  );
}

/** Do the 16 bytes at `offset` hold `id` (as writeIdBytes writes it)? */
export function idBytesEqual(source: Uint8Array, offset: number, id: Uint8Array): boolean {
  for (let i = 0; i < ID_BYTES; i++) if (source[offset + i] !== id[i]) return false;
  return true;
}
