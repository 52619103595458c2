// Format 3 → 4, one step of the format migration (format-migration.ts runs the steps in order):
// `edge_ends` goes from one entry per edge without a record (key label + edge id, value its from
// node's 16 bytes) to blocks of up to 16 such edges (records/edge-ends.ts), and vector records keep
// their vector as f32 bytes instead of a msgpack array of f64 (store/vector-encoding.ts).
//
// Crash safety as in the earlier steps: every batch is one transaction that also records in meta
// "format_migration" its phase and the last key converted. Phase "ends" reads the format-3
// entries in key order and writes them as blocks into a scratch database, "edge_ends_next";
// phase "ends_back" starts by clearing `edge_ends` (in the transaction that records the phase)
// and appends the blocks back into it, in order, so its pages come out full. Phase "vectors"
// rewrites the records of the vector types (read as f64 arrays, written as f32 by the encoding
// of `nodes`), in `nodes` key order. The last
// transaction drops the scratch database, closes the commit log's format-3 history (its entries
// name format-3 values; as in the 2 → 3 step), writes format 4 and removes the marker.
import type { Database } from "lmdb";
import type { ProgressSink } from "../../core/progress.js";
import { ID_BYTES, readIdBytes } from "../store/id-bytes.js";
import { commitSeqOf } from "../commit-log/log-entries.js";
import type { StoreDbs } from "../store/dbs.js";
import { format4Dbs, format4KeyLabel, format4ResumeKey } from "./format4-dbs.js";
import { parseEdgeEndsKey } from "../records/edge-ends.js";
import { FORMAT_KEY, FORMAT_MIGRATION_KEY, type Key, SCHEMA_TYPES_KEY } from "../store/keys.js";
import { setVectorMembers } from "../store/vector-encoding.js";
import { APPEND } from "../store/append-put.js";
import { appendCommit, trimCommitLog } from "../commit-log/log-writes.js";
import { EdgeEndsWriter } from "../records/edge-ends-writes.js";
import type { FormatMigrationOptions, MigrationMarker } from "./format-migration-marker.js";
import { copyPhaseInBatches } from "./migration-batches.js";

const DEFAULT_BATCH = 20_000;

type BinaryDb = Database<Uint8Array, Uint8Array>;

/** The scratch database phase "ends" fills and phase "ends_back" empties into `edge_ends`. */
function scratchDb(dbs: StoreDbs): BinaryDb {
  return dbs.env.openDB<Uint8Array, Uint8Array>({ name: "edge_ends_next", encoding: "binary", keyEncoding: "binary" });
}

/**
 * Migrates a format-3 store to format 4. Runs outside any transaction: it commits one
 * transaction per batch. Returns the keys converted (with those of an interrupted run before).
 */
export function migrateFormat3(dbs: StoreDbs, progress: ProgressSink, options: FormatMigrationOptions): number {
  const batch = options.batch ?? DEFAULT_BATCH;
  const scratch = scratchDb(dbs);
  let marker = dbs.meta.get(FORMAT_MIGRATION_KEY) as MigrationMarker | undefined;
  if (marker === undefined || marker.from !== 3) {
    // A fresh start: whatever a run that never committed a batch left in the scratch database goes.
    dbs.env.transactionSync(() => {
      scratch.clearSync();
      marker = { from: 3, to: 4, phase: "ends", after: null, entries: 0 };
      dbs.meta.putSync(FORMAT_MIGRATION_KEY, marker);
    });
  }
  let state = marker as MigrationMarker;
  // Entries: the format-3 edges, then the blocks they became (the total is known only after the first phase).
  const task = progress.start("migrating the store from format 3 to 4", "entries");
  task.advance(state.entries);
  let batches = 0;
  const onBatch = () => options.onBatch?.(++batches);
  if (state.phase === "ends") {
    const blocks = new EdgeEndsWriter(scratch);
    state = copyPhaseInBatches(dbs, state, {
      phase: "ends",
      source: dbs.edgeEnds as unknown as Database<Uint8Array, Key>,
      put: (key, value) => {
        const { label, id } = parseEdgeEndsKey(key as unknown as Uint8Array);
        if (value.length !== ID_BYTES) throw new Error(`format 3 edge_ends entry ${label}/${id} has ${value.length} bytes`);
        blocks.add(label, id, readIdBytes(value, 0));
      },
      // The block still growing is written in every batch: the marker names the last key copied.
      beforeCommit: () => blocks.flush(),
      batch,
      task,
      onBatch,
    });
    dbs.env.transactionSync(() => {
      dbs.edgeEnds.clearSync();
      state = { ...state, phase: "ends_back", after: null };
      dbs.meta.putSync(FORMAT_MIGRATION_KEY, state);
    });
  }
  if (state.phase === "ends_back") {
    const target = dbs.edgeEnds;
    state = copyPhaseInBatches(dbs, state, {
      phase: "ends_back",
      source: scratch as unknown as Database<Uint8Array, Key>,
      // In key order into an emptied database: every block sorts last, so each is an append.
      put: (key, value) => {
        const k = key as unknown as Uint8Array;
        const appended: unknown = target.putSync(k, value, APPEND);
        if (appended !== true) target.putSync(k, value);
      },
      batch,
      task,
      onBatch,
    });
    dbs.env.transactionSync(() => {
      state = { ...state, phase: "vectors", after: null };
      dbs.meta.putSync(FORMAT_MIGRATION_KEY, state);
    });
  }
  state = rewriteVectorRecords(dbs, state, batch, (n) => {
    task.advance(n);
    onBatch();
  });
  dbs.env.transactionSync(() => {
    scratch.dropSync();
    const seq = commitSeqOf(dbs);
    if (seq > 0) trimCommitLog(dbs, appendCommit(dbs, [], [], []), seq);
    dbs.meta.putSync(FORMAT_KEY, 4);
    dbs.meta.removeSync(FORMAT_MIGRATION_KEY);
  });
  task.finish();
  return state.entries;
}

