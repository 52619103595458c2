// What the steps of the format migration share (format-migration.ts runs them): the marker an
// unfinished step keeps in meta "format_migration", the options, and the handles of format 2's
// adjacency databases (written by the 1 → 2 step, read and dropped by the 2 → 3 step).
import type { Database } from "lmdb";
import type { StoreDbs } from "../store/dbs.js";
import type { Key } from "../store/keys.js";

/** The databases the 4 → 5 step converts (format4-migration.ts), each in two phases. */
type Format5Db = "nodes" | "edges" | "index" | "unique" | "edge_unique" | "vector_ids" | "bm25_docs" | "bm25_ids";

/** meta "format_migration" while a step is unfinished: where it resumes. */
export interface MigrationMarker {
  /** The format the step migrates from (to is from + 1). */
  from: number;
  to: number;
  phase: "out" | "in" | "edges" | "ends" | "ends_back" | "vectors" | `${Format5Db}${"" | "_back"}`;
  /** The last key converted in this phase. */
  after: Key | null;
  /** Keys converted so far by this step. */
  entries: number;
}

export interface FormatMigrationOptions {
  /** Keys per transaction. */
  batch?: number;
  /** Called after each committed batch (tests interrupt the migration here). */
  onBatch?: (batches: number) => void;
}

/** Format 2's adjacency lists: `[nodeId, edgeLabel]` / `[nodeId, edgeLabel, i]` → binary entries. */
export type Format2ListDb = Database<Uint8Array, Key>;

/** Format 2's adjacency databases ("adj_out", "adj_in"), opened by name. */
export function format2ListDbs(dbs: StoreDbs): { out: Format2ListDb; in: Format2ListDb } {
  return {
    out: dbs.env.openDB<Uint8Array, Key>({ name: "adj_out", encoding: "binary" }),
    in: dbs.env.openDB<Uint8Array, Key>({ name: "adj_in", encoding: "binary" }),
  };
}

export const sameKey = (a: Key, b: Key): boolean => a.length === b.length && a.every((part, i) => part === b[i]);
