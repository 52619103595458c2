// Format 2 → 3, one step of the format migration (format-migration.ts runs the steps in order):
// the adjacency lists move from `adj_out` / `adj_in`, keyed `[nodeId, edgeLabel]` and
// `[nodeId, edgeLabel, i]` with the node id as 36 characters of text, to `adjacency_out` /
// `adjacency_in` under binary keys with the id's 16 bytes (adjacency/lists.ts); the values (the
// binary entries) are copied as they are.
//
// Crash safety as in the 1 → 2 step: the old databases are only read until the last
// transaction, the new ones are written in batches, each one transaction that also records in
// meta "format_migration" the phase and the last key converted, so a run killed at any point
// resumes after that key (or, with no marker, starts again from empty targets). The last
// transaction drops the old databases, closes the commit log's format-2 history (below), writes
// format 3 and removes the marker.
//
// The commit log's entries name keys as the writer wrote them, so entries written before the
// migration hold format-2 adjacency keys that a format-3 follower must never replay: the last
// transaction appends an entry of no change and trims every entry before it. A follower that
// had not read them all is told they are gone and starts again from a backup.
import type { ProgressSink } from "../../core/progress.js";
import { chunkKey, listKey } from "../adjacency/lists.js";
import { commitSeqOf } from "../commit-log/log-entries.js";
import { copyPhaseInBatches } from "./migration-batches.js";
import type { StoreDbs } from "../store/dbs.js";
import { FORMAT_KEY, FORMAT_MIGRATION_KEY, type Key } from "../store/keys.js";
import { appendCommit, trimCommitLog } from "../commit-log/log-writes.js";
import { format2ListDbs, type FormatMigrationOptions, type MigrationMarker } from "./format-migration-marker.js";

const DEFAULT_BATCH = 20_000;

/** The format-3 key of a format-2 adjacency key. */
export function format3ListKey(key: Key): Uint8Array {
  const [nodeId, edgeLabel, i] = key;
  if (typeof nodeId !== "string" || typeof edgeLabel !== "string" || (key.length === 3 && typeof i !== "number") || key.length > 3) {
    throw new Error(`format 2 adjacency key ${JSON.stringify(key)} is malformed`);
  }
  return key.length === 2 ? listKey(nodeId, edgeLabel) : chunkKey(nodeId, edgeLabel, i as number);
}

/**
 * Migrates a format-2 store to format 3. Runs outside any transaction: it commits one
 * transaction per batch. Returns the keys converted (with those of an interrupted run before).
 */
export function migrateFormat2(dbs: StoreDbs, progress: ProgressSink, options: FormatMigrationOptions): number {
  const batch = options.batch ?? DEFAULT_BATCH;
  const old = format2ListDbs(dbs);
  let marker = dbs.meta.get(FORMAT_MIGRATION_KEY) as MigrationMarker | undefined;
  if (marker === undefined || marker.from !== 2) {
    // A fresh start: whatever a run that never committed a batch left in the targets goes.
    dbs.env.transactionSync(() => {
      dbs.out.clearSync();
      dbs.in.clearSync();
      marker = { from: 2, to: 3, phase: "out", after: null, entries: 0 };
      dbs.meta.putSync(FORMAT_MIGRATION_KEY, marker);
    });
  }
  let state = marker as MigrationMarker;
  const entryCount = (db: { getStats(): unknown }): number => (db.getStats() as { entryCount: number }).entryCount;
  const task = progress.start("migrating the store from format 2 to 3", "entries", entryCount(old.out) + entryCount(old.in));
  task.advance(state.entries);
  let batches = 0;
  for (const phase of ["out", "in"] as const) {
    if (phase === "out" && state.phase === "in") continue; // done before the interruption
    const source = old[phase];
    const target = dbs[phase];
    state = copyPhaseInBatches(dbs, state, {
      phase,
      source,
      put: (key, value) => target.putSync(format3ListKey(key), value),
      batch,
      task,
      onBatch: () => options.onBatch?.(++batches),
    });
    if (phase === "out") state = { ...state, phase: "in", after: null };
  }
  dbs.env.transactionSync(() => {
    old.out.dropSync();
    old.in.dropSync();
    const seq = commitSeqOf(dbs);
    if (seq > 0) trimCommitLog(dbs, appendCommit(dbs, [], [], []), seq);
    dbs.meta.putSync(FORMAT_KEY, 3);
    dbs.meta.removeSync(FORMAT_MIGRATION_KEY);
  });
  task.finish();
  return state.entries;
}
