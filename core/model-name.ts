// The embedding model strings Strand accepts (strand.toml / helix.toml / config.hx.json
// `embedding_model`, `#[model("..")]`). A leaf module with no I/O, so configuration checks (and
// the compiler) can validate a string without creating a provider.
//
//   hash                          built-in, offline: hashed word and character n-grams (lexical)
//   local                         POST {"text"} to a local embedding server (STRAND_LOCAL_EMBED_URL)
//   openai:<model>                an OpenAI-compatible /v1/embeddings endpoint (OPENAI_API_KEY,
//                                 OPENAI_BASE_URL); everything after "openai:" is the model, so
//                                 Ollama's "nomic-embed-text:latest" works
//   gemini:<model>[:<TASK_TYPE>]  Google's embedContent (GEMINI_API_KEY, GEMINI_BASE_URL); the task
//                                 type goes in the request's `taskType`, RETRIEVAL_DOCUMENT when
//                                 none is given (HelixDB's documented default)
//   azure_openai:<deployment>     Azure OpenAI's embeddings (AZURE_OPENAI_ENDPOINT, AZURE_OPENAI_API_KEY)

export type ModelSpec =
  | { provider: "hash" }
  | { provider: "local" }
  | { provider: "openai" | "azure_openai"; model: string }
  | { provider: "gemini"; model: string; taskType: GeminiTaskType };

/** The task types of Gemini's embedContent API. */
export const GEMINI_TASK_TYPES = [
  "RETRIEVAL_DOCUMENT",
  "RETRIEVAL_QUERY",
  "SEMANTIC_SIMILARITY",
  "CLASSIFICATION",
  "CLUSTERING",
  "QUESTION_ANSWERING",
  "FACT_VERIFICATION",
  "CODE_RETRIEVAL_QUERY",
  "TASK_TYPE_UNSPECIFIED",
] as const;
export type GeminiTaskType = (typeof GEMINI_TASK_TYPES)[number];
const DEFAULT_GEMINI_TASK: GeminiTaskType = "RETRIEVAL_DOCUMENT";

export const MODEL_FORMS = `"hash", "local", "openai:<model>", "gemini:<model>[:<TASK_TYPE>]" or "azure_openai:<deployment>"`;

const PROVIDERS = ["openai", "gemini", "azure_openai"];

type Parsed = { ok: true; spec: ModelSpec } | { ok: false; error: string };

/** The provider a model string names, or an error message saying what is accepted. */
export function parseModelName(name: string): Parsed {
  if (name === "hash" || name === "local") return { ok: true, spec: { provider: name } };
  const m = /^(openai|gemini|azure_openai):(.+)$/.exec(name);
  const rest = m?.[2];
  if (m === null || rest === undefined || rest.trim() !== rest) {
    // A model name without a provider (what some projects write: "text-embedding-3-small").
    if (/^[^\s:]+$/.test(name) && !PROVIDERS.includes(name)) {
      return {
        ok: false,
        error: `embedding model ${JSON.stringify(name)} names no provider: write it with one, e.g. "openai:${name}"; expected ${MODEL_FORMS}`,
      };
    }
    return { ok: false, error: `unknown embedding model ${JSON.stringify(name)}: expected ${MODEL_FORMS}` };
  }
  if (m[1] !== "gemini") return { ok: true, spec: { provider: m[1] as "openai" | "azure_openai", model: rest } };
  return gemini(name, rest);
}

function gemini(name: string, rest: string): Parsed {
  const colon = rest.indexOf(":");
  if (colon < 0) return { ok: true, spec: { provider: "gemini", model: rest, taskType: DEFAULT_GEMINI_TASK } };
  const model = rest.slice(0, colon);
  const task = rest.slice(colon + 1);
  const known = (GEMINI_TASK_TYPES as readonly string[]).includes(task);
  if (model === "" || model.trim() !== model || !known) {
    const why = known || model === "" ? "expected gemini:<model>:<TASK_TYPE>" : `unknown task type ${JSON.stringify(task)}`;
    return { ok: false, error: `embedding model ${JSON.stringify(name)}: ${why}; task types: ${GEMINI_TASK_TYPES.join(", ")}` };
  }
  return { ok: true, spec: { provider: "gemini", model, taskType: task as GeminiTaskType } };
}
