// `strand restore`: a backup (backup.ts, manifest.ts) into a new data directory.
//
// The directory must be absent or empty, and is locked (dir-lock.ts) for the restore, so a
// server cannot start on it meanwhile. Each file is copied under a temporary name while its
// SHA-256 is computed, compared with the manifest, fsynced and only then renamed: a damaged
// backup is refused with the directory left as it was, and an interrupted restore leaves no
// data.mdb: a store does not open on what it left (data-file-check.ts), and restoring into it
// again replaces those files. The vector indexes are rebuilt from LMDB by the restored store's first open.
import fs from "node:fs";
import path from "node:path";
import { silentProgress, type ProgressSink } from "../../core/progress.js";
import { DirectoryLockedError, LOCK_FILE, lockDirectory } from "../store/dir-lock.js";
import { FORMAT_VERSION, MIGRATABLE_FORMATS } from "../store/keys.js";
import { fsyncPath, hashFile } from "./files.js";
import { BACKUP_DATA_FILE, readManifest, type BackupManifest } from "./manifest.js";
import { dataFileProblem, RESTORING_SUFFIX } from "../store/data-file-check.js";
import { DERIVED_ENTRIES } from "../store/derived-files.js";

export type RestoreErrorCode = "NOT_A_BACKUP" | "UNSUPPORTED" | "DAMAGED" | "NOT_EMPTY" | "LOCKED";

export type RestoreOutcome = { ok: true; manifest: BackupManifest } | { ok: false; code: RestoreErrorCode; message: string };

export function restoreBackup(backupDir: string, dataDir: string, progress: ProgressSink = silentProgress): RestoreOutcome {
  if (!isDirectory(backupDir)) return { ok: false, code: "NOT_A_BACKUP", message: `${backupDir} is not a backup directory` };
  const manifest = readManifest(backupDir);
  if (typeof manifest === "string") return { ok: false, code: "NOT_A_BACKUP", message: manifest };
  // An older format restores as it is: the first open migrates it (runtime/format/format-migration.ts).
  if (manifest.store_format !== FORMAT_VERSION && !MIGRATABLE_FORMATS.includes(manifest.store_format))
    return {
      ok: false,
      code: "UNSUPPORTED",
      message: `${backupDir} holds a store of format ${manifest.store_format}; this Strand reads format ${FORMAT_VERSION}`,
    };
  for (const f of manifest.files) {
    const size = sizeOf(path.join(backupDir, f.path));
    if (size !== f.bytes)
      return {
        ok: false,
        code: "DAMAGED",
        message: `${path.join(backupDir, f.path)} is ${size === null ? "missing" : `${size} bytes`}, the manifest says ${f.bytes}: the backup is damaged`,
      };
  }
  const existed = fs.existsSync(dataDir);
  const lockFile = path.join(dataDir, LOCK_FILE);
  const lockExisted = fs.existsSync(lockFile);
  let unlock: () => void;
  try {
    unlock = lockDirectory(dataDir);
  } catch (error) {
    if (error instanceof DirectoryLockedError) return { ok: false, code: "LOCKED", message: error.message };
    throw error;
  }
  let restored = false;
  let copying = false;
  try {
    const present = fs.readdirSync(dataDir).filter((name) => name !== LOCK_FILE && !DERIVED_ENTRIES.has(name));
    // What an interrupted restore left (and nothing else) is replaced: restoring again is the way out.
    if (present.length > 0 && present.every((name) => name.endsWith(RESTORING_SUFFIX))) {
      for (const name of present) fs.rmSync(path.join(dataDir, name), { force: true });
      present.length = 0;
    }
    if (present.length > 0)
      return {
        ok: false,
        code: "NOT_EMPTY",
        message: `${dataDir} is not empty (it holds ${present.slice(0, 3).join(", ")}${present.length > 3 ? ", ..." : ""}); restore into a new or empty directory`,
      };
    copying = true;
    const damaged = copyFiles(backupDir, dataDir, manifest, progress);
    if (damaged !== null) return { ok: false, code: "DAMAGED", message: damaged };
    restored = true;
    return { ok: true, manifest };
  } finally {
    // Only the files this restore wrote: a refused one leaves another restore's as they were.
    if (copying && !restored) for (const f of manifest.files) fs.rmSync(path.join(dataDir, f.path + RESTORING_SUFFIX), { force: true });
    // A refused restore leaves a directory it did not create as it was: without a lock file it
    // made there (removed while still held, so no other process holds the file it removes).
    if (!restored && existed && !lockExisted) fs.rmSync(lockFile, { force: true });
    unlock();
    // A directory this restore created and could not fill is removed again.
    if (!restored && !existed) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Copies and checks every file; null when all match the manifest, else what does not. */
function copyFiles(backupDir: string, dataDir: string, manifest: BackupManifest, progress: ProgressSink): string | null {
  const total = manifest.files.reduce((sum, f) => sum + f.bytes, 0);
  const task = progress.start("restore", "bytes", total);
  for (const f of manifest.files) {
    const target = path.join(dataDir, f.path + RESTORING_SUFFIX);
    const copied = hashFile(path.join(backupDir, f.path), task, target);
    if (copied.sha256 !== f.sha256 || copied.bytes !== f.bytes)
      return `${path.join(backupDir, f.path)} does not match its SHA-256 in the manifest: the backup is damaged`;
    // Matching a manifest made for it does not make it a whole data file (one cut short before
    // its manifest was written): checked before the restore says it restored anything.
    const found = f.path === BACKUP_DATA_FILE ? dataFileProblem(target) : null;
    if (found !== null) return `${path.join(backupDir, f.path)} ${found.problem}: the backup is damaged; restore another one`;
  }
  // Every file checked: only now do they take their names.
  for (const f of manifest.files) fs.renameSync(path.join(dataDir, f.path + RESTORING_SUFFIX), path.join(dataDir, f.path));
  fsyncPath(dataDir);
  task.finish();
  return null;
}

function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function sizeOf(file: string): number | null {
  try {
    return fs.statSync(file).size;
  } catch {
    return null;
  }
}
