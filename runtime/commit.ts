// The commit: one write transaction of the store, carried through named stages (as redb's
// commit → commit_inner → durable_commit, or tantivy's PreparedCommit). Every way a change
// reaches the store is one Commit — a query's write, a fold of the pending incoming entries, a
// bulk load (strand import) and a replica applying its leader's log entries:
//
//   begin    before the transaction: the vector log searches count as pending; a load marks the
//            whole read cache as changing
//   prepare  last inside the transaction: the writer's buffered adjacency and edge_ends blocks,
//            the fold of the pending incoming entries when it is due, the hooks' BM25 postings,
//            then the commit-log entry of exactly what commits (a load: a gap instead); a
//            replica's apply stores its leader's entries and their changes here
//   settle   after the commit: the in-memory vector indexes follow LMDB (never before), the
//            checkpoints hear of it, the commit is flushed to disk, the log's position advances
//   release  always, committed or not: the pending vector log and the read-cache keys settle
//
// A commit that fails (disk full, I/O error) rejects with STORAGE_FULL or STORAGE_ERROR
// (store/commit-failure.ts): nothing of it is saved and the store goes on.
//
// Acknowledged means flushed: a query's write runs as an lmdb child transaction inside lmdb's
// batched write transaction (a throwing query rolls back only its own writes), and resolves only
// once the batch is committed *and* flushed (`env.flushed`: lmdb's default overlappingSync
// resolves a commit before its fsync). So a write a client saw acknowledged survives kill -9 (the
// seeded crash tests check it). A bulk load is not noted key by key for the commit log: noting,
// re-reading and encoding every key of a million-edge import into one entry was a third of its
// time; it leaves a gap instead (commit-log/log-writes.ts appendGap), and a replica behind it
// re-seeds from a backup, which holds the load.
import { PendingInCount } from "./adjacency/pending-in-count.js";
import { type FoldSlice, foldPendingIn, foldPendingSlice } from "./adjacency/pending-in-writes.js";
import { ChangeRecorder, recordingDbs } from "./commit-log/change-recorder.js";
import type { CommitLog } from "./commit-log/commit-log.js";
import { appendCommit, appendGap, appendHollow, appendMark, applyCommitFrames } from "./commit-log/log-writes.js";
import type { Bm25Index } from "./search/bm25-index.js";
import { Bm25Writes } from "./search/bm25-writes.js";
import { storageFailure } from "./store/commit-failure.js";
import type { StoreDbs } from "./store/dbs.js";
import type { ReadCache } from "./store/read-cache.js";
import type { SchemaInfo } from "./store/schema-info.js";
import type { VectorLog } from "./vector/changes.js";
import type { VectorCheckpoints } from "./vector/vector-checkpoints.js";
import type { VectorIndexes } from "./vector/vector-indexes.js";
import { VectorSlots } from "./vector/vector-slots.js";
import { GraphWriter } from "./write/graph-writer.js";

/** What a commit touches besides the transaction: the store's components, as opened. */
export interface CommitParts {
  readonly dbs: StoreDbs;
  readonly schema: SchemaInfo;
  readonly cache: ReadCache;
  readonly vectors: VectorIndexes;
  readonly checkpoints: VectorCheckpoints;
  readonly log: CommitLog;
  /** null when BM25 is off. */
  readonly bm25: Bm25Index | null;
  /** The data directory, to tell a full disk from other failed commits. */
  readonly dir: string;
  /** false: nothing is appended to the commit log (the benchmark's baseline only). */
  readonly logging: boolean;
  /** How many deferred incoming entries make the next write fold a slice of them (adjacency/pending-in-count.ts). */
  readonly foldAt: number;
  /** How many entries such a write folds at least (0: all). */
  readonly foldSlice: number;
}

/**
 * `write`: a query's, in a child transaction of lmdb's batch; `fold`: the same, folding whatever
 * is pending; `load`: a bulk load in a top-level transaction of its own, not logged key by key;
 * `apply`: a replica's, storing its leader's entries; `mark`: a new leader's first entry, with no
 * change, logged even so (graph-store.ts markLead).
 */
export type CommitKind = "write" | "fold" | "load" | "apply" | "mark";

/** The store's commits: what every commit of the store shares, and the way in for each kind. */
export class Commits {
  /** Notes the keys each write changes, for its commit-log entry (commit-log/change-recorder.ts). */
  readonly recorder = new ChangeRecorder();
  /** `dbs` as a query's writers get them: recording their changes, unless the log is off. */
  readonly writeDbs: StoreDbs;
  /** The writer's search hook over writeDbs, and over the plain databases for a load (null: BM25 off). */
  readonly search: { readonly recorded: Bm25Writes | null; readonly plain: Bm25Writes | null };
  readonly pendingIn: PendingInCount;
  /** Where the next write's fold starts in the pending keys (null: at the first); set once a fold commits. */
  foldFrom: Uint8Array | null = null;

