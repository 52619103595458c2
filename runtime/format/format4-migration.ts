// Format 4 → 5, the last step of the format migration (format-migration.ts runs the steps in
// order): every id in a key becomes its 16 bytes, and so does every id stored as a value
// (store/keys.ts). Up to format 4 these keys were ordered-binary arrays holding ids as 36
// characters of text: [label, id] in `nodes`, `edges`, `vector_ids` and `bm25_docs`, [kind, type,
// field, value, id] in `index`, [label, from, to] in `edge_unique`; `unique`, `edge_unique` and
// `bm25_ids` held the id as a msgpack string. Record values do not change.
//
// The conversion works on the stored bytes: an ordered-binary array key is its elements joined by
// 0x00, and a text id is its 36 ASCII characters, so a key ending in an id becomes the bytes before
// the id followed by the id's 16 bytes; nothing else of the key is decoded and encoded again.
//
// Crash safety as in the earlier steps: every batch is one transaction that also records in meta
// "format_migration" its phase and the last key converted. `unique` and `bm25_ids` keep their
// keys, so their values are rewritten in place (phases "unique", "bm25_ids"). For each of the
// other databases, phase "<db>" reads
// its format-4 entries in key order and writes them converted into a scratch database,
// "format5_next"; phase "<db>_back" starts by clearing the database (in the transaction that
// records the phase) and appends the scratch entries back, in order, so its pages come out full;
// the next database's phase starts by clearing the scratch database. The last transaction drops
// it, closes the commit log's format-4 history (its entries name format-4 keys; as in the earlier
// steps), writes format 5 and removes the marker.
import type { Database } from "lmdb";
import type { ProgressSink, ProgressTask } from "../../core/progress.js";
import { commitSeqOf } from "../commit-log/log-entries.js";
import type { StoreDbs } from "../store/dbs.js";
import { ID_BYTES, writeIdBytes } from "../store/id-bytes.js";
import { plausibleId } from "../store/ids.js";
import { FORMAT_KEY, FORMAT_MIGRATION_KEY, idValue, type Key } from "../store/keys.js";
import { APPEND } from "../store/append-put.js";
import { appendCommit, trimCommitLog } from "../commit-log/log-writes.js";
import { type FormatMigrationOptions, type MigrationMarker, sameKey } from "./format-migration-marker.js";
import { copyPhaseInBatches } from "./migration-batches.js";

const DEFAULT_BATCH = 20_000;

/** Characters of a textual UUID. */
const ID_TEXT = 36;

type RawDb = Database<Uint8Array, Uint8Array>;

/** How one database's format-4 entries become format 5's (through the scratch database). */
interface Conversion {
  db: "nodes" | "edges" | "index" | "edge_unique" | "vector_ids" | "bm25_docs";
  key: (key: Uint8Array) => Uint8Array;
  /** The value: its bytes unchanged, or (idValue) the msgpack string of an id as its 16 bytes. */
  idValue: boolean;
}

const CONVERSIONS: readonly Conversion[] = [
  { db: "nodes", key: idLastKey, idValue: false },
  { db: "edges", key: idLastKey, idValue: false },
  { db: "index", key: idLastKey, idValue: false },
  { db: "edge_unique", key: edgeUniqueKey4, idValue: true },
  { db: "vector_ids", key: idLastKey, idValue: false },
  { db: "bm25_docs", key: idLastKey, idValue: false },
];

/** The databases whose keys stay (ordered-binary, no id): only their id values change, in place. */
const IN_PLACE = ["unique", "bm25_ids"] as const;

type Phase = MigrationMarker["phase"];

const PHASES: readonly Phase[] = [...CONVERSIONS.flatMap((c): Phase[] => [c.db, `${c.db}_back`]), ...IN_PLACE];

/** The text id at key[at, at + 36), checked to be one a store holds. */
function textId(key: Uint8Array, at: number, db: string): string {
  const id = at >= 1 && key[at - 1] === 0 ? String.fromCharCode(...key.subarray(at, at + ID_TEXT)) : "";
  if (!plausibleId(id)) throw new Error(`format 4 ${db} key ${Buffer.from(key).toString("hex")} does not hold a text id where expected`);
  return id;
}

