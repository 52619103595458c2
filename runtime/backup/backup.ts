// `strand backup`: a consistent copy of a data directory, safe while a server is writing to it.
//
// LMDB copies the environment from one read transaction (mdb_env_copy2, through lmdb-js's
// `backup`; not compacted: see copyStore), opened in this process alongside the server: readers never block the
// writer, and the snapshot holds exactly the transactions committed when it began. Every write a
// server acknowledged before the backup started was committed (and flushed) before it
// acknowledged it, so it is in the copy; a query's writes are one transaction, so none is in by
// halves. The copy goes to `<out>.partial-<pid>`, then its SHA-256 and the manifest
// (manifest.ts) are written and fsynced, and only then is the directory renamed to `<out>`.
// test/backup-online.test.ts takes one while a `strand serve` child writes: every write
// acknowledged before it started is restored, none by halves, and the store verifies.
import fs from "node:fs";
import path from "node:path";
import type { RootDatabase } from "lmdb";
import { silentProgress, type ProgressSink } from "../../core/progress.js";
import { openReadOnlyAlongsideWriter, type SharedReadEnv } from "../store/shared-read-env.js";
import { fsyncPath, hashFile, writeFileDurably } from "./files.js";
import { makeDirs } from "../store/make-dirs.js";
import { isInsideDir } from "../store/inside-dir.js";
import { BACKUP_DATA_FILE, BACKUP_FORMAT, BACKUP_FORMAT_VERSION, MANIFEST_FILE, type BackupManifest } from "./manifest.js";

export type BackupErrorCode = "NOT_A_STORE" | "EXISTS" | "INSIDE_DATA" | "FAILED";

export type BackupOutcome = { ok: true; dir: string; manifest: BackupManifest } | { ok: false; code: BackupErrorCode; message: string };

const POLL_MS = 200;

export async function backupDataDir(dataDir: string, out: string, progress: ProgressSink = silentProgress): Promise<BackupOutcome> {
  if (!fs.existsSync(path.join(dataDir, BACKUP_DATA_FILE)))
    return { ok: false, code: "NOT_A_STORE", message: `${dataDir} holds no Strand data (no ${BACKUP_DATA_FILE})` };
  if (fs.existsSync(out)) return { ok: false, code: "EXISTS", message: `${out} already exists; back up to a new name` };
  if (isInsideDir(out, dataDir))
    return { ok: false, code: "INSIDE_DATA", message: `${out} is inside the data directory ${dataDir}; back up to a directory outside it` };
  let store: SharedReadEnv;
  try {
    store = openReadOnlyAlongsideWriter(dataDir);
  } catch (error) {
    // Its messages name the directory already (read-only.ts, shared-read-env.ts).
    return { ok: false, code: "FAILED", message: (error as Error).message };
  }
  try {
    return await writeBackup(store, out, progress);
  } finally {
    await store.env.close();
  }
}

/**
 * A backup of the open environment `store.env` (this process's own store, or a reader opened
 * alongside the server) to the new directory `out`, through `<out>.partial-<pid>`.
 */
export async function writeBackup(store: SharedReadEnv, out: string, progress: ProgressSink = silentProgress): Promise<BackupOutcome> {
  if (fs.existsSync(out)) return { ok: false, code: "EXISTS", message: `${out} already exists; back up to a new name` };
  makeDirs(path.dirname(path.resolve(out)));
  const partial = partialBackupPath(out);
  fs.rmSync(partial, { recursive: true, force: true });
  fs.mkdirSync(partial);
  try {
    const created = await copyStore(store.env, partial, progress);
    if (typeof created !== "string") return { ok: false, code: "FAILED", message: created.failed };
    const hashTask = progress.start("backup: checksum", "bytes", fs.statSync(path.join(partial, BACKUP_DATA_FILE)).size);
    const { bytes, sha256 } = hashFile(path.join(partial, BACKUP_DATA_FILE), hashTask);
    hashTask.finish();
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      version: BACKUP_FORMAT_VERSION,
      created,
      store_format: store.format,
      schema_version: store.schemaVersion,
      files: [{ path: BACKUP_DATA_FILE, bytes, sha256 }],
    };
    writeFileDurably(path.join(partial, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
    fsyncPath(partial);
    if (fs.existsSync(out)) return { ok: false, code: "EXISTS", message: `${out} appeared while backing up; back up to a new name` };
    fs.renameSync(partial, out);
    fsyncPath(path.dirname(path.resolve(out)));
    return { ok: true, dir: out, manifest };
  } finally {
    // Gone after the rename; otherwise an unfinished copy that must not be taken for a backup.
    fs.rmSync(partial, { recursive: true, force: true });
  }
}

/** Where a backup to `out` is written until it is whole (the CLI removes it when interrupted). */
export function partialBackupPath(out: string): string {
  return `${out}.partial-${process.pid}`;
}

/**
 * LMDB's copy of `env` into `target/data.mdb`, with progress from the copy's growing size; the
 * time its snapshot was taken (RFC 3339), or why it failed. Page for page, free pages included:
 * a store opened from lmdb-js's compacting copy aborted the process (mdb.c `mdb_page_alloc`:
 * "Assertion 'key.mv_size > 0' failed") the first time it freed many overflow pages, as trimming
 * a commit log of large entries does, so every restored store and seeded replica crashed about
 * 30 s after opening (test/backup-restore-trim.test.ts).
 */
async function copyStore(env: RootDatabase, target: string, progress: ProgressSink): Promise<string | { failed: string }> {
  const stats = env.getStats() as { lastPageNumber?: number; pageSize?: number };
  const total =
    stats.lastPageNumber !== undefined && stats.pageSize !== undefined ? (stats.lastPageNumber + 1) * stats.pageSize : undefined;
  const task = progress.start("backup: copy", "bytes", total);
  const file = path.join(target, BACKUP_DATA_FILE);
  let reported = 0;
  const report = (): void => {
    const size = sizeOf(file);
    if (size > reported) task.advance(size - reported);
    reported = Math.max(reported, size);
  };
  const poll = setInterval(report, POLL_MS);
  const created = new Date().toISOString();
  try {
    await env.backup(target, false);
  } catch (error) {
    return { failed: `copying the store failed: ${(error as Error).message}` };
  } finally {
    clearInterval(poll);
  }
  report();
  task.finish();
  return created;
}

function sizeOf(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}
