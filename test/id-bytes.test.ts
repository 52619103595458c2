// Ids decoded from their 16 bytes (adjacency entries) and freshly generated ids: exact text, and
// flat strings. A rope built by `+` kept ~480 heap bytes per id alive in the read cache and in
// results (issue 16: 2-hop load reached ~1.4 GB RSS); a flat 36-character string takes 56.
import v8 from "node:v8";
import vm from "node:vm";
import { describe, expect, test } from "vitest";
import { idBytes, readIdBytes, writeIdBytes } from "../runtime/store/id-bytes.js";
import { uuidv7 } from "../runtime/store/ids.js";

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as () => void;

/** Heap bytes each of `count` kept results of `make` holds, beyond the array slot. */
function heapBytesPerString(count: number, make: (i: number) => string): number {
  gc();
  const before = v8.getHeapStatistics().used_heap_size;
  const kept = new Array<string>(count);
  for (let i = 0; i < count; i++) kept[i] = make(i);
  gc();
  const after = v8.getHeapStatistics().used_heap_size;
  expect(kept.length).toBe(count);
  return (after - before) / count - 8;
}

describe("id bytes", () => {
  test("readIdBytes gives the lower-case text of the 16 bytes at an offset", () => {
    const bytes = new Uint8Array(20);
    for (let i = 0; i < 16; i++) bytes[i + 4] = i * 0x11;
    expect(readIdBytes(bytes, 4)).toBe("00112233-4455-6677-8899-aabbccddeeff");
    expect(readIdBytes(new Uint8Array(16), 0)).toBe("00000000-0000-0000-0000-000000000000");
    expect(readIdBytes(new Uint8Array(16).fill(255), 0)).toBe("ffffffff-ffff-ffff-ffff-ffffffffffff");
  });

  test("text → bytes → text is the identity for lower-case UUIDs; upper case reads back lower", () => {
    for (let i = 0; i < 1000; i++) {
      const id = uuidv7();
      expect(readIdBytes(idBytes(id), 0)).toBe(id);
    }
    const target = new Uint8Array(16);
    writeIdBytes("0190A2B4-1234-7ABC-8DEF-0123456789AB", target, 0);
    expect(readIdBytes(target, 0)).toBe("0190a2b4-1234-7abc-8def-0123456789ab");
  });

  test("decoded and generated ids are flat strings (well under 100 heap bytes each)", () => {
    const source = new Uint8Array(16 * 1024);
    for (let i = 0; i < source.length; i++) source[i] = (i * 7919) & 255;
    expect(heapBytesPerString(100_000, (i) => readIdBytes(source, (i % 1024) * 16))).toBeLessThan(100);
    expect(heapBytesPerString(100_000, () => uuidv7())).toBeLessThan(100);
  });
});