/** A key ending in a text id (…, 0x00, 36 characters): the same with the id's 16 bytes. */
function idLastKey(key: Uint8Array): Uint8Array {
  const at = key.length - ID_TEXT;
  const id = textId(key, at, "record or index");
  const next = new Uint8Array(at + ID_BYTES);
  next.set(key.subarray(0, at), 0);
  writeIdBytes(id, next, at);
  return next;
}

/** `edge_unique` [label, from, to] (label 0x00 from 0x00 to): label, 0x00, from's and to's 16 bytes. */
function edgeUniqueKey4(key: Uint8Array): Uint8Array {
  const toAt = key.length - ID_TEXT;
  const fromAt = toAt - 1 - ID_TEXT;
  const to = textId(key, toAt, "edge_unique");
  const from = textId(key, fromAt, "edge_unique");
  const next = new Uint8Array(fromAt + 2 * ID_BYTES);
  next.set(key.subarray(0, fromAt), 0);
  writeIdBytes(from, next, fromAt);
  writeIdBytes(to, next, fromAt + ID_BYTES);
  return next;
}

/** A database as stored bytes: keys and values as lmdb holds them. */
function rawDb(dbs: StoreDbs, name: string): RawDb {
  return dbs.env.openDB<Uint8Array, Uint8Array>({ name, encoding: "binary", keyEncoding: "binary" });
}

/** The database with binary keys and msgpack values (an id value reads as its text). */
function textValuesDb(dbs: StoreDbs, name: string): Database<string, Uint8Array> {
  const plainMaps: object = { encoder: { useRecords: false } };
  return dbs.env.openDB<string, Uint8Array>({ name, keyEncoding: "binary", ...plainMaps });
}

/**
 * Migrates a format-4 store to format 5. Runs outside any transaction: it commits one
 * transaction per batch. Returns the keys written (with those of an interrupted run before).
 */
export function migrateFormat4(dbs: StoreDbs, progress: ProgressSink, options: FormatMigrationOptions): number {
  const batch = options.batch ?? DEFAULT_BATCH;
  const scratch = rawDb(dbs, "format5_next");
  let marker = dbs.meta.get(FORMAT_MIGRATION_KEY) as MigrationMarker | undefined;
  if (marker === undefined || marker.from !== 4) {
    // A fresh start: whatever a run that never committed a batch left in the scratch database goes.
    dbs.env.transactionSync(() => {
      scratch.clearSync();
      marker = { from: 4, to: 5, phase: PHASES[0]!, after: null, entries: 0 };
      dbs.meta.putSync(FORMAT_MIGRATION_KEY, marker);
    });
  }
  let state = marker as MigrationMarker;
  // Entries: each database's entries written into the scratch database, then back.
  const task = progress.start("migrating the store from format 4 to 5", "entries");
  task.advance(state.entries);
  let batches = 0;
  const onBatch = () => options.onBatch?.(++batches);
  const start = PHASES.indexOf(state.phase);
  if (start < 0) throw new Error(`a format 4 → 5 migration marker names the phase "${state.phase}"`);
  for (let i = start; i < PHASES.length; i++) {
    const phase = PHASES[i]!;
    const conversion = CONVERSIONS[i >> 1];
    const batching = { batch, task, onBatch };
    if (conversion === undefined) state = idValuesInPlace(dbs, state, phase as (typeof IN_PLACE)[number], batching);
    else if (phase.endsWith("_back")) state = copyBack(dbs, state, conversion, scratch, batching);
    else state = convertInto(dbs, state, conversion, scratch, batching);
    const next = PHASES[i + 1];
    if (next === undefined) break;
    dbs.env.transactionSync(() => {
      // Into "<db>_back": the database empties (its entries are all in the scratch one); into
      // the next database's phase: the scratch database empties (its entries are all back).
      if (next.endsWith("_back")) rawDb(dbs, conversion!.db).clearSync();
      else scratch.clearSync();
      state = { ...state, phase: next, after: null };
      dbs.meta.putSync(FORMAT_MIGRATION_KEY, state);
    });
  }
  dbs.env.transactionSync(() => {
    scratch.dropSync();
    const seq = commitSeqOf(dbs);
    if (seq > 0) trimCommitLog(dbs, appendCommit(dbs, [], [], []), seq);
    dbs.meta.putSync(FORMAT_KEY, 5);
    dbs.meta.removeSync(FORMAT_MIGRATION_KEY);
  });
  task.finish();
  return state.entries;
}

