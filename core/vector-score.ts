// One rule for `score` on vectors on the wire: every vector a query returns carries `score`, as
// HelixDB v2.3.5 sends it (its typed clients fail when it is missing). A vector from a search
// (SearchV, SearchBM25 over a vector type, RerankRRF/MMR) keeps the score the search gave it
// (Strand's documented similarity); any other vector — from AddV, V<T>(id), a traversal, UpsertV,
// a FOR, nested in an object or a projection — gets NO_SEARCH_SCORE, the value HelixDB sends when
// no search produced one. JSON.stringify writes it as `2` where HelixDB writes `2.0`: JSON numbers
// have no integer/float distinction, and every JSON reader (serde's f64, Python, JS) reads both as
// the same number.
//
// Applied to a query's result just before it leaves (runtime/query/query-runner.ts) and to every /mcp
// tool's answer (server/mcp/service.ts), never inside a query: WHERE, ORDER, projections and RerankMMR (which ranks by `score` when an item has one)
// see vectors exactly as stored.
//
// The same pass leaves a vector's embedding, its `data` member, out of the answer when the project
// says so (strand.toml [server] vector_data_in_answers = false): the answer is then a fraction of
// the size. A type that keeps its vector in a declared `embedding` field has no `data`: the field
// is one of its fields, shown like any other (a query leaves it out with `::!{embedding}`).
import type { JsonValue } from "./schema.js";

export const NO_SEARCH_SCORE = 2;

/**
 * `value` with `score: NO_SEARCH_SCORE` added to every vector record in it (an object whose `id`
 * and `label` are strings and whose label `isVector`) that has none, and, when `keepData` is
 * false, without the `data` member of those records. Copy on write: what holds no such vector
 * (or none to change) is returned as is, and nothing given is changed (records may be frozen
 * cache values).
 */
export function withVectorScores(value: unknown, isVector: (label: string) => boolean, keepData = true): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      // Arrays of numbers (embeddings) and strings are by far the longest: nothing to do there.
      if (typeof item !== "object" || item === null) continue;
      const next = withVectorScores(item, isVector, keepData);
      if (next !== item) {
        out ??= value.slice();
        out[i] = next;
      }
    }
    return out ?? value;
  }
  const record = value as Record<string, JsonValue>;
  const { id, label } = record;
  if (typeof id === "string" && typeof label === "string" && isVector(label)) {
    // A vector's members are values, never other records: no need to look inside.
    return vectorOnTheWire(record, keepData);
  }
  let out: Record<string, unknown> | null = null;
  for (const key of Object.keys(record)) {
    const member = record[key];
    if (typeof member !== "object" || member === null) continue;
    const next = withVectorScores(member, isVector, keepData);
    if (next !== member) {
      if (out === null) {
        out = {};
        // Object.keys order and own members kept, `__proto__` included (defineProperty below).
        for (const k of Object.keys(record)) define(out, k, record[k]);
      }
      define(out, key, next);
    }
  }
  return out ?? record;
}

/** The answer's shaper: withVectorScores over the project's vector types, or nothing at all when it has none. */
export function vectorAnswerShaper(vectorLabels: Iterable<string>, keepData = true): (value: unknown) => unknown {
  const labels = new Set(vectorLabels);
  // No vector type: no answer can hold a vector, so answers are not walked at all.
  if (labels.size === 0) return (value) => value;
  const isVector = (label: string) => labels.has(label);
  return (value) => withVectorScores(value, isVector, keepData);
}

/** One vector record as it leaves: with `score`, and without `data` unless `keepData`. */
function vectorOnTheWire(record: Record<string, JsonValue>, keepData: boolean): Record<string, JsonValue> {
  const scored = Object.hasOwn(record, "score");
  if (keepData || !Object.hasOwn(record, "data")) return scored ? record : { ...record, score: NO_SEARCH_SCORE };
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(record)) if (key !== "data") define(out, key, record[key]);
  if (!scored) out.score = NO_SEARCH_SCORE;
  return out as Record<string, JsonValue>;
}

function define(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