  constructor(readonly parts: CommitParts) {
    this.writeDbs = parts.logging ? recordingDbs(parts.dbs, this.recorder) : parts.dbs;
    this.search = {
      recorded: parts.bm25 === null ? null : new Bm25Writes(this.writeDbs, parts.bm25),
      plain: parts.bm25 === null ? null : new Bm25Writes(parts.dbs, parts.bm25),
    };
    this.pendingIn = new PendingInCount(parts.dbs.inPending.getKeysCount(), parts.foldAt, parts.foldSlice);
  }

  /**
   * A query's write (`fold`: also folds whatever incoming entries are pending): fn runs
   * synchronously in a child transaction of lmdb's batch, so when it throws only its own writes
   * roll back. Resolves once the commit is flushed to disk.
   */
  write<T>(fn: (writer: GraphWriter) => T, kind: "write" | "fold" = "write"): Promise<T> {
    return this.run(new Commit(this, kind), (body) => this.parts.dbs.env.childTransaction(body), fn);
  }

  /** A change-less entry of its own, after `after` at least (log-writes.ts appendMark); resolves with its sequence. */
  async mark(after: number): Promise<number> {
    const commit = new Commit(this, "mark", after);
    await this.run(
      commit,
      (body) => this.parts.dbs.env.childTransaction(body),
      () => undefined,
    );
    return commit.seq;
  }

  /** A bulk load: fn runs synchronously in one top-level write transaction of its own; `finish` before prepare. */
  load<T>(fn: (writer: GraphWriter) => T): Promise<T> {
    return this.run(new Commit(this, "load"), (body) => this.parts.dbs.env.transactionSync(body), fn);
  }

  /** A replica stores its leader's entries `first, ..` and their changes; resolves with the sequence reached. */
  async apply(first: number, frames: readonly Uint8Array[]): Promise<number> {
    const commit = new Commit(this, "apply");
    try {
      await this.parts.dbs.env.childTransaction(() => commit.prepareApply(first, frames));
      await commit.settle();
      return commit.seq;
    } catch (error) {
      throw (await storageFailure(error, this.parts.dir)) ?? error;
    } finally {
      commit.release();
    }
  }

  private async run<T>(commit: Commit, open: (body: () => T) => T | Promise<T>, fn: (writer: GraphWriter) => T): Promise<T> {
    try {
      const writer = commit.begin();
      const value = await open(() => {
        commit.opened();
        try {
          const result = fn(writer);
          commit.prepare(writer);
          return result;
        } catch (error) {
          commit.abandon(writer);
          throw error;
        }
      });
      await commit.settle();
      return value;
    } catch (error) {
      throw (await storageFailure(error, this.parts.dir)) ?? error;
    } finally {
      commit.release();
    }
  }
}

/** One write transaction of the store, stage by stage (see the top of this file). */
export class Commit {
  /** Read-cache keys this commit marked as changing. */
  readonly touched: string[] = [];
  /** Vector changes, searchable as pending (in snapshots that contain them) until applied or failed. */
  readonly vectorLog: VectorLog;
  /** The commit-log sequence this commit reached (0: it logged nothing). */
  seq = 0;
  /** The commit time its entry holds (an applied entry's: its leader's clock): what `log.committedAt` says after it. */
  private time = 0;
  /** Whether it folded every pending incoming entry; then how many it added after, else by how many it changed their count. */
  private foldedAll = false;
  private deferred = 0;
  /** The slice of pending entries it folded, if it folded one. */
  private foldedSlice: FoldSlice | null = null;
  /** Whether a write records its changes in its log entry, or leaves a hollow one (no follower needs them). */
  private readonly recording: boolean;

  constructor(
    private readonly commits: Commits,
    readonly kind: CommitKind,
    /** A mark's entry goes after this sequence at least. */
    private readonly markAfter = 0,
  ) {
    this.vectorLog = commits.parts.vectors.newLog();
    this.recording = commits.parts.log.recording();
  }

  private get parts(): CommitParts {
    return this.commits.parts;
  }

  /** Before the transaction: the writer every change of this commit goes through. */
  begin(): GraphWriter {
    const bulk = this.kind === "load";
    // A load marks the whole cache instead of each key it changes (read-cache.ts).
    if (bulk) this.parts.cache.beginBulkWrite();
    const dbs = bulk ? this.parts.dbs : this.commits.writeDbs;
    return new GraphWriter(dbs, this.parts.schema, this.parts.cache, this.touched, {
      search: bulk ? this.commits.search.plain : this.commits.search.recorded,
      vectors: new VectorSlots(dbs, this.vectorLog),
      deferIn: !bulk,
    });
  }

