// The open LMDB handles of one graph (see keys.ts for what each holds) and how they are opened.
import { open, type Database, type RootDatabase } from "lmdb";
import type { EdgeItem, NodeItem } from "../../core/items.js";
import type { CommitEntry } from "./commit-entry.js";
import type { VectorLogEntry, VectorTypeMeta } from "./vector-type-meta.js";
import { withF32Vectors } from "./vector-encoding.js";
import { refuseDamagedDataFile } from "./data-file-check.js";
import { DB_NAMES, FORMAT_KEY, FORMAT_VERSION, MIGRATABLE_FORMATS, type Key } from "./keys.js";

export interface StoreDbs {
  readonly env: RootDatabase;
  readonly meta: Database<unknown, string>;
  /** Records by itemKey(label, id) (keys.ts), as are edges, vector_ids and bm25_docs. */
  readonly nodes: Database<NodeItem, Uint8Array>;
  /** Edge records; an edge without field values has none (records/edge-records.ts). */
  readonly edges: Database<EdgeItem, Uint8Array>;
  /** Edges without a record: label + id bytes → from node id bytes (records/edge-records.ts). */
  readonly edgeEnds: Database<Uint8Array, Uint8Array>;
  /** Adjacency lists (adjacency/lists.ts), binary keys and values; named "adjacency_out" / "adjacency_in" since format 3. */
  readonly out: Database<Uint8Array, Uint8Array>;
  readonly in: Database<Uint8Array, Uint8Array>;
  /** Incoming entries not yet folded into `in` (adjacency/pending-in.ts): one key per entry. */
  readonly inPending: Database<Uint8Array, Uint8Array>;
  readonly index: Database<null, Uint8Array>;
  /** Values: the claiming item's id, 16 bytes (keys.ts idValue), as in edgeUnique and bm25Ids. */
  readonly unique: Database<Uint8Array, Key>;
  readonly edgeUnique: Database<Uint8Array, Uint8Array>;
  readonly bm25Post: Database<Uint8Array, Key>;
  readonly bm25Docs: Database<Bm25DocEntry, Uint8Array>;
  readonly bm25Ids: Database<Uint8Array, Key>;
  readonly bm25Stats: Database<Bm25Stats, Key>;
  readonly vectorTypes: Database<VectorTypeMeta, Key>;
  readonly vectorIds: Database<number, Uint8Array>;
  readonly vectorLog: Database<VectorLogEntry, Key>;
  /** Answers of writes sent with an Idempotency-Key (idempotency/answers.ts), replicated with them. */
  readonly idempotency: Database<unknown, Key>;
  /** Each write transaction's changes by sequence number (commit-log/log-entries.ts); never recorded itself. */
  readonly commitLog: Database<CommitEntry, number>;
}

/**
 * LMDB's page size for a store this version creates (an existing store keeps the size it was
 * created with: LMDB fixes it in the data file). 8 KiB instead of the OS's 4 KiB: a page holds
 * about 23 adjacency lists of degree 10 instead of 11, so the space a page cannot use at its end
 * shrinks from ~9% to ~1% (bench/storage.ts: ~8 bytes less per edge), and B-trees are a level
 * shallower; the cost is more bytes written per page a commit dirties.
 */
export const PAGE_SIZE = 8192;

/**
 * @param readOnly open for reading only (strand export while a server writes: LMDB lets a second
 *   process read; see read-only.ts). A read-only open writes nothing, not even the format.
 */
