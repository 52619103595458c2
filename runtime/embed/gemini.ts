// Google Gemini embeddings (Generative Language API, v1beta), key in the x-goog-api-key header:
//   one text:   POST <base>/v1beta/models/<model>:embedContent
//               {"content": {"parts": [{"text": "..."}]}, "taskType": "RETRIEVAL_DOCUMENT"}
//               →  {"embedding": {"values": [...]}}
//   several:    POST <base>/v1beta/models/<model>:batchEmbedContents
//               {"requests": [{"model": "models/<model>", "content": {"parts": [{"text": "..."}]},
//                              "taskType": "..."}, ...]}
//               →  {"embeddings": [{"values": [...]}, ...]}  (in request order)
// <base> is GEMINI_BASE_URL (default https://generativelanguage.googleapis.com). The task type is
// the third part of "gemini:<model>:<TASK_TYPE>" (core/model-name.ts), never part of the URL.
import type { GeminiTaskType } from "../../core/model-name.js";
import { embeddingFailed, inBatches, postJson, vectorAt } from "./http.js";
import type { Embedder } from "./types.js";

/** The API's limit on requests per batchEmbedContents call. */
const BATCH = 100;

export interface GeminiOptions {
  model: string;
  taskType: GeminiTaskType;
  base: string;
  apiKey: string;
  timeoutMs: number;
}

export function geminiEmbedder(name: string, o: GeminiOptions): Embedder {
  const root = `${o.base.replace(/\/+$/, "")}/v1beta/models/${encodeURIComponent(o.model)}`;
  const headers = { "x-goog-api-key": o.apiKey };
  const content = (text: string) => ({ parts: [{ text }] });
  const timeoutMs = o.timeoutMs;
  return {
    model: name,
    embed: (texts, options) =>
      inBatches(name, texts, BATCH, async (batch) => {
        const signal = options?.signal;
        if (batch.length === 1) {
          const json = await postJson({
            model: name,
            url: `${root}:embedContent`,
            headers,
            body: { content: content(batch[0]!), taskType: o.taskType },
            timeoutMs,
            signal,
          });
          return [vectorAt(name, (json as { embedding?: { values?: unknown } } | null)?.embedding?.values, "embedding.values")];
        }
        const requests = batch.map((text) => ({ model: `models/${o.model}`, content: content(text), taskType: o.taskType }));
        const json = await postJson({ model: name, url: `${root}:batchEmbedContents`, headers, body: { requests }, timeoutMs, signal });
        const embeddings = (json as { embeddings?: unknown } | null)?.embeddings;
        if (!Array.isArray(embeddings)) throw embeddingFailed(name, "malformed response: no embeddings array");
        return embeddings.map((e: unknown, i) => vectorAt(name, (e as { values?: unknown } | null)?.values, `embeddings[${i}].values`));
      }),
  };
}
