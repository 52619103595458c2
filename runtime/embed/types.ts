// What every embedding provider is: a model string and a batch embed call. Its own module so the
// providers (hash, openai, gemini, local) and the factory that picks one (embedder.ts) do not
// import each other, and the query runner names what it needs without importing a provider.

/** How a query's time limit reaches an embedding call (query/query-deadline.ts QueryBudget). */
export interface EmbedOptions {
  /** Aborted when the query's time is up: a provider's request stops (its reason is QUERY_TIMEOUT). */
  signal?: AbortSignal | undefined;
  /** Throws QUERY_TIMEOUT once the time is up: work done synchronously (hash) calls it as it goes. */
  check?: (() => void) | undefined;
}

export interface Embedder {
  /** The model string it was created from. */
  readonly model: string;
  /** One vector per text, in order; batched where the provider's API allows. */
  embed(texts: string[], options?: EmbedOptions): Promise<number[][]>;
}

/** What the query runner needs of an embedding provider. */
export interface TextEmbedder {
  /** The model string, when the provider knows it (every Embedder does). */
  readonly model?: string;
  embed(texts: string[], options?: EmbedOptions): Promise<number[][]>;
}

/** The embedder for a model string (`#[model("..")]`), or for the project's default when null. */
export type EmbedderFor = (model: string | null) => TextEmbedder;
