// The durable graph, the runtime's face: one LMDB environment, opened with its components, read
// snapshots and serialized durable writes (each exposed to query code as a QueryContext), bulk
// loads, a replica's applied entries, and what an operator asks of a store (verify, stats,
// backup, checkpoints). Every write goes through one commit pipeline (commit.ts).
import { writeBackup, type BackupOutcome } from "./backup/backup.js";
import { checkedQueryTimeout } from "./query/query-deadline.js";
import { TxnQueryContext } from "./query/context.js";
import { silentProgress, type ProgressSink } from "../core/progress.js";
import type { QueryContext, StoredAnswer } from "../core/query-context.js";
import { storedAnswer } from "./idempotency/answers.js";
import type { SchemaDescriptor } from "../core/schema.js";
import { migrateStore, type MigrationOutcome } from "./migrate/migrate.js";
import { openDbs, type StoreDbs } from "./store/dbs.js";
import { FORMAT_VERSION, SCHEMA_VERSION_KEY } from "./store/keys.js";
import { DEFAULT_CACHE_ENTRIES, defaultCacheBytes, ReadCache } from "./store/read-cache.js";
import { lockDirectory } from "./store/dir-lock.js";
import { closeEnv } from "./store/close-env.js";
import { tooFullToOpen } from "./store/storage-space.js";
import { SchemaInfo, vectorMembersOf } from "./store/schema-info.js";
import { keepIdsAfter } from "./store/ids.js";
import { newestStoredId } from "./records/newest-id.js";
import { setVectorMembers } from "./store/vector-encoding.js";
import { type StoreStats, storeStats } from "./records/store-stats.js";
import { Bm25Index } from "./search/bm25-index.js";
import type { Stemmer } from "./search/tokenizer.js";
import { resolveVectorOptions, type VectorOptions } from "./vector/metric.js";
import { VectorIndexes, type VectorIndexStatus } from "./vector/vector-indexes.js";
import type { VerifyReport } from "./store/integrity.js";
import { verifyStore } from "./verify/verify.js";
import { RecordLoader } from "./load/bulk-loader.js";
import { Bm25Writes } from "./search/bm25-writes.js";
import { Commits } from "./commit.js";
import { DEFAULT_FOLD_AT, DEFAULT_FOLD_SLICE } from "./adjacency/pending-in-count.js";
import type { GraphWriter } from "./write/graph-writer.js";
import { orphanCommitFailureGuard } from "./store/commit-failure.js";
import type { LoadedIds } from "./load/loaded-ids.js";
import type { Transaction } from "lmdb";
import { StrandError } from "../core/errors.js";
import { forgetBm25Marker } from "./search/bm25-marker.js";
import { migrateFormat, writeFormatVersion, type FormatMigrationOutcome } from "./format/format-migration.js";
import { settleFreeList } from "./store/freelist-settle.js";
import { DEFAULT_CHECKPOINT_POLICY, VectorCheckpoints, type CheckpointPolicy } from "./vector/vector-checkpoints.js";
import { CommitLog, DEFAULT_LOG_RETENTION, type LogRetention } from "./commit-log/commit-log.js";
import type { ReaderPolicy } from "./commit-log/log-readers.js";

export interface GraphStoreOptions {
  /** Directory of the LMDB environment (created if missing). */
  path: string;
  schema: SchemaDescriptor;
  /** Initial map size in bytes; lmdb grows it as needed. */
  mapSize?: number;
  /** Decoded records and adjacency lists kept for reads (read-cache.ts); 0 disables. */
  cacheEntries?: number;
  /** The read cache's budget in estimated bytes (read-cache.ts entryBytes); default a quarter of the heap limit, at most 1 GiB. */
  cacheBytes?: number;
  /** HNSW parameters of every vector type (strand.toml [vector]); defaults m 16, ef_construction 128, ef_search 64, cosine. */
  vector?: Partial<VectorOptions>;
  /** Keep the BM25 keyword index (strand.toml `bm25`, default true); see runtime/search/. */
  bm25?: boolean;
  /** Stemming of BM25 terms (strand.toml `bm25_stemmer`, default "none"). */
  bm25Stemmer?: Stemmer;
  /** Where long work at open reports (migrations, index rebuilds); silent by default. */
  progress?: ProgressSink;
  /** When vector indexes are checkpointed in the background (vector/vector-checkpoints.ts). */
  vectorCheckpoints?: Partial<CheckpointPolicy>;
  /** How much of the commit log is kept (runtime/commit-log/commit-log.ts). */
  logRetention?: Partial<LogRetention>;
  /** false: write transactions append nothing to the commit log (the benchmark's baseline only). */
  commitLog?: boolean;
  /**
   * Record and keep log entries only while a follower may need them (commit-log/log-readers.ts),
   * with this policy; absent or false: every write is recorded and the retention alone trims.
   */
  logOnDemand?: false | Partial<ReaderPolicy>;
  /**
   * Deferred incoming adjacency entries (adjacency/pending-in.ts) are folded into their lists by
   * the writes that find at least this many pending (default DEFAULT_FOLD_AT; 0: every write folds
   * all), a slice each (adjacency/pending-in-count.ts).
   */
  foldPendingAt?: number;
  /** The entries such a write folds at least, whole lists (default DEFAULT_FOLD_SLICE; 0: all). */
  foldSlice?: number;
  /** How long a read() or write() callback may run before QUERY_TIMEOUT (query/query-deadline.ts); 0: no limit. */
  queryTimeoutMs?: number;
}

