// Embedding providers by model string (see model-name.ts). createEmbedder is called at startup:
// an unknown model, a missing API key or a bad setting is an error value that stops startup,
// never a fallback to another provider. At run time every provider failure is StrandError
// EMBEDDING_FAILED (HTTP 502) with the provider's message (http.ts).
import { azureOpenaiEmbedder, DEFAULT_AZURE_API_VERSION } from "./azure-openai.js";
import { geminiEmbedder } from "./gemini.js";
import { hashEmbedder } from "./hash.js";
import { DEFAULT_LOCAL_URL, localEmbedder } from "./local.js";
import { parseModelName } from "../../core/model-name.js";
import { openaiEmbedder } from "./openai.js";
import type { Embedder } from "./types.js";

export type { Embedder } from "./types.js";

export type EmbedEnv = Readonly<Record<string, string | undefined>>;

export const DEFAULT_TIMEOUT_MS = 30_000;
const OPENAI_URL = "https://api.openai.com";
const GEMINI_URL = "https://generativelanguage.googleapis.com";

export type EmbedderResult = { ok: true; embedder: Embedder } | { ok: false; error: string };

/**
 * Environment: OPENAI_API_KEY (required unless OPENAI_BASE_URL points elsewhere: Ollama and
 * friends need none), OPENAI_BASE_URL, GEMINI_API_KEY (required), GEMINI_BASE_URL,
 * AZURE_OPENAI_ENDPOINT and AZURE_OPENAI_API_KEY (required), AZURE_OPENAI_API_VERSION,
 * AZURE_OPENAI_DEPLOYMENT, STRAND_LOCAL_EMBED_URL, STRAND_EMBED_TIMEOUT_MS (default 30000).
 */
export function createEmbedder(model: string, env: EmbedEnv): EmbedderResult {
  const parsed = parseModelName(model);
  if (!parsed.ok) return parsed;
  const timeout = timeoutFrom(env);
  if (typeof timeout === "string") return { ok: false, error: timeout };
  const set = (key: string): string | undefined => (env[key] === undefined || env[key] === "" ? undefined : env[key]);
  const spec = parsed.spec;
  switch (spec.provider) {
    case "hash":
      return { ok: true, embedder: hashEmbedder() };
    case "local":
      return { ok: true, embedder: localEmbedder(set("STRAND_LOCAL_EMBED_URL") ?? DEFAULT_LOCAL_URL, timeout) };
    case "openai": {
      const base = set("OPENAI_BASE_URL");
      const key = set("OPENAI_API_KEY");
      if (base === undefined && key === undefined) {
        return { ok: false, error: `embedding model ${model} needs OPENAI_API_KEY (or OPENAI_BASE_URL for an OpenAI-compatible server)` };
      }
      return { ok: true, embedder: openaiEmbedder(model, spec.model, base ?? OPENAI_URL, key, timeout) };
    }
    case "gemini": {
      const key = set("GEMINI_API_KEY");
      if (key === undefined) return { ok: false, error: `embedding model ${model} needs GEMINI_API_KEY` };
      const base = set("GEMINI_BASE_URL") ?? GEMINI_URL;
      return {
        ok: true,
        embedder: geminiEmbedder(model, { model: spec.model, taskType: spec.taskType, base, apiKey: key, timeoutMs: timeout }),
      };
    }
    case "azure_openai": {
      const endpoint = set("AZURE_OPENAI_ENDPOINT");
      const key = set("AZURE_OPENAI_API_KEY");
      const missing = [endpoint === undefined ? "AZURE_OPENAI_ENDPOINT" : null, key === undefined ? "AZURE_OPENAI_API_KEY" : null];
      const names = missing.filter((n) => n !== null);
      if (endpoint === undefined || key === undefined) return { ok: false, error: `embedding model ${model} needs ${names.join(" and ")}` };
      if (!/^https?:\/\/[^/]/.test(endpoint)) {
        return {
          ok: false,
          error: `AZURE_OPENAI_ENDPOINT must be an http(s) URL such as https://<resource>.openai.azure.com, got ${JSON.stringify(endpoint)}`,
        };
      }
      const deployment = set("AZURE_OPENAI_DEPLOYMENT") ?? spec.model;
      const apiVersion = set("AZURE_OPENAI_API_VERSION") ?? DEFAULT_AZURE_API_VERSION;
      return { ok: true, embedder: azureOpenaiEmbedder(model, { endpoint, deployment, apiVersion, apiKey: key, timeoutMs: timeout }) };
    }
  }
}

function timeoutFrom(env: EmbedEnv): number | string {
  const raw = env.STRAND_EMBED_TIMEOUT_MS;
  if (raw === undefined || raw === "") return DEFAULT_TIMEOUT_MS;
  const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n < 1)
    return `STRAND_EMBED_TIMEOUT_MS must be a positive integer (milliseconds), got ${JSON.stringify(raw)}`;
  return n;
}
