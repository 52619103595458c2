// What every QueryContext method of a transaction is built on (context.ts): the transaction's
// reads of records, adjacency lists and label ranges — through the shared read cache in a read
// snapshot, straight from LMDB inside a write, where the write's own buffered changes are written
// first — each ticking the query's deadline, and the write's GraphWriter.
import type { StoredAnswer } from "../../core/query-context.js";
import { storedAnswer } from "../idempotency/answers.js";
import type { Database, RangeOptions, Transaction } from "lmdb";
import type { EdgeItem, NodeItem } from "../../core/items.js";
import { ValueOps } from "../ops/value-ops.js";
import type { Bm25Index } from "../search/bm25-index.js";
import { splitAdjacency, type Adjacency } from "../adjacency/lists.js";
import { readList } from "../adjacency/pending-in.js";
import { edgeById, edgesOfLabel } from "../records/edge-records.js";
import type { StoreDbs } from "../store/dbs.js";
import { itemKey, labelRange } from "../store/keys.js";
import { adjacencyKey, recordKey, type ReadCache } from "../store/read-cache.js";
import type { SchemaInfo } from "../store/schema-info.js";
import type { VectorIndexes } from "../vector/vector-indexes.js";
import type { GraphWriter } from "../write/graph-writer.js";
import { deadlineAfter, QueryDeadline } from "./query-deadline.js";

export type ReadOptions = { transaction: Transaction };

export class StoreReads extends ValueOps {
  /** Ticked at every record, list and write this context reads or makes; null: no time limit. */
  protected deadline: QueryDeadline | null;
  /** Passed to every lmdb read; undefined inside a write transaction (lmdb then reads from it). */
  protected readonly opts: ReadOptions | undefined;

  /**
   * @param readTransaction the snapshot to read from, or null for a context that runs inside
   *   an open lmdb write transaction.
   * @param cache shared decoded reads (see read-cache.ts): a read context reads through it; a
   *   write context never reads it (its writer marks what it changes).
   * @param writer every change of this context's write transaction; null when reading.
   */
  constructor(
    protected readonly dbs: StoreDbs,
    protected readonly schema: SchemaInfo,
    readTransaction: Transaction | null,
    protected readonly cache: ReadCache,
    protected readonly vectors: VectorIndexes,
    /** The BM25 keyword index, or null when bm25 is disabled. */
    protected readonly bm25: Bm25Index | null,
    protected readonly writer: GraphWriter | null,
    /** The query's time limit in ms (query/query-deadline.ts), from now; 0: none. */
    timeoutMs = 0,
  ) {
    super();
    this.deadline = deadlineAfter(timeoutMs, writer !== null);
    writer?.limitBy(this.deadline);
    this.opts = readTransaction ? { transaction: readTransaction } : undefined;
  }

  /** A write's stored answer under an Idempotency-Key (idempotency/answers.ts), as this context's snapshot holds it. */
  storedAnswer(key: string, notBefore: number): StoredAnswer | undefined {
    return storedAnswer(this.dbs, key, notBefore, this.opts);
  }

  rememberAnswer(key: string, answer: StoredAnswer, expiredBefore: number): void {
    this.write("rememberAnswer").rememberAnswer(key, answer, expiredBefore);
  }

  /**
   * The time the query may still run, from now, instead of the store's whole limit: the query
   * runner's budget (query-deadline.ts QueryBudget), which its embedding calls spent part of.
   * `limitMs` is the whole limit, for the error. The write's postings tick the same deadline.
   */
  limitTime(remainingMs: number, limitMs: number): void {
    this.deadline = remainingMs > 0 ? new QueryDeadline(remainingMs, this.writer !== null, undefined, limitMs) : null;
    this.writer?.limitBy(this.deadline);
  }

  /** The writer, for a write method; a read context has none. */
  protected write(method: string): GraphWriter {
    if (this.writer === null || this.opts !== undefined) throw new Error(`${method} called in a read transaction`);
    this.deadline?.tick();
    return this.writer;
  }

