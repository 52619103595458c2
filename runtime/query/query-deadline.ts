// The time limit of one query (strand.toml `[server] query_timeout_ms`, strand serve
// --query-timeout): the engine runs a query on its one thread, so a query that reads half the
// graph or searches a long path holds every other request back until it ends. The query's
// context (query/context.ts) ticks at every record, adjacency list, index entry, BM25 postings
// block and write it makes; once the limit has passed, the next look at the clock throws
// QUERY_TIMEOUT (503), which aborts the query's read or rolls back its write (the store's child
// transaction), and the engine goes on. The query runner (query-runner.ts) gives one request one
// budget: the embedding calls between its attempts and each attempt's callback spend it, and a
// write's BM25 postings tick it up to the commit (the tokens of a large text count). Not counted:
// a write's wait for the write lock, one HNSW search call (bounded by k and ef), and writing the
// answer out (a 600 MB answer takes seconds after the query is done).
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
  /**
   * @param remainingMs how long the query may still run, from now
   * @param reportedMs the limit its error names (the whole limit, when part of it was spent before)
   */
  constructor(
    remainingMs: number,
    private readonly writes: boolean,
    private readonly now: () => number = performance.now.bind(performance),
    private readonly reportedMs: number = remainingMs,
  ) {
    this.endsAt = now() + remainingMs;
  }

  /** One step of the query's work; throws QUERY_TIMEOUT once the limit has passed. */
  tick(): void {
    if (++this.ticks % TICKS_PER_LOOK !== 0) return;
    if (this.now() > this.endsAt) throw queryTimeout(this.reportedMs, this.writes);
  }

  /** `n` steps at once (the tokens of one text): looks at the clock when they cross a look. */
  tickMany(n: number): void {
    const before = this.ticks;
    this.ticks += n;
    if (Math.floor(before / TICKS_PER_LOOK) === Math.floor(this.ticks / TICKS_PER_LOOK)) return;
    if (this.now() > this.endsAt) throw queryTimeout(this.reportedMs, this.writes);
  }
}

/**
 * One request's time: the query's limit, spent by each part that counts (an attempt's callback,
 * an embedding call) and not by the waits between them (the write lock).
 */
export class QueryBudget {
  private spent = 0;

  constructor(
    /** The whole limit in ms; 0: none. */
    readonly limitMs: number,
    private readonly writes: boolean,
    private readonly now: () => number = performance.now.bind(performance),
  ) {}

  /** A deadline for the next part, from now: what is left of the limit; null when there is none. */
  deadline(): QueryDeadline | null {
    return this.limitMs === 0 ? null : new QueryDeadline(this.remainingMs, this.writes, this.now, this.limitMs);
  }

  /** What is left, in ms (at least 1 while any is left; 0 when there is no limit at all). */
  get remainingMs(): number {
    if (this.limitMs === 0) return 0;
    return Math.max(1, this.limitMs - this.spent);
  }

  /** Runs `part` and counts its time, thrown or not; throws QUERY_TIMEOUT first when nothing is left. */
  spend<T>(part: () => T): T {
    this.checkLeft();
    const started = this.now();
    try {
      return part();
    } finally {
      this.spent += this.now() - started;
    }
  }

  /** As spend, for a part that waits (an embedding call); `deadline` aborts it when the budget runs out. */
  async spendAsync<T>(part: (deadline: AbortSignal | undefined, check: () => void) => Promise<T>): Promise<T> {
    this.checkLeft();
    const started = this.now();
    const limit = this.deadline();
    const controller = limit === null ? null : new AbortController();
    // The timer aborts a provider's request; `check` stops work done synchronously (hash) by the clock.
    const timer =
      controller === null ? null : setTimeout(() => controller.abort(queryTimeout(this.limitMs, this.writes)), this.remainingMs);
    try {
      return await part(controller?.signal, () => limit?.tick());
    } catch (error) {
      if (controller?.signal.aborted === true) throw controller.signal.reason;
      throw error;
    } finally {
      if (timer !== null) clearTimeout(timer);
      this.spent += this.now() - started;
    }
  }

  private checkLeft(): void {
    if (this.limitMs > 0 && this.spent >= this.limitMs) throw queryTimeout(this.limitMs, this.writes);
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
