// One process at a time per data directory. LMDB itself would allow several, but the read cache
// (read-cache.ts) is only correct when every write goes through this process. The lock is an
// OS-level exclusive lock on the open file `strand.lock` (fs-native-extensions: an OFD lock on
// Linux, flock elsewhere): the kernel grants it to exactly one open file at a time, so racing
// starts cannot both win, and it dies with its process, so a kill -9 leaves no stale lock. The
// file also holds the owner's pid, only to name it in the message; it is never deleted (a
// process may be waiting on the old file while a new one is created: two holders).
import fs from "node:fs";
import path from "node:path";
import { tryLock } from "fs-native-extensions";
import { makeDirs } from "./make-dirs.js";

export const LOCK_FILE = "strand.lock";

export class DirectoryLockedError extends Error {
  constructor(
    readonly dir: string,
    /** The holder's pid as it recorded it; null when it has not yet (or could not). */
    readonly pid: number | null,
  ) {
    super(`data directory ${dir} is in use by ${pid === null ? "another process" : `process ${pid}`}; stop that server first`);
    this.name = "DirectoryLockedError";
  }
}

/** Takes the lock of `dir` (created if missing) or throws DirectoryLockedError; returns the function that releases it. */
export function lockDirectory(dir: string): () => void {
  makeDirs(dir);
  const file = path.join(dir, LOCK_FILE);
  const fd = fs.openSync(file, fs.constants.O_RDWR | fs.constants.O_CREAT, 0o644);
  let locked: boolean;
  try {
    locked = tryLock(fd);
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
  if (!locked) {
    const owner = recordedOwner(fd);
    fs.closeSync(fd);
    throw new DirectoryLockedError(dir, owner);
  }
  recordOwner(fd);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    try {
      fs.ftruncateSync(fd, 0);
    } catch {
      // the pid is only for messages
    } finally {
      fs.closeSync(fd); // closing the file releases the lock
    }
  };
}

/** Writes this process's pid into the lock file; a full disk only costs the message its pid. */
function recordOwner(fd: number): void {
  try {
    fs.ftruncateSync(fd, 0);
    fs.writeSync(fd, `${process.pid}\n`, 0);
  } catch {
    // ENOSPC, EFBIG: the lock is held all the same
  }
}

function recordedOwner(fd: number): number | null {
  try {
    const buffer = Buffer.alloc(32);
    const length = fs.readSync(fd, buffer, 0, buffer.length, 0);
    const pid = Number.parseInt(buffer.toString("utf8", 0, length), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}
