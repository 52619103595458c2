// When the pending incoming entries (pending-in.ts) are folded into their lists: about how many
// are pending — counted at open, then by what this store's commits deferred and folded and what
// its leader's applied entries put, removed and folded. A write that finds `foldAt` or more folds
// a slice of them: whole lists in key order from where the last slice stopped, at least `slice`
// entries (and at least as many as it deferred itself), so the pending database stays near
// `foldAt` entries and no write rewrites every list at once (a fold of all 16,384 entries
// rewrote every incoming list of a 5,000-node graph in one transaction: a 100-170 ms request,
// and a data file that had to hold the whole adjacency_in twice). A replica never writes, so it
// never folds by itself: its leader's folds reach it as changes; once promoted, its count is
// already right.

/** See the file's comment. Default of GraphStoreOptions.foldPendingAt. */
export const DEFAULT_FOLD_AT = 8192;
/** See the file's comment. Default of GraphStoreOptions.foldSlice. */
export const DEFAULT_FOLD_SLICE = 1024;

export class PendingInCount {
  constructor(
    private pending: number,
    /** 0: every write folds everything. */
    private readonly foldAt: number,
    /** 0: a fold takes everything. */
    private readonly slice: number,
  ) {}

  /** What a write that deferred `deferred` more entries folds: nothing (0), at least this many entries, or all. */
  foldFor(deferred: number): number | "all" {
    if (this.pending + deferred < this.foldAt) return 0;
    return this.foldAt === 0 || this.slice === 0 ? "all" : Math.max(this.slice, deferred);
  }

  /** A commit has gone through: it folded everything (then `delta` counts what came after), or changed the count by `delta`. */
  committed(foldedAll: boolean, delta: number): void {
    this.pending = Math.max(0, (foldedAll ? 0 : this.pending) + delta);
  }
}
