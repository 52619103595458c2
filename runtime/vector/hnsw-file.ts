// Reads an hnswlib index file back and checks that its structure accounts for every byte:
// hnswlib's saveIndex writes through a C++ stream without checking for errors, so on a full disk
// (or past RLIMIT_FSIZE) it leaves a truncated file and reports success. Its layout (hnswalg.h
// saveIndex): a 96-byte header (cur_element_count at byte 16, size_data_per_element at 24), the
// level-0 block of cur_element_count × size_data_per_element bytes, then per element a u32 byte
// count and that many bytes of upper-level links.
import { createHash } from "node:crypto";
import fs from "node:fs";

const HEADER_BYTES = 96;
const CHUNK = 1 << 20;

export interface IndexFileContents {
  bytes: number;
  sha256: string;
  /** Points in the file (cur_element_count), deleted ones included; null when the header is short. */
  elements: number | null;
  /** What is wrong with the structure (truncated, trailing bytes, absurd sizes), or null. */
  problem: string | null;
}

/** Hashes the file and walks its structure in one pass; throws only when it cannot be read. */
export function inspectIndexFile(file: string): IndexFileContents {
  const hash = createHash("sha256");
  const fd = fs.openSync(file, "r");
  const buf = Buffer.allocUnsafe(CHUNK);
  const walk = new StructureWalk();
  let bytes = 0;
  try {
    for (;;) {
      const n = fs.readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      const chunk = buf.subarray(0, n);
      hash.update(chunk);
      walk.feed(chunk);
      bytes += n;
    }
  } finally {
    fs.closeSync(fd);
  }
  return { bytes, sha256: hash.digest("hex"), elements: walk.elements, problem: walk.finish(bytes) };
}

/** A streaming parser of the file layout: what it still needs to skip or collect. */
class StructureWalk {
  elements: number | null = null;
  private problem: string | null = null;
  /** Bytes being collected (the header, then each 4-byte link count). */
  private collecting = Buffer.alloc(HEADER_BYTES);
  private collected = 0;
  private skip = 0;
  /** Link counts read so far; -1 while reading the header. */
  private linkCounts = -1;
  private done = false;
  private trailing = 0;

  feed(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length && this.problem === null) {
      if (this.done) {
        this.trailing += chunk.length - at;
        return;
      }
      if (this.skip > 0) {
        const n = Math.min(this.skip, chunk.length - at);
        this.skip -= n;
        at += n;
        if (this.skip === 0 && this.linkCounts === this.elements) this.done = true;
        continue;
      }
      const n = Math.min(this.collecting.length - this.collected, chunk.length - at);
      chunk.copy(this.collecting, this.collected, at, at + n);
      this.collected += n;
      at += n;
      if (this.collected === this.collecting.length) this.collectedAll();
    }
  }

  private collectedAll(): void {
    this.collected = 0;
    if (this.linkCounts === -1) {
      const elements = Number(this.collecting.readBigUInt64LE(16));
      const perElement = Number(this.collecting.readBigUInt64LE(24));
      if (elements > 2 ** 32 || perElement === 0 || perElement > 2 ** 24) {
        this.problem = `implausible header (${elements} elements of ${perElement} bytes)`;
        return;
      }
      this.elements = elements;
      this.linkCounts = 0;
      this.skip = elements * perElement;
      this.collecting = Buffer.alloc(4);
      if (elements === 0) this.done = true;
      return;
    }
    this.linkCounts++;
    this.skip = this.collecting.readUInt32LE(0);
    if (this.skip === 0 && this.linkCounts === this.elements) this.done = true;
  }

  finish(bytes: number): string | null {
    if (this.problem !== null) return this.problem;
    if (this.trailing > 0) return `${this.trailing} bytes after the end of the index`;
    if (!this.done) return `truncated: ${bytes} bytes end inside the ${this.linkCounts === -1 ? "header" : "points"}`;
    return null;
  }
}
