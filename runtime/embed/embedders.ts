// The embedders a running server uses: the project's default (strand.toml embedding_model) for
// Embed(..) without a model, and one per `#[model("...")]` string, created on first use.
import { StrandError } from "../../core/errors.js";
import type { EmbedderFor, TextEmbedder } from "./types.js";
import { createEmbedder, type EmbedEnv, type Embedder } from "./embedder.js";

export function embeddersFor(defaultEmbedder: Embedder, env: EmbedEnv): EmbedderFor {
  const byModel = new Map<string, TextEmbedder>([[defaultEmbedder.model, defaultEmbedder]]);
  return (model) => {
    if (model === null) return defaultEmbedder;
    let e = byModel.get(model);
    if (e === undefined) {
      const created = createEmbedder(model, env);
      // A query's model the environment cannot serve (unknown string, missing key): every call fails.
      e = created.ok ? created.embedder : { embed: () => Promise.reject(new StrandError("EMBEDDING_FAILED", created.error)) };
      byModel.set(model, e);
    }
    return e;
  };
}
