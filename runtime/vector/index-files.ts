// A vector type's HNSW checkpoint beside the data: <data>/vectors/<Type>.<generation>-<tag>.hnsw
// (hnswlib's own format) and <Type>.meta.json, which names that file, says which LMDB state
// (epoch, generation) and parameters it reflects, and holds the SHA-256 and size of the file as
// read back from disk after it was written. The files are a cache: they are used only when the
// epoch and parameters match LMDB and the checksum and structure verify (hnswlib trusts the sizes
// in its file, so an unverified file must never reach readIndex); the open then replays the
// changes logged in LMDB after the checkpoint's generation (index-load.ts).
//
// Saving never breaks the previous checkpoint: the new index gets a new name (temp name, fsync,
// read back and checked, rename), then the meta is replaced by rename, then the old index file is
// deleted. A crash at any point leaves the old pair or the new pair, both valid.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { inspectIndexFile } from "./hnsw-file.js";
import type { Metric } from "./metric.js";
import { makeDirs } from "../store/make-dirs.js";

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
  /** The index file's name in the vectors directory (absent in files written before checkpoints: `<Type>.hnsw`). */
  file?: string;
  /** Points in the file, deleted ones included. */
  elements?: number;
  bytes: number;
  sha256: string;
}

/** What the meta must say for the files to be used at all: the store's epoch and the index parameters. */
export type IndexIdentity = Pick<IndexFileMeta, "label" | "epoch" | "dimension" | "metric" | "m" | "efConstruction">;

/** What a checkpoint being saved reflects: its identity plus the generation and live count of the index. */
export type SavedState = IndexIdentity & Pick<IndexFileMeta, "generation" | "live">;

export type VerifyResult = { ok: true; indexPath: string; generation: number; live: number } | { ok: false; reason: string };

/** A failed save, with the cause's errno code (ENOSPC, EFBIG, EIO, ...) when one is known. */
export class IndexSaveError extends Error {
  constructor(
    message: string,
    readonly code: string | null,
  ) {
    super(message);
    this.name = "IndexSaveError";
  }
}

export function vectorsDir(dataDir: string): string {
  return path.join(dataDir, "vectors");
}

/** The meta file, and the index file it names (or the pre-checkpoint name when there is none). */
export function indexPaths(dataDir: string, label: string): { index: string; meta: string } {
  const dir = vectorsDir(dataDir);
  const meta = path.join(dir, `${label}.meta.json`);
  const saved = readMeta(meta);
  const file = typeof saved !== "string" && typeof saved.file === "string" ? saved.file : `${label}.hnsw`;
  return { index: path.join(dir, path.basename(file)), meta };
}