export { DEFAULT_FOLD_AT } from "./adjacency/pending-in-count.js";

/** What an open made: the components a store is, handed to its constructor. */
interface OpenedStore {
  readonly schemaUpdate: MigrationOutcome;
  readonly formatMigration: FormatMigrationOutcome | null;
  readonly dbs: StoreDbs;
  readonly schema: SchemaInfo;
  readonly cache: ReadCache;
  readonly vectors: VectorIndexes;
  readonly bm25: Bm25Index | null;
  readonly checkpoints: VectorCheckpoints;
  readonly log: CommitLog;
  readonly unlock: () => void;
  readonly dir: string;
  readonly logging: boolean;
  readonly foldAt: number;
  readonly foldSlice: number;
  readonly queryTimeoutMs: number;
}

export class GraphStore {
  private closed = false;
  /** What the open did to make the stored records fit the schema (migrations, revalidated types). */
  readonly schemaUpdate: MigrationOutcome;
  /** What the open did to bring an older on-disk format to the current one (null: nothing). */
  readonly formatMigration: FormatMigrationOutcome | null;
  readonly schema: SchemaInfo;
  /** The commit log: every write's changes by sequence number, for replicas and `Strand-Commit`. */
  readonly log: CommitLog;
  private readonly dbs: StoreDbs;
  private readonly cache: ReadCache;
  private readonly vectors: VectorIndexes;
  private readonly bm25: Bm25Index | null;
  private readonly checkpoints: VectorCheckpoints;
  private readonly commits: Commits;
  private readonly unlock: () => void;
  /** How long one query may run (GraphStoreOptions.queryTimeoutMs); 0: no limit. */
  readonly queryTimeoutMs: number;

  private constructor(opened: OpenedStore) {
    this.schemaUpdate = opened.schemaUpdate;
    this.formatMigration = opened.formatMigration;
    this.schema = opened.schema;
    this.log = opened.log;
    this.dbs = opened.dbs;
    this.cache = opened.cache;
    this.vectors = opened.vectors;
    this.bm25 = opened.bm25;
    this.checkpoints = opened.checkpoints;
    this.unlock = opened.unlock;
    this.queryTimeoutMs = opened.queryTimeoutMs;
    this.commits = new Commits(opened);
    // An index rebuilt at open is saved soon, so the next crash does not rebuild it again.
    this.checkpoints.note();
  }

