// The bytes of request bodies the front door holds for requests not yet answered: bodies being
// read, and bodies handed to the engine until their response ends. Every body is bounded by the
// body limit, but without this nothing bounds their sum: 400 connections each sending 8 MiB and
// never finishing held 3.2 GB of the server's memory, and a few thousand would have it killed for
// want of memory. Past the budget a request is refused with 503 SERVER_BUSY (Retry-After) instead.
import { StrandError } from "../../core/errors.js";

/** The default budget: 64 bodies at the default body limit (8 MiB). */
export const DEFAULT_BODY_MEMORY_LIMIT_BYTES = 512 * 1024 * 1024;

/** Seconds a client refused with SERVER_BUSY is told to wait (Retry-After). */
export const BUSY_RETRY_AFTER_SECONDS = 1;

export class BodyBudget {
  private held = 0;

  constructor(readonly limitBytes: number) {}

  /** Takes `bytes` when they fit in what is left; false (nothing taken) when they do not. */
  take(bytes: number): boolean {
    if (this.held + bytes > this.limitBytes) return false;
    this.held += bytes;
    return true;
  }

  /** Gives back bytes taken earlier (their request was answered, or its client went away). */
  give(bytes: number): void {
    this.held -= bytes;
  }

  /** Bytes held now. */
  get heldBytes(): number {
    return this.held;
  }
}

export function serverBusy(limitBytes: number): StrandError {
  return new StrandError(
    "SERVER_BUSY",
    `the server already holds ${limitBytes} bytes of request bodies not yet answered; retry shortly. The limit is set by body_memory_limit under [server] in strand.toml, strand serve --body-memory-limit or STRAND_BODY_MEMORY_LIMIT`,
  );
}
