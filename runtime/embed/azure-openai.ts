// Azure OpenAI embeddings ("azure_openai:<deployment>"), key in the api-key header:
//   POST <AZURE_OPENAI_ENDPOINT>/openai/deployments/<deployment>/embeddings?api-version=<version>
//   {"input": ["text", ...]}  →  {"data": [{"index": 0, "embedding": [...]}, ...]}  (OpenAI's shape)
// The deployment is the model string's part after "azure_openai:" unless AZURE_OPENAI_DEPLOYMENT
// names another; the version is AZURE_OPENAI_API_VERSION (default below, a GA version).
import { inBatches, postJson } from "./http.js";
import { openaiVectors } from "./openai.js";
import type { Embedder } from "./types.js";

export const DEFAULT_AZURE_API_VERSION = "2024-10-21";
/** Azure accepts up to 2048 inputs per request, like OpenAI; smaller batches keep requests modest. */
const BATCH = 256;

export interface AzureOptions {
  endpoint: string;
  deployment: string;
  apiVersion: string;
  apiKey: string;
  timeoutMs: number;
}

export function azureEmbeddingsUrl(o: Pick<AzureOptions, "endpoint" | "deployment" | "apiVersion">): string {
  const base = o.endpoint.replace(/\/+$/, "");
  return `${base}/openai/deployments/${encodeURIComponent(o.deployment)}/embeddings?api-version=${encodeURIComponent(o.apiVersion)}`;
}

export function azureOpenaiEmbedder(name: string, o: AzureOptions): Embedder {
  const url = azureEmbeddingsUrl(o);
  const headers = { "api-key": o.apiKey };
  return {
    model: name,
    embed: (texts, options) =>
      inBatches(name, texts, BATCH, async (input) => {
        const json = await postJson({ model: name, url, headers, body: { input }, timeoutMs: o.timeoutMs, signal: options?.signal });
        return openaiVectors(name, json);
      }),
  };
}
