// Embedding providers watched: each embed call (one batch of texts sent to a provider) is reported
// to an observer with its provider, model, size, duration and outcome. The runtime knows nothing
// of metrics; the server passes an observer that counts (server/observe/metrics.ts).
import { isStrandError } from "../../core/errors.js";
import { parseModelName } from "../../core/model-name.js";
import type { EmbedderFor, TextEmbedder } from "./types.js";

/** One finished embed call. */
export interface EmbedCall {
  /** "hash", "local", "openai", "gemini", "azure_openai"; "unknown" for a model string no provider takes. */
  provider: string;
  /** The model string (strand.toml embedding_model or `#[model("..")]`); "default" when the default embedder names none. */
  model: string;
  texts: number;
  seconds: number;
  /** The failure's code (EMBEDDING_FAILED for every provider failure), or null when it succeeded. */
  error: string | null;
}

export type EmbedObserver = (call: EmbedCall) => void;

/** `embedders` with every embed call reported to `observe` (one wrapper per model, made on first use). */
export function observedEmbedders(embedders: EmbedderFor, observe: EmbedObserver): EmbedderFor {
  const wrapped = new Map<string | null, TextEmbedder>();
  return (model) => {
    let e = wrapped.get(model);
    if (e === undefined) {
      const inner = embedders(model);
      e = observedEmbedder(inner, model ?? inner.model ?? "default", observe);
      wrapped.set(model, e);
    }
    return e;
  };
}

function observedEmbedder(inner: TextEmbedder, model: string, observe: EmbedObserver): TextEmbedder {
  const parsed = parseModelName(model);
  const provider = parsed.ok ? parsed.spec.provider : "unknown";
  const report = (texts: number, started: number, error: string | null): void =>
    observe({ provider, model, texts, seconds: (performance.now() - started) / 1000, error });
  return {
    model,
    embed: async (texts, options) => {
      const started = performance.now();
      let vectors: number[][];
      try {
        vectors = await inner.embed(texts, options);
      } catch (error) {
        report(texts.length, started, isStrandError(error) ? error.code : "INTERNAL");
        throw error;
      }
      report(texts.length, started, null);
      return vectors;
    },
  };
}
