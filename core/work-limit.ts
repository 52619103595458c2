// The time limit of the query a piece of work belongs to, as the parts below the query see it
// (runtime/query/query-deadline.ts QueryDeadline is the one kind): work that grows with a record's
// text (a document's tokens and postings) ticks it, and it throws QUERY_TIMEOUT once time is up.
export interface WorkLimit {
  /** One step of work. */
  tick(): void;
  /** `n` steps at once (the tokens of one text). */
  tickMany(n: number): void;
}
