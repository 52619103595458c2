// OpenAI-compatible embeddings (OpenAI, Ollama, vLLM, TEI, LM Studio...):
//   POST <base>/v1/embeddings   Authorization: Bearer <OPENAI_API_KEY>
//   {"model": "<model>", "input": ["text", ...]}  →  {"data": [{"index": 0, "embedding": [...]}, ...]}
// <base> is OPENAI_BASE_URL (default https://api.openai.com); a base that already ends in /v1
// (the convention of OpenAI's own SDKs) is not given a second one.
import { embeddingFailed, inBatches, postJson, vectorAt } from "./http.js";
import type { Embedder } from "./types.js";

/** OpenAI accepts up to 2048 inputs per request; smaller batches keep requests modest. */
const BATCH = 256;

export function embeddingsUrl(base: string): string {
  const b = base.replace(/\/+$/, "");
  return b.endsWith("/v1") ? `${b}/embeddings` : `${b}/v1/embeddings`;
}

export function openaiEmbedder(name: string, model: string, base: string, apiKey: string | undefined, timeoutMs: number): Embedder {
  const url = embeddingsUrl(base);
  const headers: Record<string, string> = apiKey === undefined ? {} : { authorization: `Bearer ${apiKey}` };
  return {
    model: name,
    embed: (texts, options) =>
      inBatches(name, texts, BATCH, async (input) => {
        const json = await postJson({ model: name, url, headers, body: { model, input }, timeoutMs, signal: options?.signal });
        return openaiVectors(name, json);
      }),
  };
}

/** The vectors of an OpenAI-shaped response (also Azure OpenAI's), ordered by their `index`. */
export function openaiVectors(name: string, json: unknown): number[][] {
  const data = (json as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) throw embeddingFailed(name, "malformed response: no data array");
  const out = new Array<number[]>(data.length);
  data.forEach((item: unknown, i) => {
    const index = (item as { index?: unknown } | null)?.index;
    // Results carry their input's index; order by it when present.
    const at = typeof index === "number" && Number.isInteger(index) && index >= 0 && index < data.length ? index : i;
    if (out[at] !== undefined) throw embeddingFailed(name, `malformed response: index ${at} appears twice`);
    out[at] = vectorAt(name, (item as { embedding?: unknown } | null)?.embedding, `data[${i}].embedding`);
  });
  return out;
}
