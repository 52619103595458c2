// A vector type's HNSW index saved beside the data: <data>/vectors/<Type>.hnsw (hnswlib's own
// format) and <Type>.meta.json, which says which LMDB state the index reflects and the SHA-256 of
// the index file. The files are a cache: they are used only when the meta matches LMDB and the
// checksum verifies, so a stale, truncated or bit-flipped file is rebuilt, never loaded (hnswlib
// trusts the sizes in its file, so an unverified file must never reach readIndex).
import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Metric } from "./metric.js";

const FILE_FORMAT = 1;

export interface IndexFileMeta {
  format: number;
  label: string;
  epoch: string;
  generation: number;
  dimension: number;
  live: number;
  metric: Metric;
  m: number;
  efConstruction: number;
  bytes: number;
  sha256: string;
}

/** What the meta must say for the files to be used: the LMDB state and the index parameters. */
export type ExpectedIndex = Omit<IndexFileMeta, "format" | "bytes" | "sha256">;

export type VerifyResult = { ok: true; indexPath: string } | { ok: false; reason: string };

export function vectorsDir(dataDir: string): string {
  return path.join(dataDir, "vectors");
}

export function indexPaths(dataDir: string, label: string): { index: string; meta: string } {
  const dir = vectorsDir(dataDir);
  return { index: path.join(dir, `${label}.hnsw`), meta: path.join(dir, `${label}.meta.json`) };
}

function sha256File(file: string): { sha256: string; bytes: number } {
  const hash = createHash("sha256");
  const fd = fs.openSync(file, "r");
  const buf = Buffer.allocUnsafe(1 << 20);
  let bytes = 0;
  try {
    for (;;) {
      const n = fs.readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      hash.update(buf.subarray(0, n));
      bytes += n;
    }
  } finally {
    fs.closeSync(fd);
  }
  return { sha256: hash.digest("hex"), bytes };
}

function fsyncPath(p: string): void {
  const fd = fs.openSync(p, "r");
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Writes a file by rename, so a crash leaves either the old file or the new one. */
function replaceFile(target: string, write: (tmp: string) => void): void {
  const tmp = `${target}.${randomUUID()}.tmp`;
  try {
    write(tmp);
    fsyncPath(tmp);
    fs.renameSync(tmp, target);
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

/**
 * Saves an index: `writeIndex` writes hnswlib's file to the path it is given. The meta is written
 * after the index, so a crash in between leaves a meta whose checksum does not match.
 */
export function saveIndexFiles(dataDir: string, expected: ExpectedIndex, writeIndex: (file: string) => void): void {
  fs.mkdirSync(vectorsDir(dataDir), { recursive: true });
  const paths = indexPaths(dataDir, expected.label);
  fs.rmSync(paths.meta, { force: true });
  replaceFile(paths.index, writeIndex);
  const meta: IndexFileMeta = { format: FILE_FORMAT, ...expected, ...sha256File(paths.index) };
  replaceFile(paths.meta, (tmp) => fs.writeFileSync(tmp, `${JSON.stringify(meta, null, 2)}\n`));
  fsyncPath(vectorsDir(dataDir));
}

export function removeIndexFiles(dataDir: string, label: string): void {
  const paths = indexPaths(dataDir, label);
  fs.rmSync(paths.meta, { force: true });
  fs.rmSync(paths.index, { force: true });
}

/** The saved meta of a type's index files, or why there is none ("missing", "corrupt meta file", ...). */
export function readIndexFileMeta(dataDir: string, label: string): IndexFileMeta | string {
  return readMeta(indexPaths(dataDir, label).meta);
}

function readMeta(file: string): IndexFileMeta | string {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? "missing" : `unreadable meta: ${(error as Error).message}`;
  }
  try {
    const meta: unknown = JSON.parse(text);
    if (typeof meta === "object" && meta !== null && !Array.isArray(meta)) return meta as IndexFileMeta;
  } catch {
    // reported below
  }
  return "corrupt meta file";
}

/** Whether the files on disk hold exactly the index LMDB expects; the reason when not. */
export function verifyIndexFiles(dataDir: string, expected: ExpectedIndex): VerifyResult {
  const paths = indexPaths(dataDir, expected.label);
  const meta = readMeta(paths.meta);
  if (typeof meta === "string") return { ok: false, reason: meta };
  if (meta.format !== FILE_FORMAT) return { ok: false, reason: `unknown file format ${String(meta.format)}` };
  for (const key of Object.keys(expected) as (keyof ExpectedIndex)[]) {
    if (meta[key] !== expected[key]) {
      const stale = key === "generation" || key === "epoch" || key === "live";
      return {
        ok: false,
        reason: `${stale ? "stale" : "different parameters"}: ${key} is ${String(meta[key])} in the file, ${String(expected[key])} expected`,
      };
    }
  }
  let actual: { sha256: string; bytes: number };
  try {
    actual = sha256File(paths.index);
  } catch (error) {
    return {
      ok: false,
      reason: (error as NodeJS.ErrnoException).code === "ENOENT" ? "missing" : `unreadable index: ${(error as Error).message}`,
    };
  }
  if (actual.bytes !== meta.bytes || actual.sha256 !== meta.sha256) return { ok: false, reason: "corrupt: checksum mismatch" };
  return { ok: true, indexPath: paths.index };
}