  /** Inside the transaction, before the body: a load appends to the lists directly, after every pending entry. */
  opened(): void {
    if (this.kind === "load") foldPendingIn(this.parts.dbs);
    else if (this.parts.logging && this.recording && this.kind !== "mark") this.commits.recorder.begin();
  }

  /** Last inside the transaction: what the writer still holds, the fold, the hooks, the log entry. */
  prepare(writer: GraphWriter): void {
    writer.flushBuffered(); // every edge has both list entries
    this.foldIfDue(writer);
    writer.finish(); // the BM25 postings gathered per term, one write each
    this.logEntry();
  }

  /** The body threw: its transaction rolls back, and what was gathered for it is dropped. */
  abandon(writer: GraphWriter): void {
    this.commits.recorder.discard();
    writer.abandon();
  }

  /**
   * The write that finds enough entries pending folds a slice of them, its own included
   * (adjacency/pending-in-count.ts); a `fold` folds them all. It is a write of this store (a
   * replica's store never folds by itself), recorded like any, as one op a follower replays
   * (FOLD_OP_KEY), in order after the write's own pending puts: a follower must hold them before
   * it folds. A load folded everything before its body (opened).
   */
  private foldIfDue(writer: GraphWriter): void {
    if (this.kind === "mark") return; // changes nothing, folds nothing
    if (this.kind === "load") {
      this.foldedAll = true;
      return;
    }
    const fold = this.kind === "fold" ? "all" : this.commits.pendingIn.foldFor(writer.deferredIn);
    const { dbs } = this.parts; // unrecorded: logged as the one op below
    if (fold === "all") {
      foldPendingIn(dbs);
      this.foldedAll = true; // the write's own deferred entries are in their lists too
      this.noteFold(null);
      return;
    }
    this.deferred = writer.deferredIn;
    if (fold === 0) return;
    const done = foldPendingSlice(dbs, this.commits.foldFrom, fold);
    this.deferred -= done.folded;
    this.foldedSlice = done.slice;
    this.noteFold(done.slice);
  }

  /** The fold's op in the log entry: null for a fold of all. */
  private noteFold(slice: FoldSlice | null): void {
    if (this.parts.logging) this.commits.recorder.noteFold(slice);
  }

  /** Last, in the same transaction: the log entry holds exactly what commits. */
  private logEntry(): void {
    if (!this.parts.logging) return;
    this.time = Date.now();
    if (this.kind === "mark") {
      this.seq = appendMark(this.parts.dbs, this.markAfter, this.time);
      return;
    }
    if (this.kind === "load") {
      this.seq = appendGap(this.parts.dbs, this.time);
      return;
    }
    if (!this.recording) {
      this.seq = appendHollow(this.parts.dbs, this.time);
      return;
    }
    const { ops, packed } = this.commits.recorder.take(this.parts.dbs);
    // A write that changed nothing (an UPDATE of no item) has nothing to replicate.
    if (ops.length > 0 || packed !== null)
      this.seq = appendCommit(this.parts.dbs, ops, this.vectorLog.changes, this.touched, this.time, packed);
  }

  /** A replica's prepare: its leader's entries stored and applied, their cache keys marked, their vector changes kept. */
  prepareApply(first: number, frames: readonly Uint8Array[]): void {
    const done = applyCommitFrames(this.parts.dbs, first, frames);
    for (const key of done.keys) this.parts.cache.beginWrite(key, this.touched);
    for (const change of done.vec) this.vectorLog.changes.push(change); // a spread of ~125k+ overflowed the stack
    this.seq = done.seq;
    this.time = done.time;
    this.foldedAll = done.pending.folded;
    this.deferred = done.pending.delta;
  }

  /** After the commit: the vector indexes, the checkpoints, the durable flush, the log's position. */
  async settle(): Promise<void> {
    this.commits.pendingIn.committed(this.foldedAll, this.deferred);
    if (this.foldedSlice !== null) this.commits.foldFrom = this.foldedSlice.until;
    this.parts.vectors.apply(this.vectorLog);
    if (this.vectorLog.changes.length > 0) this.parts.checkpoints.note();
    await this.parts.dbs.env.flushed;
    if (this.seq > 0) this.parts.log.advance(this.seq, this.time);
  }

  /** Committed and flushed, or failed: new snapshots include it, so reads may cache again. */
  release(): void {
    this.parts.vectors.settle(this.vectorLog);
    this.parts.cache.settle(this.touched);
    if (this.kind === "load") this.parts.cache.settleBulkWrite();
  }
}
