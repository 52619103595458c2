// strand export: every record of a data directory as JSON Lines (interchange.ts), from one read
// transaction (a consistent snapshot, even while a server writes), streamed: records are read
// in key order and handed out in chunks as they go, so memory stays flat in the data size.
// Order: nodes, then vectors, then edges, each type in name order and its records in id order,
// so importing the output in order always finds an edge's endpoints already loaded.
import type { NodeItem } from "../../core/items.js";
import type { ProgressSink } from "../../core/progress.js";
import { edgesOfLabel } from "../store/edge-records.js";
import type { StoreDbs } from "../store/dbs.js";
import { MAX_KEY, type Key } from "../store/keys.js";
import { openStoreReadOnly } from "../store/read-only.js";
import { SchemaInfo } from "../store/schema-info.js";
import { storedSchema } from "../verify/stored-schema.js";
import { recordLine, type RecordKind } from "./interchange.js";

/** Bytes of JSON Lines gathered before each hand-over to the writer (whole lines only). */
const CHUNK_BYTES = 1 << 20;

export interface ExportCounts {
  nodes: number;
  vectors: number;
  edges: number;
}

/** Takes one chunk of whole UTF-8 lines; the chunk is the taker's to keep (never reused). */
export type ChunkWriter = (chunk: Buffer) => Promise<void>;

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
  // The entry counts of the two record databases: the total the progress bar counts towards.
  const total = entryCount(dbs.nodes) + entryCount(dbs.edges) + entryCount(dbs.edgeEnds);
  const task = progress.start("export", "records", total);
  const counts: ExportCounts = { nodes: 0, vectors: 0, edges: 0 };
  try {
    // Lines are encoded straight into a chunk buffer (no string of the whole chunk is built);
    // a full chunk is handed over and a new one started.
    let chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    let used = 0;
    let pending = 0;
    const handOver = async (): Promise<void> => {
      if (used > 0) await write(chunk.subarray(0, used));
      task.advance(pending);
      chunk = Buffer.allocUnsafe(CHUNK_BYTES);
      used = 0;
      pending = 0;
    };
    const sections: [RecordKind, keyof ExportCounts][] = [
      ["N", "nodes"],
      ["V", "vectors"],
      ["E", "edges"],
    ];
    for (const [kind, counter] of sections) {
      for (const label of schema.labelsOf(kind)) {
        const range = { start: [label] as Key, end: [label, MAX_KEY] as Key, transaction };
        // Edges come in two forms (store/edge-records.ts); edgesOfLabel merges them in id order.
        const records = kind === "E" ? edgesOfLabel(dbs, label, { transaction }) : mapValues(dbs.nodes.getRange(range));
        for (const value of records) {
          const line = recordLine(kind, value as NodeItem);
          // UTF-8 takes at most 3 bytes per UTF-16 unit; one more for the newline.
          if (used + line.length * 3 + 1 > CHUNK_BYTES) {
            await handOver();
            if (line.length * 3 + 1 > CHUNK_BYTES) {
              await write(Buffer.from(`${line}\n`));
              counts[counter]++;
              task.advance(1);
              continue;
            }
          }
          used += chunk.write(line, used);
          chunk[used++] = 10;
          counts[counter]++;
          pending++;
        }
      }
    }
    await handOver();
    return counts;
  } finally {
    task.finish();
    transaction.done();
  }
}

function* mapValues(range: Iterable<{ value: NodeItem }>): Generator<NodeItem> {
  for (const { value } of range) yield value;
}

function entryCount(db: StoreDbs["nodes"] | StoreDbs["edges"] | StoreDbs["edgeEnds"]): number {
  // lmdb's typings leave getStats() untyped; it is mdb_stat: {entryCount, depth, ...}.
  const stats = db.getStats() as { entryCount?: unknown };
  return typeof stats.entryCount === "number" ? stats.entryCount : 0;
}
