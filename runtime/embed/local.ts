// A local embedding server: POST {"text": "..."} to STRAND_LOCAL_EMBED_URL (default
// http://localhost:8699/embed) → {"embedding": [...]}. One text per request, a few in flight.
import { postJson, vectorAt } from "./http.js";
import type { Embedder } from "./types.js";

export const DEFAULT_LOCAL_URL = "http://localhost:8699/embed";
const IN_FLIGHT = 4;

export function localEmbedder(url: string, timeoutMs: number): Embedder {
  const name = "local";
  const one = async (text: string, signal: AbortSignal | undefined): Promise<number[]> => {
    const json = await postJson({ model: name, url, headers: {}, body: { text }, timeoutMs, signal });
    return vectorAt(name, (json as { embedding?: unknown } | null)?.embedding, "embedding");
  };
  return {
    model: name,
    embed: async (texts, options) => {
      const out = new Array<number[]>(texts.length);
      let next = 0;
      const worker = async (): Promise<void> => {
        while (next < texts.length) {
          const i = next++;
          out[i] = await one(texts[i]!, options?.signal);
        }
      };
      await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, texts.length) }, worker));
      return out;
    },
  };
}
