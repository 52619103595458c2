// One process at a time per data directory. LMDB itself would allow several, but the read cache
// (read-cache.ts) is only correct when every write goes through this process. The lock is a file
// holding the owner's pid; a lock left by a process that no longer exists (kill -9) is taken over.
import fs from "node:fs";
import path from "node:path";

export const LOCK_FILE = "strand.lock";

/** Directories locked by this process, so a second GraphStore here is refused too. */
const lockedHere = new Set<string>();

export class DirectoryLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(
      `data directory ${dir} is in use by process ${pid}; stop that server first (or, if no Strand process is running, delete ${path.join(dir, LOCK_FILE)})`,
    );
    this.name = "DirectoryLockedError";
  }
}

/** Takes the lock of `dir` (created if missing); returns the function that releases it. */
export function lockDirectory(dir: string): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const real = fs.realpathSync(dir);
  if (lockedHere.has(real)) throw new DirectoryLockedError(dir, process.pid);
  const file = path.join(real, LOCK_FILE);
  for (;;) {
    try {
      fs.writeFileSync(file, `${process.pid}\n`, { flag: "wx" });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const owner = Number.parseInt(readOrEmpty(file), 10);
    if (Number.isInteger(owner) && owner !== process.pid && isAlive(owner)) throw new DirectoryLockedError(dir, owner);
    // Stale (its process is gone) or unreadable: remove it and try again.
    fs.rmSync(file, { force: true });
  }
  lockedHere.add(real);
  return () => {
    lockedHere.delete(real);
    if (readOrEmpty(file).trim() === String(process.pid)) fs.rmSync(file, { force: true });
  };
}

function readOrEmpty(file: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
