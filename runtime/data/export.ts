// strand export: every record of a data directory as JSON Lines (interchange.ts), from one read
// transaction (a consistent snapshot, even while a server writes), streamed: records are read
// in key order and handed out in chunks as they go, so memory stays flat in the data size.
// Order: nodes, then vectors, then edges, each type in name order and its records in id order,
// so importing the output in order always finds an edge's endpoints already loaded.
import type { ProgressSink } from "../../core/progress.js";
import { bareEdgeTotal } from "../records/edge-ends.js";
import type { StoreDbs } from "../store/dbs.js";
import type { Database, Transaction } from "lmdb";
import { labelRange, parseItemKey } from "../store/keys.js";
import { openStoreReadOnly } from "../store/read-only.js";
import { SchemaInfo } from "../store/schema-info.js";
import { storedSchema } from "../verify/stored-schema.js";
import { exportEdges } from "./export-edges.js";
import { recordLine, type RecordKind } from "./interchange.js";
import { LineBuffer, type ChunkWriter } from "./line-buffer.js";

export interface ExportCounts {
  nodes: number;
  vectors: number;
  edges: number;
  /** Records whose bytes do not decode (a bit flip on disk), each named with why; left out of the output. Absent when none. */
  damaged?: string[];
}

/**
 * Writes every record of the store in `dir` through `write` (awaited between chunks, so a slow
 * reader holds the export back instead of filling memory). Returns the counts, or a string
 * saying why the directory cannot be exported.
 */
export async function exportDataDir(dir: string, write: ChunkWriter, progress: ProgressSink): Promise<ExportCounts | string> {
  const dbs = openStoreReadOnly(dir);
  if (typeof dbs === "string") return dbs;
  try {
    const descriptor = storedSchema(dbs);
    if (typeof descriptor === "string") return `${dir}: ${descriptor}`;
    return await exportRecords(dbs, new SchemaInfo(descriptor), write, progress);
  } finally {
    await dbs.env.close();
  }
}

export async function exportRecords(dbs: StoreDbs, schema: SchemaInfo, write: ChunkWriter, progress: ProgressSink): Promise<ExportCounts> {
  const transaction = dbs.env.useReadTransaction();
  // The records: the total the progress bar counts towards (edges without a record sit in blocks).
  const total = entryCount(dbs.nodes) + entryCount(dbs.edges) + bareEdgeTotal(dbs.edgeEnds);
  const task = progress.start("export", "records", total);
  const counts: ExportCounts = { nodes: 0, vectors: 0, edges: 0 };
  const out = new LineBuffer(write, (n) => task.advance(n));
  try {
    const sections: [RecordKind, keyof ExportCounts][] = [
      ["N", "nodes"],
      ["V", "vectors"],
      ["E", "edges"],
    ];
    for (const [kind, counter] of sections) {
      for (const label of schema.labelsOf(kind)) {
        if (kind === "E") {
          counts.edges += await exportEdges(dbs, label, transaction, out);
          continue;
        }
        const range = { ...labelRange(label), transaction };
        for (const value of decodedRecords(dbs.nodes, range, counts)) {
          if (out.add(recordLine(kind, value))) await out.handOver();
          counts[counter]++;
        }
      }
    }
    await out.end();
    return counts;
  } finally {
    task.finish();
    transaction.done();
  }
}

/**
 * The records of a range, in key order. A range read decodes as it goes, and one record whose
 * bytes do not decode ended the export with the decoder's stack: from such a record on, each is
 * read on its own, and one that does not decode is named in `counts.damaged` and left out, so
 * everything that can be read is still exported.
 */
function* decodedRecords<V>(
  db: Database<V, Uint8Array>,
  range: { start: Uint8Array; end: Uint8Array; transaction: Transaction },
  counts: ExportCounts,
): Generator<V> {
  let last: Uint8Array | null = null;
  const fast = db.getRange(range)[Symbol.iterator]();
  for (;;) {
    let next: IteratorResult<{ key: Uint8Array; value: V }>;
    try {
      next = fast.next();
    } catch {
      fast.return?.(); // a value that does not decode: read the rest one by one
      break;
    }
    if (next.done === true) return;
    last = Uint8Array.prototype.slice.call(next.value.key); // lmdb reuses a read key's memory
    yield next.value.value;
  }
  for (const read of db.getKeys({ ...range, start: last ?? range.start })) {
    const key = Uint8Array.prototype.slice.call(read);
    if (last !== null && Buffer.compare(key, last) === 0) continue;
    let value: V | undefined;
    try {
      value = db.get(key, { transaction: range.transaction });
    } catch (error) {
      counts.damaged = [...(counts.damaged ?? []), `${describeKey(key)}: ${(error as Error).message}`];
      continue;
    }
    if (value !== undefined) yield value;
  }
}

/** A record's key as its label and id, or its bytes in hex when it is not one. */
function describeKey(key: Uint8Array): string {
  try {
    const { label, id } = parseItemKey(key);
    return `${label} ${id}`;
  } catch {
    return Buffer.from(key).toString("hex");
  }
}

function entryCount(db: StoreDbs["nodes"] | StoreDbs["edges"]): number {
  // lmdb's typings leave getStats() untyped; it is mdb_stat: {entryCount, depth, ...}.
  const stats = db.getStats() as { entryCount?: unknown };
  return typeof stats.entryCount === "number" ? stats.entryCount : 0;
}
