// How a running query gets embeddings without waiting inside its transaction. Embedding calls go
// to a provider over the network, which must never happen while an LMDB transaction is open.
// So a query first runs speculatively: each `Embed(text)` not yet known records the text as
// missing and yields a placeholder; the attempt is then thrown away (rolled back), the missing
// texts are embedded, and the query runs again with every embedding at hand.

export interface EmbeddingLookup {
  /** The embedding of text under model (null = the configured default), or undefined when not known yet. */
  get(text: string, model: string | null): number[] | undefined;
  /**
   * Records a text the query needs and returns a stand-in vector (of the model's dimension once
   * one embedding of it is known) so the attempt can go on collecting every text it needs; the
   * runner then abandons the attempt and retries once they are embedded.
   */
  miss(text: string, model: string | null): number[];
}

/** Thrown (and caught by the query runner) to abandon an attempt that lacked embeddings. */
export class EmbeddingsMissing extends Error {
  constructor() {
    super("embeddings missing: the attempt is retried after embedding");
    this.name = "EmbeddingsMissing";
  }
}
