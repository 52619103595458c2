// What the graph writer calls for state kept beside the records, so that it follows every record
// change in the same write transaction: the keyword index (search) and the vector slots (vector).
import type { NodeItem } from "../../core/items.js";
import type { ProgressSink } from "../../core/progress.js";
import type { WorkLimit } from "../../core/work-limit.js";
import type { VectorTypeInfo } from "../store/schema-info.js";

/** Documents of node and vector records (BM25 postings, see search/bm25-writes.ts). Edges have none. */
export interface SearchHook {
  /** A record that was just stored. */
  added(record: NodeItem, limit?: WorkLimit | null): void;
  /** The stored record `previous` is being replaced by `next` (same id). */
  replaced(previous: NodeItem, next: NodeItem, limit?: WorkLimit | null): void;
  /** The stored record is being removed. */
  removed(record: NodeItem): void;
  /** Writes what the hook gathered; before the index is read in the write, and when its callback ends (a bulk load's with progress). */
  flush(progress?: ProgressSink, limit?: WorkLimit | null): void;
  /** The write's callback failed: forget what was gathered (the transaction rolls back). */
  discard(): void;
}

/** The slots of vector records in their type's index (see vector/vector-slots.ts). */
export interface VectorHook {
  /** A new vector record holding `vector` (checked against the type's dimension here). */
  added(info: VectorTypeInfo, record: NodeItem, vector: readonly number[]): void;
  /** The stored vector record `previous` is being replaced by `next`; its slot moves when the vector changed. */
  replaced(info: VectorTypeInfo, previous: NodeItem, next: NodeItem): void;
  /** The stored vector record is being removed: searches stop returning it. */
  removed(info: VectorTypeInfo, record: NodeItem): void;
}
