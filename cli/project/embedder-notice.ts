// What `serve` and `mcp --stdio` say at startup about the embedding model Embed(text) uses, for a
// project that has vectors (a V:: type, or a query's #[model("..")]): which model, and for the
// built-in `hash` that it is lexical and how to set a real one. A project
// without vectors never embeds anything, so it hears nothing about it.
import type { SchemaDescriptor } from "../../core/schema.js";
import type { ProjectConfig } from "../config/load-config.js";
import { bm25Origin } from "./project-setup.js";

export interface EmbedderNotice {
  /** The project's embedding model (embedding_model), used by Embed(..) without #[model]. */
  model: string;
  /** The models queries name with #[model("..")], when any. */
  queryModels?: string[];
  /** For `hash`: that it matches words, not meaning, and how to set a real model. */
  note?: string;
}

/** The model and, for hash, what it cannot do; null for a project without vectors. */
export function embedderNotice(config: ProjectConfig, schema: SchemaDescriptor, queryModels: readonly string[]): EmbedderNotice | null {
  if (schema.vectors.length === 0 && queryModels.length === 0) return null;
  const notice: EmbedderNotice = { model: config.embeddingModel };
  if (queryModels.length > 0) notice.queryModels = [...queryModels];
  if (config.embeddingModel === "hash") {
    notice.note =
      "lexical: texts that share words are near, texts that mean the same in other words are not; " +
      `for search by meaning set embedding_model in ${bm25Origin(config)}, e.g. "openai:text-embedding-3-small" (with OPENAI_API_KEY)`;
  }
  return notice;
}

/** The notice as one line for stderr: `strand: embedding model: hash (lexical: ...)`. */
export function embedderNoticeLine(notice: EmbedderNotice): string {
  const models = notice.queryModels === undefined ? "" : `; queries with #[model] use ${notice.queryModels.join(", ")}`;
  const note = notice.note === undefined ? "" : ` (${notice.note})`;
  return `strand: embedding model: ${notice.model}${note}${models}\n`;
}