function fsyncPath(p: string): void {
  const fd = fs.openSync(p, "r");
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

function errnoOf(error: unknown): string | null {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === "string" ? code : null;
}

/**
 * hnswlib left no file or a short one without saying why. Writing the missing bytes ourselves
 * surfaces the operating system's reason (ENOSPC on a full disk, EFBIG past RLIMIT_FSIZE).
 */
function causeOfShortWrite(tmp: string, what: string): IndexSaveError {
  try {
    const fd = fs.openSync(tmp, "a");
    try {
      fs.writeSync(fd, Buffer.alloc(64 * 1024));
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch (error) {
    const code = errnoOf(error);
    return new IndexSaveError(`${what}: ${code ?? "write failed"} (${(error as Error).message})`, code);
  }
  return new IndexSaveError(`${what}, though the disk accepts writes again now`, null);
}

/**
 * Saves a checkpoint: `writeIndex` writes hnswlib's file to the path it is given; `elements` is
 * how many points (deleted ones included) the index holds, which the file must contain. Throws
 * IndexSaveError naming the real cause; the previous checkpoint then stays in place.
 */
export function saveIndexFiles(dataDir: string, state: SavedState, elements: number, writeIndex: (file: string) => void): void {
  const dir = vectorsDir(dataDir);
  const step = <T>(what: string, fn: () => T): T => {
    try {
      return fn();
    } catch (error) {
      if (error instanceof IndexSaveError) throw error;
      throw new IndexSaveError(`${what}: ${(error as Error).message}`, errnoOf(error));
    }
  };
  step(`creating ${dir}`, () => makeDirs(dir));
  const paths = indexPaths(dataDir, state.label);
  const file = `${state.label}.${state.generation}-${randomBytes(4).toString("hex")}.hnsw`;
  const target = path.join(dir, file);
  const tmp = `${target}.tmp`;
  const metaTmp = `${paths.meta}.tmp`;
  try {
    step(`writing ${tmp}`, () => writeIndex(tmp));
    if (!fs.existsSync(tmp)) throw causeOfShortWrite(tmp, `hnswlib wrote no file ${tmp}`);
    step(`syncing ${tmp}`, () => fsyncPath(tmp));
    const written = step(`reading back ${tmp}`, () => inspectIndexFile(tmp));
    if (written.problem !== null) throw causeOfShortWrite(tmp, `hnswlib wrote a bad index file ${tmp} (${written.problem})`);
    if (written.elements !== elements)
      throw new IndexSaveError(`${tmp} holds ${String(written.elements)} points, the index ${elements}`, null);
    step(`renaming ${tmp}`, () => fs.renameSync(tmp, target));
    const meta: IndexFileMeta = { format: FILE_FORMAT, ...state, file, elements, bytes: written.bytes, sha256: written.sha256 };
    const text = `${JSON.stringify(meta, null, 2)}\n`;
    step(`writing ${metaTmp}`, () => {
      fs.writeFileSync(metaTmp, text);
      fsyncPath(metaTmp);
      if (fs.readFileSync(metaTmp, "utf8") !== text) throw new Error("read back differs from what was written");
    });
    step(`renaming ${metaTmp}`, () => fs.renameSync(metaTmp, paths.meta));
    step(`syncing ${dir}`, () => fsyncPath(dir));
  } catch (error) {
    fs.rmSync(tmp, { force: true });
    fs.rmSync(metaTmp, { force: true });
    if (indexPaths(dataDir, state.label).index !== target) fs.rmSync(target, { force: true });
    throw error;
  }
  removeOtherIndexFiles(dataDir, state.label, file);
}

/** Deletes the type's index files other than `keep` (older checkpoints, leftovers of failed saves). */
function removeOtherIndexFiles(dataDir: string, label: string, keep: string | null): void {
  let names: string[];
  try {
    names = fs.readdirSync(vectorsDir(dataDir));
  } catch {
    return;
  }
  for (const name of names) {
    if (name === keep) continue;
    if (name === `${label}.hnsw` || (name.startsWith(`${label}.`) && /^\d+-[0-9a-f]+\.hnsw(\.tmp)?$/.test(name.slice(label.length + 1))))
      fs.rmSync(path.join(vectorsDir(dataDir), name), { force: true });
  }
}

export function removeIndexFiles(dataDir: string, label: string): void {
  fs.rmSync(indexPaths(dataDir, label).meta, { force: true });
  removeOtherIndexFiles(dataDir, label, null);
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
    return errnoOf(error) === "ENOENT" ? "missing" : `unreadable meta: ${(error as Error).message}`;
  }
  try {
    const meta: unknown = JSON.parse(text);
    if (typeof meta === "object" && meta !== null && !Array.isArray(meta)) return meta as IndexFileMeta;
  } catch {
    // reported below
  }
  return "corrupt meta file";
}

/**
 * Whether the files on disk hold an intact index of this store with these parameters (at the
 * generation it returns, which may be behind LMDB's); the reason when not.
 */
export function verifyIndexFiles(dataDir: string, expected: IndexIdentity): VerifyResult {
  const paths = indexPaths(dataDir, expected.label);
  const meta = readMeta(paths.meta);
  if (typeof meta === "string") return { ok: false, reason: meta };
  if (meta.format !== FILE_FORMAT) return { ok: false, reason: `unknown file format ${String(meta.format)}` };
  for (const key of Object.keys(expected) as (keyof IndexIdentity)[]) {
    if (meta[key] !== expected[key]) {
      const stale = key === "epoch";
      return {
        ok: false,
        reason: `${stale ? "stale" : "different parameters"}: ${key} is ${String(meta[key])} in the file, ${String(expected[key])} expected`,
      };
    }
  }
  if (!Number.isSafeInteger(meta.generation) || !Number.isSafeInteger(meta.live)) return { ok: false, reason: "corrupt meta file" };
  let actual: ReturnType<typeof inspectIndexFile>;
  try {
    actual = inspectIndexFile(paths.index);
  } catch (error) {
    return { ok: false, reason: errnoOf(error) === "ENOENT" ? "missing" : `unreadable index: ${(error as Error).message}` };
  }
  if (actual.bytes !== meta.bytes || actual.sha256 !== meta.sha256) return { ok: false, reason: "corrupt: checksum mismatch" };
  // A file saved before read-back verification may be truncated with a matching checksum.
  if (actual.problem !== null) return { ok: false, reason: `corrupt: ${actual.problem}` };
  if (meta.elements !== undefined && actual.elements !== meta.elements)
    return { ok: false, reason: `corrupt: ${String(actual.elements)} points in the file, ${meta.elements} in its meta` };
  return { ok: true, indexPath: paths.index, generation: meta.generation, live: meta.live };
}
