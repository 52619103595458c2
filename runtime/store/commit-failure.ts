// A write whose commit failed (disk full, file size limit, I/O error) is an error for that write
// only: GraphStore.write turns lmdb's failure into STORAGE_FULL or STORAGE_ERROR naming the cause,
// and the server keeps serving. LMDB aborts the whole transaction, so nothing of it is saved.
// STORAGE_FULL (507) is ENOSPC, EFBIG, EDQUOT, MDB_MAP_FULL, or an EIO with under 1 MiB of room
// left; STORAGE_ERROR (503) is anything else. The read cache and the vector log settle as for any
// failed write (commit.ts release), so reads go on and writes succeed again once there is room.
import { StrandError } from "../../core/errors.js";
import { describeRoom, MIN_FREE_BYTES_TO_OPEN, storageRoom } from "./storage-space.js";

/** errno values and LMDB codes that mean "no room": EIO, EFBIG, ENOSPC, EDQUOT, MDB_MAP_FULL. */
const NO_ROOM = new Map<number, string>([
  [27, "EFBIG"],
  [28, "ENOSPC"],
  [122, "EDQUOT"],
  [-30792, "MDB_MAP_FULL"],
]);
const EIO = 5;

/**
 * lmdb rejects each write of a failed batch with "Commit failed" and the cause in `commitError`
 * (a rejected promise). The batch-start promise of lmdb's event-turn batching is never handed
 * to anyone, so it rejects unhandled, which would end the process; every write that waited on
 * the batch gets the failure itself, so that one is dropped here (see orphanCommitFailureGuard).
 */
export function isLmdbCommitFailure(error: unknown): error is Error & { commitError: Promise<unknown> } {
  return error instanceof Error && "commitError" in error && error.commitError instanceof Promise;
}

/** An lmdb error carries the errno or LMDB status as a number. */
function lmdbStatus(error: unknown): number | null {
  if (!(error instanceof Error)) return null;
  const code = (error as { code?: unknown }).code;
  return typeof code === "number" ? code : null;
}

/**
 * The StrandError a failed write is answered with, or null when `error` is not a storage failure
 * (a StrandError of the query, or a bug). Waits for the cause of a failed commit.
 */
export async function storageFailure(error: unknown, dir: string): Promise<StrandError | null> {
  let cause: unknown = error;
  if (isLmdbCommitFailure(error))
    cause = await error.commitError.then(
      () => error,
      (reason: unknown) => reason,
    );
  else if (lmdbStatus(error) === null) return null;
  const status = lmdbStatus(cause);
  const what = causeText(cause);
  const name = status === null ? undefined : NO_ROOM.get(status);
  if (name !== undefined) return storageFull(`${what} (${name})`);
  // A short write (the disk filled up mid-page) comes back from LMDB as EIO: look at the room left.
  const room = status === EIO ? storageRoom(dir) : null;
  if (room !== null && room.bytes < MIN_FREE_BYTES_TO_OPEN) return storageFull(`${what}; ${describeRoom(room)}`);
  return new StrandError(
    "STORAGE_ERROR",
    `the write was not saved: the store could not commit it (${what}); nothing of this request was written, and reads still work`,
  );
}

function storageFull(cause: string): StrandError {
  return new StrandError(
    "STORAGE_FULL",
    `the write was not saved: the storage is full (${cause}); nothing of this request was written, reads still work, and writes succeed again once there is room`,
  );
}

/** lmdb's message up to its detail ("File too large: Attempting to write page at ..." → "File too large"). */
function causeText(cause: unknown): string {
  const message = cause instanceof Error ? cause.message : String(cause);
  const head = message.split(": ")[0] ?? message;
  return head.trim() === "" ? "unknown cause" : head.trim();
}

let guardInstalled = false;

/**
 * Drops the orphaned rejections of failed lmdb commits (above) and leaves every other unhandled
 * rejection fatal, as Node's default is: it is rethrown as an uncaught exception.
 */
export function orphanCommitFailureGuard(): void {
  if (guardInstalled) return;
  guardInstalled = true;
  process.on("unhandledRejection", (reason) => {
    if (isLmdbCommitFailure(reason)) {
      reason.commitError.catch(() => {});
      return;
    }
    throw reason;
  });
}
