// Opening a data directory to read it while another process may hold it (strand export beside a
// running server). It takes no lock: the lock (dir-lock.ts) guards the read cache of the one
// writing process, which a reader that writes nothing cannot upset, and LMDB lets any number of
// processes read one environment while one writes, each read transaction a consistent snapshot.
import fs from "node:fs";
import path from "node:path";
import { openDbs, type StoreDbs } from "./dbs.js";

/** LMDB's data file: without it the directory holds no store (and a reader must not create one). */
const DATA_FILE = "data.mdb";

/** The store's databases opened read-only, or why the directory cannot be read as a store. */
export function openStoreReadOnly(dir: string): StoreDbs | string {
  let isDir = false;
  try {
    isDir = fs.statSync(dir).isDirectory();
  } catch {
    // missing
  }
  if (!isDir) return `${dir} is not a directory`;
  if (!fs.existsSync(path.join(dir, DATA_FILE))) return `${dir} holds no Strand data (no ${DATA_FILE})`;
  try {
    return openDbs(dir, undefined, true);
  } catch (error) {
    return `cannot open the store in ${dir}: ${(error as Error).message}`;
  }
}
