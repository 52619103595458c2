// Streaming file work for backups: hashing (and copying while hashing) in fixed-size chunks, so
// memory stays flat in the store's size, with progress in bytes; and the fsyncs that make a
// rename durable.
import { createHash } from "node:crypto";
import fs from "node:fs";
import type { ProgressTask } from "../../core/progress.js";

const CHUNK_BYTES = 4 * 1024 * 1024;

/**
 * SHA-256 (hex) and size of `source`; when `target` is given the bytes are also written there
 * (created, never overwritten) and the copy is fsynced before this returns.
 */
export function hashFile(source: string, task: ProgressTask, target?: string): { bytes: number; sha256: string } {
  const hash = createHash("sha256");
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  const input = fs.openSync(source, "r");
  let output: number | undefined;
  let bytes = 0;
  try {
    if (target !== undefined) output = fs.openSync(target, "wx");
    for (;;) {
      const n = fs.readSync(input, buffer, 0, CHUNK_BYTES, null);
      if (n === 0) break;
      const chunk = buffer.subarray(0, n);
      hash.update(chunk);
      if (output !== undefined) writeAll(output, chunk);
      bytes += n;
      task.advance(n);
    }
    if (output !== undefined) fs.fsyncSync(output);
  } finally {
    fs.closeSync(input);
    if (output !== undefined) fs.closeSync(output);
  }
  return { bytes, sha256: hash.digest("hex") };
}

function writeAll(fd: number, chunk: Buffer): void {
  let written = 0;
  while (written < chunk.length) written += fs.writeSync(fd, chunk, written, chunk.length - written);
}

/** Writes `text` to a new file and fsyncs it. */
export function writeFileDurably(file: string, text: string): void {
  const fd = fs.openSync(file, "wx");
  try {
    writeAll(fd, Buffer.from(text, "utf8"));
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** fsync of a file or directory (a directory's, so the names created or renamed in it survive a crash). */
export function fsyncPath(p: string): void {
  const fd = fs.openSync(p, "r");
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
