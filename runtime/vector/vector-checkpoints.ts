// Background checkpoints of the vector indexes: after enough vector changes (or some time after
// the first unsaved one), save each changed HNSW index (runtime/vector/index-files.ts: temp file,
// fsync, read back, rename) and prune the LMDB vector log up to what was saved. A crash then
// costs the open a replay of the changes since the last checkpoint, not a rebuild.
//
// Saving is synchronous (hnswlib must not change while it writes), so it runs outside any write,
// on its own event-loop turn, and never more than about a tenth of the time: after a save that
// took t, the next waits at least 10·t.
import type { StoreDbs } from "../store/dbs.js";
import type { VectorIndexes } from "./vector-indexes.js";
import { pruneVectorLog } from "./vector-log-writes.js";

export interface CheckpointPolicy {
  /** Save once this many vector changes are unsaved (default 1000). */
  changes: number;
  /** ... or this many seconds after the first unsaved change (default 30). */
  seconds: number;
}

export const DEFAULT_CHECKPOINT_POLICY: Readonly<CheckpointPolicy> = { changes: 1000, seconds: 30 };

export class VectorCheckpoints {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private earliest = 0;
  private closed = false;
  /** Checkpoints written and failed since open (for tests and diagnostics). */
  readonly counts = { saved: 0, failed: 0 };
  lastError: Error | null = null;

  constructor(
    private readonly dbs: StoreDbs,
    private readonly vectors: VectorIndexes,
    private readonly policy: CheckpointPolicy,
  ) {}

  /** After a write was applied (or at open): schedule a checkpoint if one is due. */
  note(): void {
    if (this.closed || this.running !== null) return;
    const unsaved = this.vectors.unsavedChanges();
    if (unsaved === 0) return;
    const due = unsaved >= this.policy.changes ? 0 : this.policy.seconds * 1000;
    const at = Math.max(Date.now() + due, this.earliest);
    if (this.timer !== null) {
      if (due > 0) return; // the time-based one is already waiting
      clearTimeout(this.timer);
    }
    // setTimeout takes at most 2^31 - 1 ms (a longer delay would fire at once).
    this.timer = setTimeout(
      () => {
        this.timer = null;
        void this.run();
      },
      Math.min(at - Date.now(), 2 ** 31 - 1),
    );
    this.timer.unref();
  }

  /** Saves every changed index now and prunes the log; failures are logged, never thrown. */
  run(): Promise<void> {
    if (this.running !== null) return this.running;
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const started = Date.now();
    this.running = (async () => {
      try {
        let saved: ReturnType<VectorIndexes["save"]>;
        try {
          saved = this.vectors.save();
        } catch (error) {
          this.counts.failed++;
          this.lastError = error as Error;
          this.earliest = Date.now() + Math.max(10 * (Date.now() - started), 5000);
          console.error(`vector index checkpoint failed (the previous one stays in use): ${(error as Error).message}`);
          return;
        }
        this.counts.saved += saved.length;
        this.earliest = Date.now() + 10 * (Date.now() - started);
        for (const { label, generation } of saved) await this.dbs.env.childTransaction(() => pruneVectorLog(this.dbs, label, generation));
      } catch (error) {
        console.error(`pruning the vector log failed: ${(error as Error).message}`);
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  /** A final checkpoint (clean close); throws when saving fails. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (this.running !== null) await this.running;
    const saved = this.vectors.save();
    for (const { label, generation } of saved) await this.dbs.env.childTransaction(() => pruneVectorLog(this.dbs, label, generation));
  }
}
