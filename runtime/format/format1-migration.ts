// Format 1 → 2, one step of the format migration (format-migration.ts runs the steps in order):
// adjacency lists from 72-character text entries in the `out` / `in` databases to 32-byte
// binary entries in `adj_out` / `adj_in` (format 2's key layout, `[nodeId, edgeLabel]` and
// `[nodeId, edgeLabel, i]`; the 2 → 3 step rekeys them); then every edge record without field
// values becomes an `edge_ends` entry (records/edge-records.ts).
//
// Crash safety: the old adjacency databases are only read until the last step, and the new ones
// are written in batches, each one transaction that also records in meta "format_migration" the
// phase and the last key it converted. An interrupted migration (kill -9, power loss) resumes
// after that key at the next open; one that finds no marker starts from an empty target. Edge
// records move in place, a batch per transaction with the marker, so a resumed run finds each
// edge in exactly one form. The last transaction drops the old databases, writes format 2 and
// removes the marker. Until then the store says format 1 and nothing but this reads it.
import type { Database } from "lmdb";
import type { EdgeItem } from "../../core/items.js";
import type { ProgressSink } from "../../core/progress.js";
import { CHUNK_BYTES, ENTRY_BYTES, tailValue } from "../adjacency/lists.js";
import { copyPhaseInBatches } from "./migration-batches.js";
import type { StoreDbs } from "../store/dbs.js";
import { format4Dbs, format4ItemKey, format4ResumeKey } from "./format4-dbs.js";
import { edgeEndsKey } from "../records/edge-ends.js";
import { edgeHasFields } from "../records/edge-records.js";
import { idBytes, writeIdBytes, ID_BYTES } from "../store/id-bytes.js";
import { FORMAT_KEY, FORMAT_MIGRATION_KEY, type Key } from "../store/keys.js";
import {
  format2ListDbs,
  type Format2ListDb,
  type FormatMigrationOptions,
  type MigrationMarker,
  sameKey,
} from "./format-migration-marker.js";

const DEFAULT_BATCH = 20_000;
const TEXT_ID = 36;
const TEXT_ENTRY = 2 * TEXT_ID;

/** A format-1 list part ("<sealed>|" + entries for a tail, entries for a chunk) in format 2. */
export function convertListValue(key: Key, value: string): Uint8Array {
  if (key.length === 2) {
    const bar = value.indexOf("|");
    const sealed = Number(value.slice(0, bar));
    if (bar < 1 || !Number.isSafeInteger(sealed)) throw new Error(`format 1 adjacency tail ${JSON.stringify(key)} is malformed`);
    return tailValue(sealed, convertEntries(key, value.slice(bar + 1)));
  }
  const entries = convertEntries(key, value);
  if (entries.length !== CHUNK_BYTES) throw new Error(`format 1 adjacency chunk ${JSON.stringify(key)} is not full`);
  return entries;
}

function convertEntries(key: Key, text: string): Uint8Array {
  if (text.length % TEXT_ENTRY !== 0) throw new Error(`format 1 adjacency list ${JSON.stringify(key)} holds a partial entry`);
  const n = text.length / TEXT_ENTRY;
  const out = new Uint8Array(n * ENTRY_BYTES);
  for (let i = 0; i < n; i++) {
    writeIdBytes(text.slice(i * TEXT_ENTRY, i * TEXT_ENTRY + TEXT_ID), out, i * ENTRY_BYTES);
    writeIdBytes(text.slice(i * TEXT_ENTRY + TEXT_ID, (i + 1) * TEXT_ENTRY), out, i * ENTRY_BYTES + ID_BYTES);
  }
  return out;
}

/**
 * Migrates a format-1 store to format 2. Runs outside any transaction: it commits one
 * transaction per batch. Returns the keys converted (with those of an interrupted run before).
 */
export function migrateFormat1(dbs: StoreDbs, progress: ProgressSink, options: FormatMigrationOptions): number {
  const batch = options.batch ?? DEFAULT_BATCH;
  const targets = format2ListDbs(dbs);
  const old = {
    out: dbs.env.openDB<string, Key>({ name: "out", encoding: "string" }),
    in: dbs.env.openDB<string, Key>({ name: "in", encoding: "string" }),
  };
  let marker = dbs.meta.get(FORMAT_MIGRATION_KEY) as MigrationMarker | undefined;
  if (marker === undefined) {
    // A fresh start: whatever a run that never committed a batch left in the targets goes.
    dbs.env.transactionSync(() => {
      targets.out.clearSync();
      targets.in.clearSync();
      dbs.edgeEnds.clearSync();
      marker = { from: 1, to: 2, phase: "out", after: null, entries: 0 };
      dbs.meta.putSync(FORMAT_MIGRATION_KEY, marker);
    });
  }
  let state = marker as MigrationMarker;
  const legacy = format4Dbs(dbs); // this step's edges are keyed as before format 5
  const entryCount = (db: Database<string, Key>): number => (db.getStats() as { entryCount: number }).entryCount;
  const total = entryCount(old.out) + entryCount(old.in) + entryCount(legacy.edges as unknown as Database<string, Key>);
  const task = progress.start("migrating the store from format 1 to 2", "entries", total);
  task.advance(state.entries);
  let batches = 0;
  for (const phase of ["out", "in"] as const) {
    // Phases run in order: a resumed run skips those its marker says are done.
    if (state.phase === "edges" || (phase === "out" && state.phase === "in")) continue;
    const source = old[phase];
    const target: Format2ListDb = targets[phase];
    state = copyPhaseInBatches(dbs, state, {
      phase,
      source,
      put: (key, value) => target.putSync(key, convertListValue(key, value)),
      batch,
      task,
      onBatch: () => options.onBatch?.(++batches),
    });
    if (phase === "out") state = { ...state, phase: "in", after: null };
  }
  if (state.phase !== "edges") state = { ...state, phase: "edges", after: null };
  for (;;) {
    const after = format4ResumeKey(state.after);
    let seen = 0;
    dbs.env.transactionSync(() => {
      const range = after === null ? { limit: batch } : { start: after, limit: batch + 1 };
      const moving: EdgeItem[] = [];
      let last: Uint8Array | null = after;
      for (const { key, value } of legacy.edges.getRange(range)) {
        if (after !== null && sameKey(key as unknown as Key, after as unknown as Key)) continue;
        if (!edgeHasFields(value)) moving.push(value);
        last = Uint8Array.prototype.slice.call(key); // a copy: lmdb reuses a read key's memory
        if (++seen === batch) break;
      }
      for (const edge of moving) {
        dbs.edgeEnds.putSync(edgeEndsKey(edge.label, edge.id), idBytes(edge.from_node));
        legacy.edges.removeSync(format4ItemKey(edge.label, edge.id));
      }
      state = { ...state, after: last as unknown as Key | null, entries: state.entries + seen };
      dbs.meta.putSync(FORMAT_MIGRATION_KEY, state);
    });
    task.advance(seen);
    options.onBatch?.(++batches);
    if (seen < batch) break;
  }
  dbs.env.transactionSync(() => {
    for (const db of [old.out, old.in] as Database<string, Key>[]) db.dropSync();
    dbs.meta.putSync(FORMAT_KEY, 2);
    dbs.meta.removeSync(FORMAT_MIGRATION_KEY);
  });
  task.finish();
  return state.entries;
}
