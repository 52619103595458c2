// strand export: every record of a data directory as JSON Lines (interchange.ts), from one read
// transaction (a consistent snapshot, even while a server writes), streamed: records are read
// in key order and handed out in chunks as they go, so memory stays flat in the data size.
// Order: nodes, then vectors, then edges, each type in name order and its records in id order,
// so importing the output in order always finds an edge's endpoints already loaded.
import { bareEdgeCount } from "../store/edge-ends.js";
import type { Transaction } from "lmdb";
import type { ProgressSink } from "../../core/progress.js";
import { bareEdgesOfLabel } from "../store/edge-records.js";
import type { StoreDbs } from "../store/dbs.js";
import { MAX_KEY, type Key } from "../store/keys.js";
import { openStoreReadOnly } from "../store/read-only.js";
import { SchemaInfo } from "../store/schema-info.js";
import { storedSchema } from "../verify/stored-schema.js";
import { bareEdgeLine, bareEdgePrefix, recordLine, type RecordKind } from "./interchange.js";

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
  // The records: the total the progress bar counts towards (edges without a record are in blocks, counted per label).
  let bare = 0;
  for (const label of schema.labelsOf("E")) bare += bareEdgeCount(dbs.edgeEnds, label, { transaction });
  const total = entryCount(dbs.nodes) + entryCount(dbs.edges) + bare;
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
        const range = { start: [label] as Key, end: [label, MAX_KEY] as Key, transaction };
        for (const { value } of dbs.nodes.getRange(range)) {
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
 * The edges of one label in id order, both forms (store/edge-records.ts) merged as edgesOfLabel
 * merges them; an edge without a record becomes its line straight from its three ids, with no
 * record object built (on a graph of bare edges, that is most of an export).
 */
async function exportEdges(dbs: StoreDbs, label: string, transaction: Transaction, out: LineBuffer): Promise<number> {
  const opts = { transaction };
  const records = dbs.edges.getRange({ start: [label] as Key, end: [label, MAX_KEY] as Key, ...opts })[Symbol.iterator]();
  const bare = bareEdgesOfLabel(dbs, label, opts);
  const prefix = Buffer.from(bareEdgePrefix(label), "utf8");
  let count = 0;
  let r = records.next();
  let b = bare.next();
  while (!r.done || !b.done) {
    let full: boolean;
    if (!b.done && (r.done || b.value.id < r.value.value.id)) {
      const { id, from, to } = b.value;
      if (to === undefined) throw new Error(`E::${label} '${id}' is not in the out list of its from node '${from}'`);
      full = out.addBareEdge(prefix, id, from, to);
      b = bare.next();
    } else {
      full = out.add(recordLine("E", r.value!.value));
      r = records.next();
    }
    count++;
    if (full) await out.handOver();
  }
  return count;
}

/**
 * Lines encoded straight into a chunk buffer; full chunks (whole lines) go to the writer. A line
 * of an edge without fields is written byte by byte from its parts (all ASCII: a JSON prefix and
 * three lower-case UUIDs), the way that costs least per line; any other line through UTF-8.
 */
class LineBuffer {
  private chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  private used = 0;
  /** Records in `chunk`, told to `advance` at each hand-over. */
  private pending = 0;

  constructor(
    private readonly write: ChunkWriter,
    private readonly advance: (records: number) => void,
  ) {}

  /** Adds one line and its newline; true when the caller must await handOver() before the next. */
  add(line: string): boolean {
    // UTF-8 takes at most 3 bytes per UTF-16 unit; one more for the newline.
    if (this.used + line.length * 3 + 1 > CHUNK_BYTES) {
      if (line.length * 3 + 1 > CHUNK_BYTES) {
        this.oversize = `${line}\n`;
        return true;
      }
      this.spill = line;
      return true;
    }
    this.used += this.chunk.write(line, this.used);
    this.chunk[this.used++] = 10;
    this.pending++;
    return false;
  }

  /** Adds the line bareEdgeLine(prefix, id, from, to) would give; true as for add. */
  addBareEdge(prefix: Uint8Array, id: string, from: string, to: string): boolean {
    const length = prefix.length + id.length + from.length + to.length + BARE_MIDDLE.length + BARE_TO.length + BARE_END.length + 1;
    if (this.used + length > CHUNK_BYTES) {
      this.spill = bareEdgeLine(this.prefixText(prefix), id, from, to);
      return true;
    }
    const c = this.chunk;
    let at = this.used;
    c.set(prefix, at);
    at = writeAscii(c, at + prefix.length, id);
    at = writeAscii(c, at, BARE_MIDDLE);
    at = writeAscii(c, at, from);
    at = writeAscii(c, at, BARE_TO);
    at = writeAscii(c, at, to);
    c[at++] = 34; // "
    c[at++] = 125; // }
    c[at++] = 10;
    this.used = at;
    this.pending++;
    return false;
  }

  /** A line that did not fit the chunk, written into the next one. */
  private spill: string | null = null;
  /** A line longer than a chunk, handed over on its own. */
  private oversize: string | null = null;
  private prefixTexts = new Map<Uint8Array, string>();

  private prefixText(prefix: Uint8Array): string {
    let text = this.prefixTexts.get(prefix);
    if (text === undefined) {
      text = Buffer.from(prefix).toString("utf8");
      this.prefixTexts.set(prefix, text);
    }
    return text;
  }

  /** Hands the chunk over (awaiting the writer), then the line that did not fit, if any. */
  async handOver(): Promise<void> {
    if (this.used > 0) await this.write(this.chunk.subarray(0, this.used));
    this.chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    this.used = 0;
    if (this.oversize !== null) {
      await this.write(Buffer.from(this.oversize));
      this.oversize = null;
      this.pending++;
    }
    if (this.spill !== null) {
      const line = this.spill;
      this.spill = null;
      this.add(line);
    }
    this.advance(this.pending);
    this.pending = 0;
  }

  async end(): Promise<void> {
    await this.handOver();
    if (this.used > 0) await this.handOver();
  }
}

/** Between a bare edge line's id and from node, and between from and to (bareEdgeLine). */
const BARE_MIDDLE = '","from":"';
const BARE_TO = '","to":"';
const BARE_END = '"}';

/** Writes an ASCII string's characters as bytes at `at`; returns the offset after them. */
function writeAscii(target: Uint8Array, at: number, text: string): number {
  for (let i = 0; i < text.length; i++) target[at + i] = text.charCodeAt(i);
  return at + text.length;
}

function entryCount(db: StoreDbs["nodes"] | StoreDbs["edges"]): number {
  // lmdb's typings leave getStats() untyped; it is mdb_stat: {entryCount, depth, ...}.
  const stats = db.getStats() as { entryCount?: unknown };
  return typeof stats.entryCount === "number" ? stats.entryCount : 0;
}
