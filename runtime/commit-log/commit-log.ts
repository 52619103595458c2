// The commit log as the rest of the process sees it: the sequence number committed and flushed
// (what `Strand-Commit` reports), waiting for a later one (long-polling followers, `Strand-After`),
// reading entries for a follower, and trimming old entries to the retention in the background.
import type { StoreDbs } from "../store/dbs.js";
import { commitSeqOf, loggedTime, oldestLoggedSeq, readLogFrames, type LogFrames } from "./log-entries.js";
import { trimCommitLog } from "./log-writes.js";
import { DEFAULT_READER_POLICY, LogReaders, type ReaderPolicy } from "./log-readers.js";

export interface LogRetention {
  /** Keep at most this many entries (strand.toml [replication] log_retention_entries). */
  entries: number;
  /** ... and at most about this many bytes of them (log_retention_bytes). */
  bytes: number;
  /** How often the background trim looks, in ms. */
  intervalMs: number;
}

export const DEFAULT_LOG_RETENTION: Readonly<LogRetention> = { entries: 100_000, bytes: 256 * 1024 * 1024, intervalMs: 5_000 };

/** Entries removed per trimming transaction, so a large trim never holds the writer long. */
const TRIM_CHUNK = 2_000;

interface Waiter {
  seq: number;
  resolve: (reached: boolean) => void;
  timer: NodeJS.Timeout;
}

export class CommitLog {
  private seq: number;
  private waiters: Waiter[] = [];
  private timer: NodeJS.Timeout | null = null;
  private trimming: Promise<void> | null = null;
  private closed = false;
  /** The commit time (leader's clock) of the newest entry, when known. */
  private time: number | null;
  /** Null: every write is recorded (the log is not on demand). */
  private readonly readers: LogReaders | null;

  /**
   * `onDemand`: record and keep entries only while a follower may need them (log-readers.ts);
   * otherwise every write is recorded and the retention alone trims.
   */
  constructor(
    private readonly dbs: StoreDbs,
    readonly retention: LogRetention,
    onDemand: false | Partial<ReaderPolicy> = false,
  ) {
    this.seq = commitSeqOf(dbs);
    this.time = this.seq === 0 ? null : loggedTime(dbs, this.seq);
    // The grace after opening is for followers of the node before it stopped: there were some
    // only if its newest entry holds a write's changes (not a hollow entry, nor a load's gap).
    const newest = this.seq > 0 ? dbs.commitLog.get(this.seq) : undefined;
    const followedBefore = newest !== undefined && (newest.ops.length > 0 || newest.b !== undefined);
    const policy = { ...DEFAULT_READER_POLICY, ...onDemand };
    this.readers = onDemand === false ? null : new LogReaders(followedBefore ? policy : { ...policy, graceMs: 0 }, Date.now());
    this.schedule();
  }

  /** Whether a write starting now must record its changes (false: it leaves a hollow entry). */
  recording(now = Date.now()): boolean {
    return this.readers === null || this.readers.needed(now);
  }

  /** A follower (`id`) asked for the entries after `seq`: they are kept (and recorded) while it keeps asking. */
  askedBy(id: string, seq: number, now = Date.now()): void {
    this.readers?.asked(id, seq, now);
  }

  /** A seed backup at `seq` was handed out: its replica's entries from `seq` on are kept and recorded. */
  seeded(seq: number, now = Date.now()): void {
    this.readers?.seeded(seq, now);
  }

  /** The newest sequence number committed and flushed (0: none yet). */
  get committed(): number {
    return this.seq;
  }

  /** When the newest entry committed (ms, the writer's clock); null when it is not kept. */
  get committedAt(): number | null {
    return this.time;
  }

  /** The oldest entry still kept; null when none is. */
  oldest(): number | null {
    return oldestLoggedSeq(this.dbs);
  }

  /** The commit time of entry `seq` when it is kept. */
  timeOf(seq: number): number | null {
    return loggedTime(this.dbs, seq);
  }

