// The resumable copy both format-migration steps use for a phase: `source` is read in key order
// and written through `put` in batches, one transaction each; the same transaction records the
// last key copied in meta "format_migration", so a run killed at any point resumes after the last
// committed batch and never copies a key twice.
import type { Database } from "lmdb";
import type { ProgressTask } from "../../core/progress.js";
import type { StoreDbs } from "../store/dbs.js";
import { FORMAT_MIGRATION_KEY, type Key } from "../store/keys.js";
import { type MigrationMarker, sameKey } from "./format-migration-marker.js";

export interface PhaseCopy<V> {
  phase: MigrationMarker["phase"];
  source: Database<V, Key>;
  /** Writes one source entry in the target format (inside the batch's transaction). */
  put: (key: Key, value: V) => void;
  batch: number;
  task: ProgressTask;
  /** Called at the end of each batch, inside its transaction, after its last put (e.g. to write what `put` held back). */
  beforeCommit?: () => void;
  /** Called after each committed batch. */
  onBatch: () => void;
}

/** Copies what is left of `copy.phase` and returns the marker after its last batch. */
export function copyPhaseInBatches<V>(dbs: StoreDbs, marker: MigrationMarker, copy: PhaseCopy<V>): MigrationMarker {
  let state = marker;
  const { phase, source, put, batch } = copy;
  for (;;) {
    const after = state.phase === phase ? state.after : null;
    let converted = 0;
    let last: Key | null = after;
    dbs.env.transactionSync(() => {
      const range = after === null ? { limit: batch } : { start: after, limit: batch + 1 };
      for (const { key, value } of source.getRange(range)) {
        if (after !== null && sameKey(key, after)) continue;
        put(key, value);
        // A binary key is lmdb's Buffer, whose memory later reads reuse: kept as a copy.
        last = key instanceof Uint8Array ? (new Uint8Array(key) as unknown as Key) : key;
        if (++converted === batch) break;
      }
      copy.beforeCommit?.();
      state = { ...state, phase, after: last, entries: state.entries + converted };
      dbs.meta.putSync(FORMAT_MIGRATION_KEY, state);
    });
    copy.task.advance(converted);
    copy.onBatch();
    if (converted < batch) return state;
  }
}
