// The embedding model strings Strand accepts (strand.toml `embedding_model`, `#[model("..")]`).
// A leaf module with no I/O, so configuration checks (and the compiler) can validate a string
// without creating a provider.
//
//   hash             built-in, offline: hashed word and character n-grams (lexical, not semantic)
//   local            POST {"text"} to a local embedding server (STRAND_LOCAL_EMBED_URL)
//   openai:<model>   an OpenAI-compatible /v1/embeddings endpoint (OPENAI_API_KEY, OPENAI_BASE_URL)
//   gemini:<model>   Google's embedContent (GEMINI_API_KEY, GEMINI_BASE_URL)

export type ModelSpec = { provider: "hash" } | { provider: "local" } | { provider: "openai" | "gemini"; model: string };

export const MODEL_FORMS = `"hash", "local", "openai:<model>" or "gemini:<model>"`;

/** The provider a model string names, or an error message saying what is accepted. */
export function parseModelName(name: string): { ok: true; spec: ModelSpec } | { ok: false; error: string } {
  if (name === "hash" || name === "local") return { ok: true, spec: { provider: name } };
  const m = /^(openai|gemini):(.+)$/.exec(name);
  if (m !== null && m[2]!.trim() === m[2]) return { ok: true, spec: { provider: m[1] as "openai" | "gemini", model: m[2]! } };
  return { ok: false, error: `unknown embedding model ${JSON.stringify(name)}: expected ${MODEL_FORMS}` };
}