interface Batching {
  batch: number;
  task: ProgressTask;
  onBatch: () => void;
}

/** Phase "<db>": the database's entries, converted, into the scratch database. */
function convertInto(dbs: StoreDbs, state: MigrationMarker, c: Conversion, scratch: RawDb, b: Batching): MigrationMarker {
  const phase = c.db as MigrationMarker["phase"];
  if (c.idValue) {
    return copyPhaseInBatches(dbs, state, {
      phase,
      source: textValuesDb(dbs, c.db) as unknown as Database<string, Key>,
      put: (key, value) => {
        if (!plausibleId(value)) throw new Error(`format 4 ${c.db} holds ${JSON.stringify(value)} where an id belongs`);
        scratch.putSync(c.key(key as unknown as Uint8Array), idValue(value));
      },
      ...b,
    });
  }
  return copyPhaseInBatches(dbs, state, {
    phase,
    source: rawDb(dbs, c.db) as unknown as Database<Uint8Array, Key>,
    put: (key, value) => scratch.putSync(c.key(key as unknown as Uint8Array), value),
    ...b,
  });
}

/** Phase "<db>_back": the scratch database's entries, in key order, appended to the emptied database. */
function copyBack(dbs: StoreDbs, state: MigrationMarker, c: Conversion, scratch: RawDb, b: Batching): MigrationMarker {
  const target = rawDb(dbs, c.db);
  return copyPhaseInBatches(dbs, state, {
    phase: `${c.db}_back` as MigrationMarker["phase"],
    source: scratch as unknown as Database<Uint8Array, Key>,
    put: (key, value) => {
      const k = key as unknown as Uint8Array;
      const appended: unknown = target.putSync(k, value, APPEND);
      if (appended !== true) target.putSync(k, value);
    },
    ...b,
  });
}

/**
 * Phase "unique" / "bm25_ids": each value, an id's msgpack string, rewritten as its 16 bytes.
 * Read and written through StoreDbs' handle (ordered-binary keys, values as bytes): a handle with
 * binary keys would not find these keys (see format/format4-dbs.ts), and one decoding msgpack would
 * choke on the values already rewritten (the resume point's own, read again).
 */
function idValuesInPlace(dbs: StoreDbs, state: MigrationMarker, phase: (typeof IN_PLACE)[number], b: Batching): MigrationMarker {
  const db = phase === "unique" ? dbs.unique : dbs.bm25Ids;
  let marker = state;
  for (;;) {
    const after = marker.phase === phase ? marker.after : null;
    const read: { key: Key; id: string }[] = [];
    dbs.env.transactionSync(() => {
      // Read first, then write: the range's cursor does not walk keys this batch rewrites.
      const range = after === null ? { limit: b.batch } : { start: after, limit: b.batch + 1 };
      for (const { key, value } of db.getRange(range)) {
        if (after !== null && sameKey(key, after)) continue;
        read.push({ key, id: textIdValue(value, phase, key) });
        if (read.length === b.batch) break;
      }
      for (const { key, id } of read) db.putSync(key, idValue(id));
      const last = read.length > 0 ? read[read.length - 1]!.key : after;
      marker = { ...marker, phase, after: last, entries: marker.entries + read.length };
      dbs.meta.putSync(FORMAT_MIGRATION_KEY, marker);
    });
    b.task.advance(read.length);
    b.onBatch();
    if (read.length < b.batch) return marker;
  }
}

/** The id a format-4 id value holds: msgpack's str 8 of 36 characters (0xd9, 36, the text). */
function textIdValue(value: Uint8Array, db: string, key: Key): string {
  const id = value.length === 2 + ID_TEXT && value[0] === 0xd9 && value[1] === ID_TEXT ? String.fromCharCode(...value.subarray(2)) : "";
  if (!plausibleId(id))
    throw new Error(`format 4 ${db} ${JSON.stringify(key)} holds ${Buffer.from(value).toString("hex")} where an id belongs`);
  return id;
}
