// How many more bytes the data directory can take: the free space of its file system, and on
// Linux the process's file size limit (RLIMIT_FSIZE, `ulimit -f`) less the size of data.mdb.
// Used before opening a store (LMDB maps its lock file sparse, so creating one on a full disk
// ends in SIGBUS rather than an error) and to tell "full" from other I/O errors when a commit fails.
import fs from "node:fs";
import path from "node:path";

/** Less room than this and a store is not opened: lock file, meta pages and the first growth of the map. */
export const MIN_FREE_BYTES_TO_OPEN = 1024 * 1024;

export interface StorageRoom {
  bytes: number;
  /** What sets `bytes`: the file system's free space or the file size limit. */
  limitedBy: "free disk space" | "file size limit";
}

/** The room left for `dir`'s data file, or null when it cannot be measured (then nothing is refused on its account). */
export function storageRoom(dir: string): StorageRoom | null {
  let free: number;
  try {
    const stats = fs.statfsSync(dir);
    free = stats.bavail * stats.bsize;
  } catch {
    return null;
  }
  const limit = fileSizeLimit();
  if (limit !== null) {
    const underLimit = Math.max(0, limit - fileSize(path.join(dir, "data.mdb")));
    if (underLimit < free) return { bytes: underLimit, limitedBy: "file size limit" };
  }
  return { bytes: free, limitedBy: "free disk space" };
}

/** Refuses (a one-line reason) to open a store where there is no room for it to start; null when there is. */
export function tooFullToOpen(dir: string): string | null {
  const room = storageRoom(dir);
  if (room === null || room.bytes >= MIN_FREE_BYTES_TO_OPEN) return null;
  return `no room to open the store: ${describeRoom(room)}, and Strand needs at least ${formatBytes(MIN_FREE_BYTES_TO_OPEN)}; free some space and start again`;
}

export function describeRoom(room: StorageRoom): string {
  return `${formatBytes(room.bytes)} left (${room.limitedBy})`;
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, "")} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1).replace(/\.0$/, "")} KiB`;
  return `${bytes} bytes`;
}

function fileSize(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

/** The soft RLIMIT_FSIZE in bytes, read from /proc (Linux); null when unlimited or unknown. */
function fileSizeLimit(): number | null {
  let limits: string;
  try {
    limits = fs.readFileSync("/proc/self/limits", "utf8");
  } catch {
    return null;
  }
  const match = /^Max file size\s+(\S+)/m.exec(limits);
  if (match === null || match[1] === "unlimited") return null;
  const bytes = Number(match[1]);
  return Number.isFinite(bytes) ? bytes : null;
}
