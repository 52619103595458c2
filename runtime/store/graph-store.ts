// The durable graph: one LMDB environment, read snapshots and serialized durable writes, each
// exposed to query code as a QueryContext.
import { TxnQueryContext } from "../context.js";
import type { QueryContext } from "../query-context.js";
import type { SchemaDescriptor } from "../schema.js";
import { openDbs, type StoreDbs } from "./dbs.js";
import { DEFAULT_CACHE_ENTRIES, ReadCache } from "./read-cache.js";
import { lockDirectory } from "./dir-lock.js";
import { SchemaInfo } from "./schema-info.js";

export interface GraphStoreOptions {
  /** Directory of the LMDB environment (created if missing). */
  path: string;
  schema: SchemaDescriptor;
  /** Initial map size in bytes; lmdb grows it as needed. */
  mapSize?: number;
  /** Decoded records and adjacency lists kept for reads (read-cache.ts); 0 disables. */
  cacheEntries?: number;
}

export class GraphStore {
  private closed = false;

  private constructor(
    private readonly dbs: StoreDbs,
    readonly schema: SchemaInfo,
    private readonly cache: ReadCache,
    private readonly unlock: () => void,
  ) {}

  static open(options: GraphStoreOptions): GraphStore {
    const schema = new SchemaInfo(options.schema); // validate before touching the disk
    const cache = new ReadCache(options.cacheEntries ?? DEFAULT_CACHE_ENTRIES);
    const unlock = lockDirectory(options.path);
    try {
      return new GraphStore(openDbs(options.path, options.mapSize), schema, cache, unlock);
    } catch (error) {
      unlock();
      throw error;
    }
  }

  /** Runs fn synchronously against one consistent snapshot. */
  read<T>(fn: (db: QueryContext) => T): T {
    const transaction = this.dbs.env.useReadTransaction();
    try {
      return fn(new TxnQueryContext(this.dbs, this.schema, transaction, this.cache));
    } finally {
      transaction.done();
    }
  }

  /**
   * Runs fn (synchronous) in a write transaction. lmdb serializes writers and batches the
   * callbacks queued in one event turn into one LMDB transaction; each callback runs in its own
   * child transaction, so when fn throws only fn's writes are rolled back and the promise
   * rejects with its error. Resolves only once the commit is flushed to disk: with lmdb's
   * default `overlappingSync` the transaction promise means "committed and visible", so we
   * additionally wait for `flushed`.
   */
  async write<T>(fn: (db: QueryContext) => T): Promise<T> {
    const touched: string[] = [];
    try {
      const result = await this.dbs.env.childTransaction(() => fn(new TxnQueryContext(this.dbs, this.schema, null, this.cache, touched)));
      await this.dbs.env.flushed;
      return result;
    } finally {
      // Committed and flushed (or failed): new snapshots include it, so reads may cache again.
      this.cache.settle(touched);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.dbs.env.close();
    } finally {
      this.unlock();
    }
  }
}
