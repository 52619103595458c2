// strand export: every record of a data directory as JSON Lines (interchange.ts), from one read
// transaction (a consistent snapshot, even while a server writes), streamed: records are read
// in key order and handed out in chunks as they go, so memory stays flat in the data size.
// Order: nodes, then vectors, then edges, each type in name order and its records in id order,
// so importing the output in order always finds an edge's endpoints already loaded.
import type { ProgressSink } from "../../core/progress.js";
import { bareEdgeTotal } from "../records/edge-ends.js";
import { decodedRange } from "../store/decoded-range.js";
import type { StoreDbs } from "../store/dbs.js";
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
        const damaged = (key: Uint8Array, error: Error): void => {
          counts.damaged = [...(counts.damaged ?? []), `${describeKey(key)}: ${error.message}`];
        };
        // A record that does not decode is named in counts.damaged and left out; the rest is exported.
        for (const { value } of decodedRange(dbs.nodes, range, damaged)) {
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