export function openDbs(path: string, mapSize: number | undefined, readOnly = false): StoreDbs {
  refuseDamagedDataFile(path);
  // lmdb's defaults are the durable ones (synced commits, no write map); do not override them.
  // noSubdir is explicit: lmdb otherwise guesses from the path, and takes "./my.data" for a file.
  const env = open({
    path,
    noSubdir: false,
    maxDbs: DB_NAMES.length + 4,
    pageSize: PAGE_SIZE,
    ...(mapSize !== undefined ? { mapSize } : {}),
    ...(readOnly ? { readOnly: true } : {}),
  });
  // Plain msgpack maps: without shared structures, msgpackr "records" only add an inline
  // structure definition to every value. (lmdb's typings list `encoder` for open() only.)
  const plainMaps: object = { encoder: { useRecords: false } };
  const db = <V>(name: string): Database<V, Key> => env.openDB<V, Key>({ name, ...plainMaps });
  // Keys with ids are binary (keys.ts); so are ids stored as values.
  const byId = <V>(name: string): Database<V, Uint8Array> => env.openDB<V, Uint8Array>({ name, keyEncoding: "binary", ...plainMaps });
  const idValues = (name: string) => env.openDB<Uint8Array, Key>({ name, encoding: "binary" });
  const meta = env.openDB<unknown, string>({ name: "meta" });
  // A new store gets its format written by the caller (runtime/format/format-migration.ts writeFormatVersion); an older
  // format is migrated by GraphStore.open (runtime/format/format-migration.ts) before anything
  // reads it, and a reader that must not write refuses it.
  const format = meta.get(FORMAT_KEY);
  if (format !== undefined && format !== FORMAT_VERSION && (readOnly || !MIGRATABLE_FORMATS.includes(format as number))) {
    void env.close();
    if (readOnly && MIGRATABLE_FORMATS.includes(format as number)) throw new Error(olderFormat(path, format as number));
    throw new Error(`${path}: unsupported store format ${String(format)} (expected ${FORMAT_VERSION})`);
  }
  const dbs: StoreDbs = {
    env,
    meta,
    nodes: byId<NodeItem>("nodes"),
    edges: byId<EdgeItem>("edges"),
    edgeEnds: env.openDB<Uint8Array, Uint8Array>({ name: "edge_ends", encoding: "binary", keyEncoding: "binary" }),
    out: env.openDB<Uint8Array, Uint8Array>({ name: "adjacency_out", encoding: "binary", keyEncoding: "binary" }),
    in: env.openDB<Uint8Array, Uint8Array>({ name: "adjacency_in", encoding: "binary", keyEncoding: "binary" }),
    inPending: openInPending(env, readOnly),
    index: byId<null>("index"),
    unique: idValues("unique"),
    edgeUnique: env.openDB<Uint8Array, Uint8Array>({ name: "edge_unique", encoding: "binary", keyEncoding: "binary" }),
    bm25Post: env.openDB<Uint8Array, Key>({ name: "bm25_post", encoding: "binary" }),
    bm25Docs: byId<Bm25DocEntry>("bm25_docs"),
    bm25Ids: idValues("bm25_ids"),
    bm25Stats: db<Bm25Stats>("bm25_stats"),
    vectorTypes: db<VectorTypeMeta>("vector_types"),
    vectorIds: byId<number>("vector_ids"),
    vectorLog: db<VectorLogEntry>("vector_log"),
    idempotency: db<unknown>("idempotency"),
    commitLog: env.openDB<CommitEntry, number>({ name: "commit_log", ...plainMaps }),
  };
  // Vector records keep their vector as f32 bytes (vector-encoding.ts).
  withF32Vectors(dbs.nodes);
  return dbs;
}

/**
 * `adjacency_in_pending` (adjacency/pending-in.ts). A store last written by a version without it has none,
 * and a read-only open cannot create it: lmdb then gives no handle, and an empty database opened
 * stands in.
 */
function openInPending(env: RootDatabase, readOnly: boolean): Database<Uint8Array, Uint8Array> {
  const options = { encoding: "binary", keyEncoding: "binary" } as const;
  const db = env.openDB<Uint8Array, Uint8Array>({ name: "adjacency_in_pending", ...options }) as
    | Database<Uint8Array, Uint8Array>
    | undefined;
  if (db !== undefined || !readOnly) return db!;
  return emptyDatabase();
}

/** A stand-in with no keys, for the reads a read-only open makes of a database the store lacks. */
function emptyDatabase(): Database<Uint8Array, Uint8Array> {
  const none = { getRange: () => [], getKeys: () => [], getKeysCount: () => 0, get: () => undefined, doesExist: () => false };
  return none as unknown as Database<Uint8Array, Uint8Array>;
}

/** The stored format (FORMAT_VERSION for a new, empty store). */
export function storedFormat(dbs: StoreDbs): number {
  const format = dbs.meta.get(FORMAT_KEY);
  return typeof format === "number" ? format : FORMAT_VERSION;
}

/**
 * Why a store cannot be read without migrating it first (null when it can): what a reader that
 * must not write (export, verify, backup) says about a store in an older format.
 */
export function needsMigration(dbs: StoreDbs, path: string): string | null {
  const format = storedFormat(dbs);
  return format === FORMAT_VERSION ? null : olderFormat(path, format);
}

function olderFormat(path: string, format: number): string {
  return `${path} holds a store in format ${format}, and this version of Strand reads format ${FORMAT_VERSION}: open it once with \`strand serve\` or \`strand import\` (which migrate it), then retry`;
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
