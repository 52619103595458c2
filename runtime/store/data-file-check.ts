// Refusing a data.mdb that LMDB would map and then fault on. LMDB maps the file and trusts its
// meta page: a file cut short (an interrupted copy, a full disk during a restore by hand) makes
// the first read past its end a SIGBUS, which kills the process with no message. So before
// opening, the newer of the two meta pages is read and the file must hold every page it names.
// A file of 0 bytes would open as an empty database: refused as well.
//
// LMDB's meta page (lmdb-js's LMDB): a page header of 24 bytes (page number, txn id, pad,
// flags, lower, upper), then MDB_meta: magic 0xBEEFC0DE (u32), version (u32), address (u64),
// map size (u64), two MDB_db of 48 bytes each (the first one's leading u32 is the page size),
// then the last page used (u64) and the transaction id (u64). Both meta pages are checked for
// the magic; a file whose header is not in this shape is left for LMDB to judge.
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import { StrandError } from "../../core/errors.js";

const MAGIC = 0xbeefc0de;
const HEADER = 24;
const PAGE_SIZE_AT = HEADER + 24;
const LAST_PAGE_AT = HEADER + 24 + 2 * 48;
const META_BYTES = LAST_PAGE_AT + 16;

interface Meta {
  pageSize: number;
  lastPage: number;
  txnId: number;
}

function readMeta(fd: number, at: number, size: number): Meta | null {
  if (at + META_BYTES > size) return null;
  const bytes = Buffer.alloc(META_BYTES);
  if (readSync(fd, bytes, 0, META_BYTES, at) !== META_BYTES) return null;
  if (bytes.readUInt32LE(HEADER) !== MAGIC) return null;
  const pageSize = bytes.readUInt32LE(PAGE_SIZE_AT);
  // Page sizes are powers of two between 512 bytes and 64 KiB.
  if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) return null;
  return { pageSize, lastPage: Number(bytes.readBigUInt64LE(LAST_PAGE_AT)), txnId: Number(bytes.readBigUInt64LE(LAST_PAGE_AT + 8)) };
}

/** Throws STORAGE_CORRUPT when `dir`'s data.mdb is empty or shorter than its meta page says; a missing file is a new store. */
export function refuseTruncatedDataFile(dir: string): void {
  const file = join(dir, "data.mdb");
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    return; // no data file yet (a new store), or one LMDB will name the problem of
  }
  try {
    const first = readMeta(fd, 0, fstatSync(fd).size);
    const second = first === null ? null : readMeta(fd, first.pageSize, fstatSync(fd).size);
    // Stat after reading the meta: a writer writes a commit's pages before its meta page, so
    // a file that another process is growing is never smaller than the meta read before it.
    const size = fstatSync(fd).size;
    if (size === 0) {
      throw new StrandError(
        "STORAGE_CORRUPT",
        `${file} is empty (0 bytes): the data file was truncated, so opening it would show an empty database; restore the directory from a backup, or delete the file if this store never held data`,
      );
    }
    if (first === null) return;
    const meta = second !== null && second.txnId > first.txnId ? second : first;
    const needed = Math.max(2, meta.lastPage + 1) * meta.pageSize;
    if (size < needed) {
      throw new StrandError(
        "STORAGE_CORRUPT",
        `${file} is ${size} bytes, but the database it holds needs ${needed} (${meta.lastPage + 1} pages of ${meta.pageSize}): the data file was truncated (an interrupted copy?); restore the directory from a backup`,
      );
    }
  } finally {
    closeSync(fd);
  }
}
