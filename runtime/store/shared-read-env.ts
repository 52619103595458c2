// Opening a data directory read-only *alongside* the process that holds it (a running server).
// LMDB allows any number of reader processes next to one writer: a reader sees consistent
// snapshots and never blocks the writer. This deliberately does not take the directory lock
// (dir-lock.ts), which guards the read cache of the one *writing* process; a reader that never
// writes cannot make that cache wrong. Used by `strand backup`; anything that writes must open
// the store through GraphStore.open (or take the lock) instead.
import type { RootDatabase } from "lmdb";
import { FORMAT_KEY, FORMAT_VERSION, SCHEMA_VERSION_KEY } from "./keys.js";
import { openStoreReadOnly } from "./read-only.js";

export interface SharedReadEnv {
  readonly env: RootDatabase;
  /** meta "format" (FORMAT_VERSION for every store this Strand can read). */
  readonly format: number;
  /** meta "schema_version": the `schema::N` the data is at, null for an unversioned store. */
  readonly schemaVersion: number | null;
}

/** Opens `dir` (which must hold data.mdb) read-only without its lock; throws Error with the reason. */
export function openReadOnlyAlongsideWriter(dir: string): SharedReadEnv {
  const dbs = openStoreReadOnly(dir);
  if (typeof dbs === "string") throw new Error(dbs);
  const { env, meta } = dbs;
  try {
    const format = meta.get(FORMAT_KEY);
    if (format !== FORMAT_VERSION) {
      throw new Error(`${dir}: unsupported store format ${String(format)} (expected ${FORMAT_VERSION})`);
    }
    const version = meta.get(SCHEMA_VERSION_KEY);
    return { env, format, schemaVersion: typeof version === "number" ? version : null };
  } catch (error) {
    void env.close();
    throw error;
  }
}
