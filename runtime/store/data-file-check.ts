// Refusing a data.mdb that LMDB would map and then fault on. LMDB maps the file and trusts its
// meta page: a file cut short (an interrupted copy, a full disk during a restore by hand) makes
// the first read past its end a SIGBUS, which kills the process with no message. So before
// opening, the newer of the two meta pages is read and the file must hold the root pages it
// names (of the free-page and the main B-tree, which the open reads first). A file of 0 bytes
// would open as an empty database: refused as well.
//
// Not the meta's "last page": LMDB counts pages a transaction allocated and freed again without
// writing them, so a healthy file may end before it. A root page is always written before the
// meta that names it. A cut that spares both roots is not caught here (verify reads every page).
//
// LMDB's meta page (lmdb-js's LMDB): a page header of 24 bytes (page number, txn id, pad,
// flags, lower, upper), then MDB_meta: magic 0xBEEFC0DE (u32), version (u32), address (u64),
// map size (u64), two MDB_db of 48 bytes each (pad u32, flags u16, depth u16, then five u64:
// branch, leaf and overflow pages, entries, root; the first one's pad is the page size), then
// the last page used (u64) and the transaction id (u64). A file whose first page has no LMDB
// header (another file, or damage) is refused too: LMDB would crash on it (a segfault, not an error).
import { closeSync, existsSync, fstatSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import { StrandError } from "../../core/errors.js";

const MAGIC = 0xbeefc0de;
const HEADER = 24;
const DBS_AT = HEADER + 24;
const DB_BYTES = 48;
const ROOT_IN_DB = 40;
const TXN_ID_AT = DBS_AT + 2 * DB_BYTES + 8;
const META_BYTES = TXN_ID_AT + 8;
/** An empty B-tree's root. */
const NO_PAGE = 0xffffffffffffffffn;

interface Meta {
  pageSize: number;
  /** The highest root page of the free-page and main B-trees (-1: both empty). */
  topRoot: number;
  txnId: number;
}

function readMeta(fd: number, at: number, size: number): Meta | null {
  if (at + META_BYTES > size) return null;
  const bytes = Buffer.alloc(META_BYTES);
  if (readSync(fd, bytes, 0, META_BYTES, at) !== META_BYTES) return null;
  if (bytes.readUInt32LE(HEADER) !== MAGIC) return null;
  const pageSize = bytes.readUInt32LE(DBS_AT);
  // Page sizes are powers of two between 512 bytes and 64 KiB.
  if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) return null;
  let topRoot = -1;
  for (let db = 0; db < 2; db++) {
    const root = bytes.readBigUInt64LE(DBS_AT + db * DB_BYTES + ROOT_IN_DB);
    if (root !== NO_PAGE) topRoot = Math.max(topRoot, Number(root));
  }
  return { pageSize, topRoot, txnId: Number(bytes.readBigUInt64LE(TXN_ID_AT)) };
}

/** The suffix of a file `strand restore` is still copying (runtime/backup/restore.ts). */
export const RESTORING_SUFFIX = ".restoring";

/**
 * Throws STORAGE_CORRUPT when `dir`'s data.mdb is empty, has no LMDB header, or ends before its
 * meta pages or roots (dataFileProblem), or when `dir` holds an unfinished restore instead; a
 * missing file is a new store.
 */
export function refuseDamagedDataFile(dir: string): void {
  const file = join(dir, "data.mdb");
  // Opened as it is, a directory whose restore was interrupted (by kill -9, a crash) is a new,
  // empty store: the restored data would silently be missing.
  if (!existsSync(file) && existsSync(file + RESTORING_SUFFIX)) {
    throw new StrandError(
      "STORAGE_CORRUPT",
      `${dir} holds an unfinished restore (${file + RESTORING_SUFFIX}), not a store: run strand restore into it again (it replaces the unfinished files)`,
    );
  }
  const found = dataFileProblem(file);
  if (found !== null) throw new StrandError("STORAGE_CORRUPT", `${file} ${found.problem}: ${found.advice}`);
}

/**
 * What is wrong with the LMDB data file `file` that LMDB itself would crash on or misread (a
 * sentence starting after the file's name, and what to do about it in a data directory), or null
 * (also for a missing file: a new store).
 */
export function dataFileProblem(file: string): { problem: string; advice: string } | null {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    return null; // no data file yet (a new store), or one LMDB will name the problem of
  }
  try {
    const first = readMeta(fd, 0, fstatSync(fd).size);
    const second = first === null ? null : readMeta(fd, first.pageSize, fstatSync(fd).size);
    // Stat after reading the meta: a writer writes a commit's pages before its meta page, so
    // a file that another process is growing is never smaller than the meta read before it.
    const size = fstatSync(fd).size;
    if (size === 0) {
      return {
        problem: "is empty (0 bytes)",
        advice:
          "the data file was truncated, so opening it would show an empty database; restore the directory from a backup, or delete the file if this store never held data",
      };
    }
    // LMDB trusts page 0 to find everything else: on other bytes it crashes the process.
    if (first === null) {
      return {
        problem: "is not an LMDB data file, or its first page is damaged (no LMDB header at its start)",
        advice: "restore the directory from a backup",
      };
    }
    const meta = second !== null && second.txnId > first.txnId ? second : first;
    // Both meta pages, and every page up to the highest root.
    const pages = Math.max(2, meta.topRoot + 1);
    const needed = pages * meta.pageSize;
    if (size < needed) {
      return {
        problem: `is ${size} bytes, but the database it holds reaches at least ${needed} (page ${pages - 1} of ${meta.pageSize} bytes)`,
        advice: "the data file was truncated (an interrupted copy?); restore the directory from a backup",
      };
    }
    return null;
  } finally {
    closeSync(fd);
  }
}
