// `strand verify <data dir>`: the integrity check of a data directory that no process has open.
// It takes the directory's lock (so a running server refuses it, and none starts meanwhile),
// reads the types the records were last checked against from the data itself, and compares each
// vector type's saved HNSW files when they describe the current state.
import { silentProgress, type ProgressSink } from "../../core/progress.js";
import fs from "node:fs";
import path from "node:path";
import { needsMigration, openDbs, type StoreDbs } from "../store/dbs.js";
import { DirectoryLockedError, lockDirectory } from "../store/dir-lock.js";
import { SchemaInfo } from "../store/schema-info.js";
import type { VerifyReport } from "../store/integrity.js";
import { savedIndexContents } from "../vector/saved-index.js";
import { storedSchema } from "./stored-schema.js";
import { verifyStore } from "./verify.js";

export type VerifyDirErrorCode = "NOT_A_STORE" | "LOCKED" | "UNREADABLE" | "CORRUPT";

/** LMDB's own errors (lmdb-js names their code first): a page it cannot read is a damaged file, the finding verify exists for. */
const LMDB_ERROR = /^MDB_[A-Z_]+:/;
/** msgpackr's errors for bytes that are no value it wrote: a damaged page that LMDB itself read without complaint. */
const UNDECODABLE =
  /^(Unexpected end of MessagePack data|Unexpected end of buffer|Data read, but end of buffer not reached|Unknown MessagePack token|Unknown extension|Record id is not defined)/;

export type VerifyDirOutcome = { ok: true; report: VerifyReport } | { ok: false; code: VerifyDirErrorCode; message: string };

/** LMDB's data file: its absence means the directory holds no store (and must not get one). */
const DATA_FILE = "data.mdb";

export async function verifyDataDir(dir: string, progress: ProgressSink = silentProgress): Promise<VerifyDirOutcome> {
  if (!isDirectory(dir)) return { ok: false, code: "NOT_A_STORE", message: `${dir} is not a directory` };
  if (!fs.existsSync(path.join(dir, DATA_FILE)))
    return { ok: false, code: "NOT_A_STORE", message: `${dir} holds no Strand data (no ${DATA_FILE})` };
  let unlock: () => void;
  try {
    unlock = lockDirectory(dir);
  } catch (error) {
    if (error instanceof DirectoryLockedError) return { ok: false, code: "LOCKED", message: error.message };
    return { ok: false, code: "UNREADABLE", message: `cannot lock ${dir}: ${(error as Error).message}` };
  }
  let dbs: StoreDbs | undefined;
  try {
    try {
      dbs = openDbs(dir, undefined);
    } catch (error) {
      return { ok: false, code: "UNREADABLE", message: `cannot open the store in ${dir}: ${(error as Error).message}` };
    }
    try {
      return checkOpened(dbs, dir, progress);
    } catch (error) {
      const message = (error as Error).message;
      const found = LMDB_ERROR.test(message)
        ? `LMDB: ${message}`
        : UNDECODABLE.test(message)
          ? `a stored value cannot be decoded: ${message}`
          : null;
      if (found === null) throw error;
      return {
        ok: false,
        code: "CORRUPT",
        message: `${dir}: the data file is damaged (${found}): restore the directory from a backup`,
      };
    }
  } finally {
    try {
      await dbs?.env.close();
    } finally {
      unlock();
    }
  }
}

/** Verify of the opened store, or why it cannot be checked. */
function checkOpened(dbs: StoreDbs, dir: string, progress: ProgressSink): VerifyDirOutcome {
  const older = needsMigration(dbs, dir);
  if (older !== null) return { ok: false, code: "UNREADABLE", message: older };
  const descriptor = storedSchema(dbs);
  if (typeof descriptor === "string") return { ok: false, code: "UNREADABLE", message: `${dir}: ${descriptor}` };
  let schema: SchemaInfo;
  try {
    schema = new SchemaInfo(descriptor);
  } catch (error) {
    return { ok: false, code: "UNREADABLE", message: `${dir}: the recorded type definitions are not valid: ${(error as Error).message}` };
  }
  const report = verifyStore({ dbs, schema, vectorIndex: (label, meta) => savedIndexContents(dbs, dir, label, meta), progress });
  return { ok: true, report };
}

function isDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