/**
 * The member each stored vector type keeps its vector in, from the type definitions the store
 * recorded (meta "schema_types"): `embedding` when the type declares an `embedding` array of
 * floats, else `data`; a type with vectors (`vector_types`) but no recorded definition: `data`.
 */
function storedVectorMembers(dbs: StoreDbs): Map<string, string> {
  const members = new Map<string, string>();
  for (const { key } of dbs.vectorTypes.getRange({})) members.set(String(key[0]), "data");
  const value = dbs.meta.get(SCHEMA_TYPES_KEY) as Record<string, unknown> | undefined;
  const types = (value !== undefined && typeof value.format === "number" ? value.types : value) as
    | Record<string, { fields?: { name: string; type?: { kind?: string; element?: { kind?: string; name?: string } } }[] }>
    | undefined;
  for (const [ref, def] of Object.entries(types ?? {})) {
    if (!ref.startsWith("V::")) continue;
    const embedding = def.fields?.find((f) => f.name === "embedding");
    const t = embedding?.type;
    const floats = t?.kind === "array" && t.element?.kind === "scalar" && (t.element.name === "F64" || t.element.name === "F32");
    members.set(ref.slice(3), floats ? "embedding" : "data");
  }
  return members;
}

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/** Phase "vectors": every vector record written again (as f32), in batches; returns the marker after the last. */
function rewriteVectorRecords(
  dbs: StoreDbs,
  marker: MigrationMarker,
  batch: number,
  onBatch: (rewritten: number) => void,
): MigrationMarker {
  const members = storedVectorMembers(dbs);
  // Format-4 keys: this step runs before the 4 → 5 one.
  const nodes = format4Dbs(dbs).nodes;
  setVectorMembers(nodes, members);
  let state = marker;
  for (;;) {
    const after = format4ResumeKey(state.after);
    let seen = 0;
    let rewritten = 0;
    dbs.env.transactionSync(() => {
      const range = after === null ? { limit: batch } : { start: after, limit: batch + 1 };
      // Read first, then write: the range's cursor does not walk keys this batch rewrites.
      const vectors: { key: Uint8Array; value: unknown }[] = [];
      let last: Uint8Array | null = after;
      for (const { key, value } of nodes.getRange(range)) {
        if (after !== null && sameBytes(key, after)) continue;
        // Copies: lmdb reuses a read key's memory.
        last = Uint8Array.prototype.slice.call(key);
        if (members.has(format4KeyLabel(last))) vectors.push({ key: last, value });
        if (++seen === batch) break;
      }
      for (const { key, value } of vectors) nodes.putSync(key, value as never);
      rewritten = vectors.length;
      state = { ...state, after: last as unknown as Key | null, entries: state.entries + rewritten };
      dbs.meta.putSync(FORMAT_MIGRATION_KEY, state);
    });
    onBatch(rewritten);
    if (seen < batch) return state;
  }
}
