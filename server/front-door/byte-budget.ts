// Bytes the front door holds for its clients, bounded in sum. Request bodies: bodies being read,
// and bodies handed to the engine until their response ends. Every body is bounded by the body
// limit, but nothing bounded their sum: 400 connections each sending 8 MiB and never finishing
// held 3.2 GB, and a few thousand would have had the server killed for want of memory. Answers:
// what was handed to sockets and not yet taken by the system, i.e. answers clients do not read:
// 150 connections asking for a 27 MB answer and not reading held 4.5 GB. Past a budget the
// request is answered 503 SERVER_BUSY (Retry-After) instead, by the front door itself (the engine
// may be what holds the bodies); one answer alone always passes. With the budgets, the same 400
// uploads hold the server at about 760 MB RSS and the rest are refused, and 100 readers that do
// not read hold it near 1.5 GB. A chunk read is taken from the budget and given back when its
// request's response ends or its client goes away; an answer is counted from when the engine
// hands it over until the system has taken all of it (its response's close). The engine still
// computes every answer it starts (a query's own limit is runtime/query/query-deadline.ts).
import { StrandError } from "../../core/errors.js";

/** The default budget of bodies: 64 bodies at the default body limit (8 MiB). */
export const DEFAULT_BODY_MEMORY_LIMIT_BYTES = 512 * 1024 * 1024;
/** The default budget of answers not yet taken by the system. */
export const DEFAULT_ANSWER_MEMORY_LIMIT_BYTES = 1024 * 1024 * 1024;

/** Seconds a client refused with SERVER_BUSY is told to wait (Retry-After). */
export const BUSY_RETRY_AFTER_SECONDS = 1;

/** A budget's count of bytes held, in memory both doors share (start.ts: the engine's and the standby's). */
export function budgetCell(): SharedArrayBuffer {
  return new SharedArrayBuffer(BigInt64Array.BYTES_PER_ELEMENT);
}

export class ByteBudget {
  private readonly held: BigInt64Array;
  private readonly limit: bigint;

  /** `cell` (budgetCell) when another thread's door shares this budget; a cell of its own otherwise. */
  constructor(
    readonly limitBytes: number,
    cell: SharedArrayBuffer = budgetCell(),
  ) {
    this.held = new BigInt64Array(cell);
    this.limit = BigInt(limitBytes);
  }

  /**
   * Takes `bytes` when they fit in what is left, or when nothing is held (so one thing larger
   * than the whole budget still passes, alone); false (nothing taken) otherwise.
   */
  take(bytes: number): boolean {
    const n = BigInt(bytes);
    for (;;) {
      const held = Atomics.load(this.held, 0);
      if (held + n > this.limit && held > 0n) return false;
      if (Atomics.compareExchange(this.held, 0, held, held + n) === held) return true;
    }
  }

  /** Gives back bytes taken earlier (their request was answered, or its client went away). */
  give(bytes: number): void {
    Atomics.sub(this.held, 0, BigInt(bytes));
  }

  /** Bytes held now. */
  get heldBytes(): number {
    return Number(Atomics.load(this.held, 0));
  }
}

export function bodiesBusy(limitBytes: number): StrandError {
  return new StrandError(
    "SERVER_BUSY",
    `the request bodies the server holds, not yet answered, would pass its limit of ${limitBytes} bytes with this one; retry shortly. The limit is set by body_memory_limit under [server] in strand.toml, strand serve --body-memory-limit or STRAND_BODY_MEMORY_LIMIT`,
  );
}

export function answersBusy(limitBytes: number): StrandError {
  return new StrandError(
    "SERVER_BUSY",
    `the answers the server holds that their clients have not read yet would pass its limit of ${limitBytes} bytes with this one; retry shortly. The limit is set by answer_memory_limit under [server] in strand.toml, strand serve --answer-memory-limit or STRAND_ANSWER_MEMORY_LIMIT`,
  );
}