  /** A transaction that logged `seq` (committed at `time`) is flushed: readers may be told. */
  advance(seq: number, time: number): void {
    if (seq <= this.seq) return;
    this.seq = seq;
    this.time = time;
    if (this.waiters.length === 0) return;
    const still: Waiter[] = [];
    for (const w of this.waiters) {
      if (w.seq <= seq) {
        clearTimeout(w.timer);
        w.resolve(true);
      } else still.push(w);
    }
    this.waiters = still;
  }

  /** Resolves true once `seq` is committed, false after `timeoutMs` (or at close) without it. */
  waitFor(seq: number, timeoutMs: number): Promise<boolean> {
    if (seq <= this.seq) return Promise.resolve(true);
    if (this.closed || timeoutMs <= 0) return Promise.resolve(false);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        seq,
        resolve,
        timer: setTimeout(() => {
          this.waiters = this.waiters.filter((w) => w !== waiter);
          resolve(false);
        }, timeoutMs),
      };
      this.waiters.push(waiter);
    });
  }

  /**
   * Entries after `after`, up to the committed sequence (see readLogFrames): never one whose flush
   * has not been seen, so a follower never gets ahead of `committed` (the divergence check of
   * server/replication/routes.ts compares its position with it) nor holds an entry a crash of this
   * node could undo.
   */
  read(after: number, maxCount: number, maxBytes: number): LogFrames | "gone" {
    return readLogFrames(this.dbs, after, maxCount, maxBytes, this.seq);
  }

  /** Trims to the retention now; resolves when done (failures are logged, never thrown). */
  trim(): Promise<void> {
    this.trimming ??= this.trimToRetention()
      .catch((error: unknown) => {
        console.error(`trimming the commit log failed: ${(error as Error).message}`);
      })
      .finally(() => {
        this.trimming = null;
      });
    return this.trimming;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    for (const w of this.waiters) {
      clearTimeout(w.timer);
      w.resolve(false);
    }
    this.waiters = [];
    if (this.trimming !== null) await this.trimming;
  }

  private schedule(): void {
    if (this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.trim().finally(() => this.schedule());
    }, this.retention.intervalMs);
    this.timer.unref();
  }

  private async trimToRetention(): Promise<void> {
    for (;;) {
      if (this.closed) return;
      const oldest = oldestLoggedSeq(this.dbs);
      if (oldest === null) return;
      const count = this.seq - oldest + 1;
      let keepFrom = Math.max(oldest, this.seq - this.retention.entries + 1);
      const bytes = logBytes(this.dbs);
      if (bytes > this.retention.bytes && count > 0) {
        // Entries are of similar size on average: drop the share of them over the budget.
        const over = Math.ceil(((bytes - this.retention.bytes) / bytes) * count);
        keepFrom = Math.max(keepFrom, oldest + over);
      }
      // On demand: nothing below the slowest follower (or seed) is kept; with none, only the newest.
      const floor = this.readers?.floor(Date.now()) ?? null;
      if (floor !== null) keepFrom = Math.max(keepFrom, floor);
      // The newest entry stays: a follower at the leader's sequence checks its time.
      keepFrom = Math.min(keepFrom, this.seq);
      if (keepFrom <= oldest) return;
      const removed = await this.dbs.env.childTransaction(() => trimCommitLog(this.dbs, keepFrom, TRIM_CHUNK));
      if (removed < TRIM_CHUNK) return;
    }
  }
}

/** The pages the log occupies (LMDB's own count: no scan). */
function logBytes(dbs: StoreDbs): number {
  const stats = dbs.commitLog.getStats() as {
    pageSize?: number;
    treeBranchPageCount?: number;
    treeLeafPageCount?: number;
    overflowPages?: number;
  };
  const pages = (stats.treeBranchPageCount ?? 0) + (stats.treeLeafPageCount ?? 0) + (stats.overflowPages ?? 0);
  return pages * (stats.pageSize ?? 4096);
}
