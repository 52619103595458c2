// What every embedding provider is: a model string and a batch embed call. Its own module so the
// providers (hash, openai, gemini, local) and the factory that picks one (embedder.ts) do not
// import each other.

export interface Embedder {
  /** The model string it was created from. */
  readonly model: string;
  /** One vector per text, in order; batched where the provider's API allows. */
  embed(texts: string[]): Promise<number[][]>;
}