  // ---- record access

  protected getNode(label: string, id: string): NodeItem | undefined {
    return this.getRecord(this.dbs.nodes, label, id);
  }

  /** Existence without decoding the record. */
  protected hasNode(label: string, id: string): boolean {
    this.deadline?.tick();
    if (this.opts !== undefined) {
      const hit = this.cache.get(recordKey(id)) as NodeItem | undefined;
      if (hit !== undefined) return hit.label === label;
    }
    // doesExist(key, undefined, options) is a getBinaryFast: no msgpack decode.
    return this.dbs.nodes.doesExist(itemKey(label, id), undefined as unknown as NodeItem, this.opts);
  }

  /** An edge by (label, id) in either form (records/edge-records.ts), through the read cache. */
  protected getEdge(label: string, id: string): EdgeItem | undefined {
    if (this.opts === undefined) this.writer?.flushBuffered(); // a bare edge's to node is in a list
    return this.cached(label, id, (opts) => edgeById(this.dbs, label, id, opts));
  }

  /** Every edge of a label, both forms, in id order. */
  protected *edgesOf(label: string): Generator<EdgeItem> {
    if (this.opts === undefined) this.writer?.flushBuffered();
    for (const edge of edgesOfLabel(this.dbs, label, this.opts)) {
      this.deadline?.tick();
      yield edge;
    }
  }

  protected getRecord<T extends NodeItem>(db: Database<T, Uint8Array>, label: string, id: string): T | undefined {
    return this.cached(label, id, (opts) => db.get(itemKey(label, id), opts));
  }

  /** A record by (label, id); read contexts go through the shared cache (ids are unique across labels). */
  protected cached<T extends NodeItem>(label: string, id: string, read: (opts: ReadOptions | undefined) => T | undefined): T | undefined {
    this.deadline?.tick();
    if (this.opts === undefined) return read(undefined);
    const hit = this.cache.get(recordKey(id)) as T | undefined;
    if (hit !== undefined) return hit.label === label ? hit : undefined;
    const rec = read(this.opts);
    return rec === undefined ? undefined : this.cache.fill(recordKey(rec.id), rec);
  }

  /** The adjacency list of (node, edge label) in one direction (see adjacency/lists.ts); its first `limit` entries when given (not cached). */
  protected adjacency(direction: "out" | "in", nodeId: string, edgeLabel: string, limit?: number): Adjacency {
    this.deadline?.tick();
    if (limit !== undefined || this.opts === undefined) {
      if (this.opts === undefined) this.writer?.flushBuffered(); // the write's own new edges are in the list it reads
      return splitAdjacency(readList(this.dbs, direction, nodeId, edgeLabel, this.opts), limit);
    }
    const key = adjacencyKey(direction, nodeId, edgeLabel);
    const hit = this.cache.get(key) as Adjacency | undefined;
    if (hit !== undefined) return hit;
    return this.cache.fill(key, this.cache.shareRecordIds(splitAdjacency(readList(this.dbs, direction, nodeId, edgeLabel, this.opts))));
  }

  /** The length of an adjacency list this context's cache holds, or undefined (a write's context, or not cached). */
  protected cachedDegree(direction: "out" | "in", nodeId: string, edgeLabel: string): number | undefined {
    if (this.opts === undefined) return undefined;
    return (this.cache.get(adjacencyKey(direction, nodeId, edgeLabel)) as Adjacency | undefined)?.otherIds.length;
  }

  /** [start, end) options of a key range (keys.ts builds them), in this context's transaction. */
  protected rangeOptions(range: { start: Uint8Array; end: Uint8Array }): RangeOptions {
    return this.opts ? { ...range, transaction: this.opts.transaction } : range;
  }

  /** Entries of one label (keys.ts labelRange), in id order. */
  protected scan<V>(db: Database<V, Uint8Array>, label: string): Iterable<{ key: Uint8Array; value: V }> {
    return db.getRange(this.rangeOptions(labelRange(label)));
  }
}
