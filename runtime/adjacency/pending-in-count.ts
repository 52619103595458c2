// When the pending incoming entries (pending-in.ts) are folded into their lists: about how many
// are pending — counted at open, then by what this store's commits deferred since the last fold
// and what its leader's applied entries put and removed — and the write that finds `foldAt` or
// more folds them all. A replica never writes, so it never folds by itself: its leader's folds
// reach it as changes; once promoted, its count is already right.

/** See the file's comment. Default of GraphStoreOptions.foldPendingAt. */
export const DEFAULT_FOLD_AT = 16384;

export class PendingInCount {
  constructor(
    private pending: number,
    /** 0: every write folds. */
    private readonly foldAt: number,
  ) {}

  /** Whether a write that deferred `deferred` more entries must fold them all. */
  due(deferred: number): boolean {
    return this.pending + deferred >= this.foldAt;
  }

  /** A commit has gone through: it folded (then `delta` counts what came after), or added `delta` (negative: removed). */
  committed(folded: boolean, delta: number): void {
    this.pending = Math.max(0, (folded ? 0 : this.pending) + delta);
  }
}
