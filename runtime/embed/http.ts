// One JSON POST to an embedding provider. Every failure — network error, timeout, HTTP error
// status, a body that is not JSON — becomes StrandError EMBEDDING_FAILED (502) carrying the
// provider's own message when it sent one.
import { StrandError } from "../../core/errors.js";
import { echo } from "../../core/echo.js";
import { vectorProblem } from "../vector/metric.js";

export interface PostOptions {
  /** Names the provider in messages, e.g. "openai:text-embedding-3-small". */
  model: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  timeoutMs: number;
  /** The query's time limit (types.ts EmbedOptions): aborts the request with its reason, QUERY_TIMEOUT. */
  signal?: AbortSignal | undefined;
}

/**
 * The longest provider text a message carries. Longer than ECHO_LIMIT: a provider's error message
 * ("Incorrect API key provided: sk-... You can find your API key at https://...") is the reason
 * for the failure, and cutting it at 60 characters would drop the useful part.
 */
const MAX_MESSAGE = 500;

export function embeddingFailed(model: string, message: string): StrandError {
  return new StrandError("EMBEDDING_FAILED", `embedding model ${model}: ${message}`);
}

export async function postJson(o: PostOptions): Promise<unknown> {
  let response: Response;
  let text: string;
  try {
    response = await fetch(o.url, {
      method: "POST",
      headers: { "content-type": "application/json", ...o.headers },
      body: JSON.stringify(o.body),
      signal: o.signal === undefined ? AbortSignal.timeout(o.timeoutMs) : AbortSignal.any([AbortSignal.timeout(o.timeoutMs), o.signal]),
    });
    text = await response.text();
  } catch (error) {
    // The query's time ran out, not the provider's: the query's error, not EMBEDDING_FAILED.
    if (o.signal?.aborted === true) throw o.signal.reason;
    const e = error as Error;
    if (e.name === "TimeoutError" || e.name === "AbortError") throw embeddingFailed(o.model, `no response within ${o.timeoutMs} ms`);
    const cause = (e as { cause?: { message?: unknown } }).cause;
    const detail = typeof cause?.message === "string" ? `${e.message} (${cause.message})` : e.message;
    throw embeddingFailed(o.model, `request failed: ${detail}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    if (!response.ok) throw embeddingFailed(o.model, `HTTP ${response.status}: ${clip(text)}`);
    throw embeddingFailed(o.model, `the response is not JSON: ${clip(text)}`);
  }
  if (!response.ok) throw embeddingFailed(o.model, `HTTP ${response.status}: ${providerMessage(json) ?? clip(text)}`);
  return json;
}

/** `{"error": {"message": ...}}` (OpenAI, Google) or `{"error": "..."}`. */
function providerMessage(json: unknown): string | undefined {
  if (typeof json !== "object" || json === null) return undefined;
  const error = (json as { error?: unknown }).error;
  if (typeof error === "string") return clip(error);
  if (typeof error === "object" && error !== null) {
    const message = (error as { message?: unknown }).message;
    if (typeof message === "string") return clip(message);
  }
  return undefined;
}

function clip(text: string): string {
  return echo(text.trim(), MAX_MESSAGE);
}

/**
 * A vector (vector/metric.ts vectorProblem: a non-empty array of finite numbers within the f32
 * range, the vector index's element type), or a malformed-response error naming `what` and the
 * component at fault.
 */
export function vectorAt(model: string, value: unknown, what: string): number[] {
  const problem = vectorProblem(value);
  if (problem !== null) throw embeddingFailed(model, `malformed response: ${what}${problem}`);
  return value as number[];
}

/** Splits texts into batches of at most `size`, embeds each in turn, and checks the count. */
export async function inBatches(
  model: string,
  texts: readonly string[],
  size: number,
  embed: (batch: string[]) => Promise<number[][]>,
): Promise<number[][]> {
  const out: number[][] = [];
  for (let i = 0; i < texts.length; i += size) {
    const batch = texts.slice(i, i + size);
    const vectors = await embed(batch);
    if (vectors.length !== batch.length) {
      throw embeddingFailed(model, `malformed response: ${vectors.length} embeddings for ${batch.length} texts`);
    }
    out.push(...vectors);
  }
  return out;
}