  static open(options: GraphStoreOptions): GraphStore {
    const schema = new SchemaInfo(options.schema); // validate before touching the disk
    const cache = new ReadCache(options.cacheEntries ?? DEFAULT_CACHE_ENTRIES, options.cacheBytes ?? defaultCacheBytes());
    const vectorOptions = resolveVectorOptions(options.vector);
    const queryTimeoutMs = checkedQueryTimeout(options.queryTimeoutMs ?? 0);
    const unlock = lockDirectory(options.path);
    let dbs: StoreDbs | undefined;
    try {
      const tooFull = tooFullToOpen(options.path);
      if (tooFull !== null) throw new StrandError("STORAGE_FULL", tooFull);
      orphanCommitFailureGuard();
      dbs = openDbs(options.path, options.mapSize);
      writeFormatVersion(dbs);
      // Before anything reads: the layout every module below expects is FORMAT_VERSION's.
      const formatMigration = migrateFormat(dbs, options.progress ?? silentProgress);
      // New ids sort after every stored one, whatever the clock says now (newest-id.ts).
      const newest = newestStoredId(dbs, schema);
      if (newest !== null) keepIdsAfter(newest);
      // Which member holds each vector type's vector, for the f32 encoding of `nodes` (vector-encoding.ts).
      setVectorMembers(dbs.nodes, vectorMembersOf(schema));
      // Before any index is loaded: migrated and revalidated records are what the indexes must describe.
      // It commits records and schema meta together; should an index load below throw, the data
      // stays migrated and consistent (runtime/migrate/migrate.ts).
      const schemaUpdate = migrateStore(dbs, schema, options.schema, cache, options.progress);
      // Loads each vector type's HNSW index from its files, or rebuilds it from LMDB.
      const vectors = VectorIndexes.open(dbs, schema, options.path, vectorOptions, options.progress);
      let bm25: Bm25Index | null = null;
      // BM25 off: whatever is indexed now goes stale, so forget the marker (the next enabled open rebuilds).
      if (options.bm25 === false) forgetBm25Marker(dbs);
      else {
        bm25 = new Bm25Index(dbs, options.schema, { stemmer: options.bm25Stemmer ?? "none" });
        if (!bm25.isCurrent()) new Bm25Writes(dbs, bm25).rebuild(options.progress);
      }
      return new GraphStore({
        schemaUpdate,
        formatMigration,
        dbs,
        schema,
        cache,
        vectors,
        bm25,
        checkpoints: new VectorCheckpoints(dbs, vectors, { ...DEFAULT_CHECKPOINT_POLICY, ...options.vectorCheckpoints }),
        log: new CommitLog(dbs, { ...DEFAULT_LOG_RETENTION, ...options.logRetention }, options.logOnDemand ?? false),
        unlock,
        dir: options.path,
        logging: options.commitLog !== false,
        foldAt: options.foldPendingAt ?? DEFAULT_FOLD_AT,
        foldSlice: options.foldSlice ?? DEFAULT_FOLD_SLICE,
        queryTimeoutMs,
      });
    } catch (error) {
      void dbs?.env.close();
      unlock();
      throw error;
    }
  }

  /** Runs fn synchronously against one consistent snapshot. */
  read<T>(fn: (db: QueryContext) => T): T {
    const transaction = this.dbs.env.useReadTransaction();
    try {
      return fn(this.context(transaction, null));
    } finally {
      transaction.done();
    }
  }

  /**
   * Runs fn (synchronous) in a write transaction. lmdb serializes writers and batches the
   * callbacks queued in one event turn into one LMDB transaction; each callback runs in its own
   * child transaction, so when fn throws only fn's writes are rolled back and the promise
   * rejects with its error. Resolves only once the commit is flushed to disk: with lmdb's
   * default `overlappingSync` the transaction promise means "committed and visible", so the
   * commit (commit.ts) additionally waits for `flushed`. A commit that fails (disk full, I/O
   * error) rejects with STORAGE_FULL or STORAGE_ERROR (store/commit-failure.ts): nothing of fn is
   * saved, and the store stays open for reads and later writes.
   */
  write<T>(fn: (db: QueryContext) => T): Promise<T> {
    return this.commits.write((writer) => fn(this.context(null, writer)));
  }

  /** A store on its own acknowledges a write once committed and flushed (query-store.ts). */
  replaysWithoutWriting(): boolean {
    return true;
  }

  async flushed(): Promise<void> {
    await this.dbs.env.flushed;
  }

  storedAnswer(key: string, notBefore: number): StoredAnswer | undefined {
    return storedAnswer(this.dbs, key, notBefore);
  }

  /** A query's context, over a read snapshot or in the write transaction; its time limit starts now. */
  private context(txn: Transaction | null, writer: GraphWriter | null): TxnQueryContext {
    return new TxnQueryContext(this.dbs, this.schema, txn, this.cache, this.vectors, this.bm25, writer, this.queryTimeoutMs);
  }

  /**
   * A bulk load (strand import): fn runs synchronously in one top-level write transaction of its
   * own, loading records through a RecordLoader. When fn throws, nothing it loaded is written.
   * Each adjacency list gets all its new entries in one rewrite at the end (adjacency/bulk-lists.ts),
   * then the postings (both report to `progress`); the vector indexes take the new vectors after
   * the commit. Its changes are not logged key by key: the log gets a gap, so every replica behind
   * the load re-seeds (commit-log/log-writes.ts appendGap). Resolves once flushed to disk.
   * `loaded`: the ids an import loaded in its earlier transactions (one per file), kept across them.
   */
  load<T>(fn: (loader: RecordLoader) => T, loaded?: LoadedIds, progress?: ProgressSink): Promise<T> {
    return this.commits.load((writer) => {
      const loader = new RecordLoader(this.dbs, this.schema, writer, loaded);
      const value = fn(loader);
      loader.finish(progress); // the adjacency lists and postings, before the commit
      return value;
    });
  }

