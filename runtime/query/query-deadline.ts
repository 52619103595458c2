// The time limit of one query (strand.toml `[server] query_timeout_ms`, strand serve
// --query-timeout): the engine runs a query on its one thread, so a query that reads half the
// graph or searches a long path holds every other request back until it ends. The query's
// context (query/context.ts) ticks at every record, adjacency list, index entry, BM25 postings
// block and write it makes; once the limit has passed, the next look at the clock throws
// QUERY_TIMEOUT (503), which aborts the query's read or rolls back its write (the store's child
// transaction), and the engine goes on. Not counted: one HNSW search call (bounded by k and ef),
// and writing the answer out (a 600 MB answer takes seconds after the query is done).
import { StrandError } from "../../core/errors.js";

/** The limit `strand serve` and `strand mcp` give a query unless told otherwise. */
export const DEFAULT_QUERY_TIMEOUT_MS = 60_000;
/** The largest limit taken (a day); 0 is no limit at all. */
export const MAX_QUERY_TIMEOUT_MS = 86_400_000;

/** Ticks between looks at the clock: a tick is one record or list, microseconds at most. */
const TICKS_PER_LOOK = 64;

export class QueryDeadline {
  private ticks = 0;
  private readonly endsAt: number;

  /**
   * @param limitMs how long the query may run, from now
   * @param writes whether it runs in a write transaction (its error then says nothing was kept)
   */
  constructor(
    private readonly limitMs: number,
    private readonly writes: boolean,
    private readonly now: () => number = performance.now.bind(performance),
  ) {
    this.endsAt = now() + limitMs;
  }

  /** One step of the query's work; throws QUERY_TIMEOUT once the limit has passed. */
  tick(): void {
    if (++this.ticks % TICKS_PER_LOOK !== 0) return;
    if (this.now() > this.endsAt) throw queryTimeout(this.limitMs, this.writes);
  }
}

/**
 * A query's deadline `limitMs` from now (a write's counted from when its callback starts, not
 * from its wait for the write lock); null for 0, no limit.
 */
export function deadlineAfter(limitMs: number, writes: boolean): QueryDeadline | null {
  return limitMs > 0 ? new QueryDeadline(limitMs, writes) : null;
}

/** GraphStoreOptions.queryTimeoutMs, checked. */
export function checkedQueryTimeout(ms: number): number {
  if (!Number.isInteger(ms) || ms < 0) throw new RangeError(`queryTimeoutMs must be a whole number of ms, 0 for no limit, got ${ms}`);
  return ms;
}

export function queryTimeout(limitMs: number, writes: boolean): StrandError {
  return new StrandError(
    "QUERY_TIMEOUT",
    `the query ran longer than the time limit of ${limitMs} ms and was stopped${writes ? "; nothing it wrote was kept" : ""}. The limit is set by query_timeout_ms under [server] in strand.toml, strand serve --query-timeout or STRAND_QUERY_TIMEOUT`,
  );
}
