// The open LMDB handles of one graph (see keys.ts for what each holds) and how they are opened.
import { statSync } from "node:fs";
import { join } from "node:path";
import { open, type Database, type RootDatabase } from "lmdb";
import { StrandError } from "../../core/errors.js";
import type { EdgeItem, NodeItem } from "../../core/items.js";
import type { CommitEntry } from "./commit-entry.js";
import type { VectorLogEntry, VectorTypeMeta } from "./vector-type-meta.js";
import { DB_NAMES, FORMAT_KEY, FORMAT_VERSION, type Key } from "./keys.js";

export interface StoreDbs {
  readonly env: RootDatabase;
  readonly meta: Database<unknown, string>;
  readonly nodes: Database<NodeItem, Key>;
  readonly edges: Database<EdgeItem, Key>;
  readonly out: Database<string, Key>;
  readonly in: Database<string, Key>;
  readonly index: Database<null, Key>;
  readonly unique: Database<string, Key>;
  readonly edgeUnique: Database<string, Key>;
  readonly bm25Post: Database<Uint8Array, Key>;
  readonly bm25Docs: Database<Bm25DocEntry, Key>;
  readonly bm25Ids: Database<string, Key>;
  readonly bm25Stats: Database<Bm25Stats, Key>;
  readonly vectorTypes: Database<VectorTypeMeta, Key>;
  readonly vectorIds: Database<number, Key>;
  readonly vectorLog: Database<VectorLogEntry, Key>;
  /** Each write transaction's changes by sequence number (commit-log.ts); never recorded itself. */
  readonly commitLog: Database<CommitEntry, number>;
}

/**
 * @param readOnly open for reading only (strand export while a server writes: LMDB lets a second
 *   process read; see read-only.ts). A read-only open writes nothing, not even the format.
 */
export function openDbs(path: string, mapSize: number | undefined, readOnly = false): StoreDbs {
  refuseEmptyDataFile(path);
  // lmdb's defaults are the durable ones (synced commits, no write map); do not override them.
  // noSubdir is explicit: lmdb otherwise guesses from the path, and takes "./my.data" for a file.
  const env = open({
    path,
    noSubdir: false,
    maxDbs: DB_NAMES.length + 4,
    ...(mapSize !== undefined ? { mapSize } : {}),
    ...(readOnly ? { readOnly: true } : {}),
  });
  // Plain msgpack maps: without shared structures, msgpackr "records" only add an inline
  // structure definition to every value. (lmdb's typings list `encoder` for open() only.)
  const plainMaps: object = { encoder: { useRecords: false } };
  const db = <V>(name: string): Database<V, Key> => env.openDB<V, Key>({ name, ...plainMaps });
  const dbs: StoreDbs = {
    env,
    meta: env.openDB<unknown, string>({ name: "meta" }),
    nodes: db<NodeItem>("nodes"),
    edges: db<EdgeItem>("edges"),
    out: env.openDB<string, Key>({ name: "out", encoding: "string" }),
    in: env.openDB<string, Key>({ name: "in", encoding: "string" }),
    index: db<null>("index"),
    unique: db<string>("unique"),
    edgeUnique: db<string>("edge_unique"),
    bm25Post: env.openDB<Uint8Array, Key>({ name: "bm25_post", encoding: "binary" }),
    bm25Docs: db<Bm25DocEntry>("bm25_docs"),
    bm25Ids: db<string>("bm25_ids"),
    bm25Stats: db<Bm25Stats>("bm25_stats"),
    vectorTypes: db<VectorTypeMeta>("vector_types"),
    vectorIds: db<number>("vector_ids"),
    vectorLog: db<VectorLogEntry>("vector_log"),
    commitLog: env.openDB<CommitEntry, number>({ name: "commit_log", ...plainMaps }),
  };
  // A new store gets its format written by the caller (runtime/write/meta-writes.ts).
  const format = dbs.meta.get(FORMAT_KEY);
  if (format !== undefined && format !== FORMAT_VERSION) {
    throw new Error(`${path}: unsupported store format ${String(format)} (expected ${FORMAT_VERSION})`);
  }
  return dbs;
}

/**
 * lmdb writes its two meta pages as soon as it creates data.mdb, so a data file of 0 bytes was
 * truncated (or its creation never finished). lmdb would open it as a new, empty database and
 * every record would silently be gone; refuse it, naming the file, instead.
 */
function refuseEmptyDataFile(dir: string): void {
  const file = join(dir, "data.mdb");
  let size: number;
  try {
    size = statSync(file).size;
  } catch {
    return; // no data file yet: a new store
  }
  if (size === 0) {
    throw new StrandError(
      "STORAGE_CORRUPT",
      `${file} is empty (0 bytes): the data file was truncated, so opening it would show an empty database; restore the directory from a backup, or delete the file if this store never held data`,
    );
  }
}

/** bm25_docs value: the document's number within its type and its length in terms. */
export type Bm25DocEntry = [docNo: number, length: number];

export interface Bm25Stats {
  /** Documents (records) of the type. */
  docs: number;
  /** Sum of their lengths. */
  tokens: number;
  /** The docNo the next new document gets. */
  nextDocNo: number;
}
