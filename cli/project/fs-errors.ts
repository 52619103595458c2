// Ordinary file-system failures (a file where a directory should be, no permission, a read-only
// or full disk, ...) are the user's to fix, not bugs: every command lets them propagate, and
// `strand.ts` prints them as one line naming the path (`strand: cannot write to out: it is a
// file`), exit 1, instead of "unexpected failure" and a stack.
import { statSync } from "node:fs";
import { dirname } from "node:path";
import { displayPath } from "./sources.js";

const FS_CODES = new Set([
  "EEXIST",
  "ENOTDIR",
  "EACCES",
  "EPERM",
  "ENOENT",
  "EISDIR",
  "EROFS",
  "ENOSPC",
  "EDQUOT",
  "ENAMETOOLONG",
  "ELOOP",
  "EMFILE",
  "ENFILE",
  "EBUSY",
  "EIO",
]);

/** System calls that only read; anything else writes (mkdir, copyfile, write, rename, rm, ...). */
const READING_CALLS = new Set(["scandir", "opendir", "read", "stat", "lstat", "fstat", "readlink", "access", "realpath"]);

/** A Node file-system error with the path it concerns, as Node throws it from node:fs. */
export function isFsError(error: unknown): error is NodeJS.ErrnoException & { code: string; path: string } {
  if (!(error instanceof Error)) return false;
  const e = error as NodeJS.ErrnoException;
  return typeof e.code === "string" && FS_CODES.has(e.code) && typeof e.path === "string" && typeof e.syscall === "string";
}

/** Why a file-system call failed, in words (`it is a file`, `permission denied`, ...). */
export function fsErrorReason(error: NodeJS.ErrnoException & { code: string; path: string }): string {
  const path = error.path;
  switch (error.code) {
    case "EEXIST":
      return kindOf(path) === "file" ? "it is a file" : "it already exists";
    case "ENOTDIR": {
      if (kindOf(path) === "file") return "it is a file";
      const blocker = nonDirectoryAncestor(path);
      return blocker === null ? "a part of the path is not a directory" : `${displayPath(blocker)} is not a directory`;
    }
    case "EISDIR":
      return "it is a directory";
    case "ENOENT":
      return "no such file or directory";
    case "EACCES":
    case "EPERM":
      return "permission denied";
    case "EROFS":
      return "the file system is read-only";
    case "ENOSPC":
      return "no space left on the device";
    case "EDQUOT":
      return "the disk quota is exceeded";
    case "ENAMETOOLONG":
      return "the name is too long";
    case "ELOOP":
      return "too many levels of symbolic links";
    case "EMFILE":
    case "ENFILE":
      return "too many open files";
    case "EBUSY":
      return "it is busy";
    default:
      return "an input/output error";
  }
}

/** The one-line message for a file-system error: `cannot write to out: it is a file`. */
export function fsErrorMessage(error: NodeJS.ErrnoException & { code: string; path: string }): string {
  const syscall = error.syscall ?? "";
  // copyfile names the source as path and the target as dest: a missing source is a read failure.
  const dest = (error as { dest?: unknown }).dest;
  if (syscall === "copyfile" && typeof dest === "string" && !(error.code === "ENOENT" && kindOf(error.path) === "none")) {
    return `cannot write to ${displayPath(dest)}: ${fsErrorReason({ ...error, path: dest, code: error.code, message: error.message, name: error.name })}`;
  }
  const verb = READING_CALLS.has(syscall) ? "cannot read" : syscall === "open" ? "cannot open" : "cannot write to";
  return `${verb} ${displayPath(error.path)}: ${fsErrorReason(error)}`;
}

function kindOf(path: string): "file" | "directory" | "none" {
  try {
    return statSync(path).isDirectory() ? "directory" : "file";
  } catch {
    return "none";
  }
}

/** The nearest ancestor of path that exists and is not a directory (`/dev/null` for `/dev/null/x`). */
function nonDirectoryAncestor(path: string): string | null {
  for (let p = dirname(path); p !== dirname(p); p = dirname(p)) {
    const kind = kindOf(p);
    if (kind === "file") return p;
    if (kind === "directory") return null;
  }
  return null;
}