  /**
   * Folds every deferred incoming adjacency entry into its list now (adjacency/pending-in.ts), in a
   * write of its own, recorded like any. Writes do it by themselves past `foldPendingAt`; this is
   * for tests and tools.
   */
  foldPendingIn(): Promise<void> {
    return this.commits.write(() => undefined, "fold");
  }

  /**
   * After a bulk operation spread over several transactions (strand import of several files):
   * tiny commits that let LMDB split the free-page list now, so the first writes after it do not
   * pay for that (runtime/store/freelist-settle.ts). Synchronous; returns the commits it ran.
   */
  settleFreeList(): number {
    return settleFreeList(this.dbs.env, this.dbs.meta);
  }

  /**
   * Makes the ids this process generates from now on sort after every UUID v7 the store holds
   * (records/newest-id.ts). The open does it; a replica does it again when it is promoted, because
   * the entries it applied meanwhile carry ids its old leader made, by another clock.
   */
  /**
   * A new leader's first entry: no change, but an entry of its own, committed before it takes
   * writes. A synchronous replica's acknowledgement counts only up to entries this leader sent it
   * (server/cluster/replica-acks.ts), so without one a write that commits nothing new (an
   * idempotent retry answered from its stored answer) waited for the next write to be acknowledged
   * (Raft's leader appends a no-op entry at the start of its term for the same reason). Resolves
   * with its sequence.
   */
  markLead(): Promise<number> {
    return this.commits.mark(0);
  }

  /**
   * A store whose log must continue a history that ended at `seq` (a tenant created again after it
   * was dropped) starts its log after it, with a change-less entry: a bookmark (Strand-After) from
   * the new history never names a sequence an old copy already holds. Resolves with the entry's sequence.
   */
  continueLogAfter(seq: number): Promise<number> {
    return this.commits.mark(seq);
  }

  keepNewIdsAfterStored(): void {
    const newest = newestStoredId(this.dbs, this.schema);
    if (newest !== null) keepIdsAfter(newest);
  }

  /**
   * A follower applies its leader's log entries `first, ..` (runtime/replication/follower.ts) in
   * one transaction: the changes, the entries themselves, then the vector indexes and the read
   * cache as a write of this store would. Resolves once flushed, with the sequence now reached.
   */
  applyLogEntries(first: number, frames: readonly Uint8Array[]): Promise<number> {
    return this.commits.apply(first, frames);
  }

  /** How a vector type's index was obtained at open (loaded from its files or rebuilt), and its size. */
  vectorIndexStatus(label: string): VectorIndexStatus {
    return this.vectors.status(label);
  }

  /**
   * The integrity check (runtime/verify/): every index, claim, adjacency list, BM25 statistic and
   * posting, and vector slot and HNSW point against the records, in one snapshot. Reads only.
   * Run it with no write in flight: the in-memory vector indexes catch up just after each commit.
   */
  verify(): VerifyReport {
    return verifyStore({ dbs: this.dbs, schema: this.schema, vectorIndex: (label) => this.vectors.contents(label) });
  }

  /** Decoded records and adjacency lists the read cache holds now (at most `cacheEntries`). */
  get cachedEntries(): number {
    return this.cache.size;
  }

  /** Their estimated bytes (at most `cacheBytes`). */
  get cachedBytes(): number {
    return this.cache.bytes;
  }

  /** File size, records per type and index sizes, for monitoring (walks keys: cache the answer). */
  stats(): StoreStats {
    return storeStats(this.dbs, this.schema.descriptor);
  }

  /**
   * A backup of this store to the new directory `out` (runtime/backup/): LMDB's copy of one
   * snapshot, taken while writes go on, with its manifest. Serves `GET /backup`.
   */
  backup(out: string, progress?: ProgressSink): Promise<BackupOutcome> {
    const version = this.dbs.meta.get(SCHEMA_VERSION_KEY);
    const schemaVersion = typeof version === "number" ? version : null;
    return writeBackup({ env: this.dbs.env, format: FORMAT_VERSION, schemaVersion }, out, progress);
  }

  /**
   * Checkpoints the vector indexes that changed since open or the last save now (the store does
   * it in the background, and close does it too); resolves when done, failures logged.
   */
  saveVectorIndexes(): Promise<void> {
    return this.checkpoints.run();
  }

  /** Background checkpoints written and failed since open, and the last failure. */
  vectorCheckpointStatus(): { saved: number; failed: number; lastError: string | null } {
    return { ...this.checkpoints.counts, lastError: this.checkpoints.lastError?.message ?? null };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      try {
        await this.log.close();
        await this.checkpoints.close();
      } finally {
        await closeEnv(this.dbs.env);
      }
    } finally {
      this.unlock();
    }
  }
}
