// Settling LMDB's free-page list after a bulk write, so that the writes after it do not pay.
//
// A bulk write spread over several transactions (an import of several files, a graph built in
// batches) frees the old copy of nearly every page each transaction rewrites. LMDB keeps those
// page numbers in the free-page database, right after such a write as a few multi-page records.
// lmdb-js's LMDB then rewrites those records at every commit and re-reads them to check them,
// merging the page numbers one at a time (mdb_freelist_save → mdb_midl_xmerge → mdb_midl_insert),
// until enough later commits have split the list into page-sized records, each rewritten only
// when it changes. Measured (bench/post-import.ts, 50k-100k nodes with 10 edges each built in
// batches of 10k edges): the first 1,000 single writes cost 1.9-3.5x the CPU of later ones, 76%
// of it in those merges. settleFreeList pays that once, at the end of the bulk operation: tiny
// commits that change nothing (one meta key put and removed in the same transaction, so it is
// never stored) but make LMDB save and split the list, as the first writes would have.
import type { Database, RootDatabase } from "lmdb";

/** The meta key the settling commits write and remove (never present after a commit). */
const SETTLE_KEY = "freelist_settle";
/** Settling commits per multi-page (overflow) page of the free-page database, and at most. */
export const COMMITS_PER_OVERFLOW_PAGE = 32;
export const MAX_SETTLE_COMMITS = 2_000;

/** How many settling commits the free-page list needs now: 0 when its records are all page-sized. */
export function settleCommitsNeeded(env: RootDatabase): number {
  const stats = env.getStats() as { free?: { overflowPages?: number } };
  const overflow = stats.free?.overflowPages ?? 0;
  return Math.min(MAX_SETTLE_COMMITS, overflow * COMMITS_PER_OVERFLOW_PAGE);
}

/**
 * Runs the settling commits the free-page list needs (synchronously: each is its own durable
 * commit, so call it where nothing else writes, e.g. at the end of `strand import`). Returns
 * how many ran. No data changes, so stopping half-way (a crash) loses nothing.
 */
export function settleFreeList(env: RootDatabase, meta: Database<unknown, string>): number {
  const commits = settleCommitsNeeded(env);
  for (let i = 0; i < commits; i++) {
    env.transactionSync(() => {
      meta.putSync(SETTLE_KEY, i);
      meta.removeSync(SETTLE_KEY);
    });
  }
  return commits;
}
