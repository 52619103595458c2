// The search tools. Each returns the items it found (best first, each with `score`) and the
// traversal continues from them.
//
//   search_vector       {vector, k, min_score?, label?, ef?}
//     loaded traversal: exact scores of the held vectors (their `data`, or their `embedding`
//       field when the V type declares one), with the store's metric; `label` is refused.
//     blank traversal: the V type `label` when given, else every V type whose dimension matches
//       the query, merged by score (scores of one metric are comparable across types); the
//       traversal's types are then the labels found (those types when nothing was found).
//     min_score defaults to 0.0, except with metric l2, whose scores (minus the squared
//       distance) are all <= 0: there no threshold applies unless one is given.
//     ef (an integer >= 1): the HNSW search breadth of a store search, as SearchV's `ef: n`.
//   search_vector_text  {query, label, ef?}    the configured model's embedding, top 5 of V type label
//   search_keyword      {query, label, limit}  BM25 over the nodes (or vectors) of label; 400
//                                              BM25_DISABLED when the project sets bm25 = false
import { bm25Disabled, isStrandError, StrandError } from "../../core/errors.js";
import type { GraphItem, NodeItem } from "../../core/items.js";
import type { QueryContext } from "../../core/query-context.js";
import type { JsonValue } from "../../core/schema.js";
import { better, checkVector, dimensionMismatch, similarity, type Metric } from "../../runtime/vector/metric.js";
import { withScore } from "../../runtime/vector/search.js";
import type { Connection } from "./connections.js";
import type { ToolEnv } from "./env.js";
import { BUILTIN_TOOLS } from "./input-schemas.js";
import type { TypeView } from "./schema-view.js";
import { openCall } from "./tools.js";
import { heldItems, recordsOf } from "./held-items.js";
import { loaded } from "./traversal.js";

/** search_vector_text returns this many vectors. */
export const TEXT_SEARCH_K = 5;

function continueFrom(env: ToolEnv, tool: string, connection: Connection, items: NodeItem[], types: readonly string[]): JsonValue {
  // k and limit bound a search's answer, but not below the items the connection may hold.
  env.connections.budget(connection).hold(items.length, tool);
  connection.traversal = loaded(heldItems(items, env.schema), types);
  return items as unknown as JsonValue;
}

function byScore(a: NodeItem, b: NodeItem): number {
  const sa = a.score as number;
  const sb = b.score as number;
  return better(sa, a.id, sb, b.id) ? -1 : better(sb, b.id, sa, a.id) ? 1 : 0;
}

/** The record without a score an earlier search gave it, scored anew. */
function rescored(item: GraphItem, score: number): NodeItem {
  const { score: _previous, ...rest } = item;
  return withScore(rest as NodeItem, score);
}

function scoreHeld(env: ToolEnv, items: readonly GraphItem[], query: number[], metric: Metric): NodeItem[] {
  const seen = new Set<string>();
  const out: NodeItem[] = [];
  for (const item of items) {
    if (seen.has(item.id)) continue;
    seen.add(item.id);
    const view = env.schema.get(item.label)!;
    const vector = item[view.vectorField ?? "data"];
    if (!Array.isArray(vector)) throw new Error(`V::${item.label} '${item.id}' carries no vector`);
    if (vector.length !== query.length) throw dimensionMismatch(item.label, vector.length, query.length);
    out.push(rescored(item, similarity(metric, query, vector as number[])));
  }
  return out;
}

export function searchVector(env: ToolEnv, body: unknown): JsonValue {
  const { connection, input } = openCall(env, BUILTIN_TOOLS.search_vector.input, body);
  const { data } = input;
  const query = checkVector(data.vector, "data.vector");
  const k = data.k;
  const ef = data.ef ?? null;
  const minScore = data.min_score ?? (env.vectorMetric === "l2" ? -Infinity : 0);
  const labelRaw = data.label ?? undefined;
  const current = connection.traversal;

  let found: NodeItem[];
  let types: readonly string[];
  if (!current.blank) {
    if (labelRaw !== undefined) {
      throw new StrandError(
        "INVALID_PARAMETER",
        "'data.label' applies only to a search over every vector: the traversal holds items (reset it first)",
      );
    }
    const notVectors = current.types.filter((t) => env.schema.get(t)?.kind !== "vector");
    if (notVectors.length > 0) {
      throw new StrandError(
        "INVALID_VALUE",
        `search_vector over the held items needs vectors, but the traversal holds ${notVectors.join(", ")}`,
      );
    }
    const records = env.store.read((db) => recordsOf(db, env.schema, current.items));
    found = scoreHeld(env, records, query, env.vectorMetric);
    types = current.types;
  } else if (labelRaw !== undefined) {
    const label = env.schema.require(labelRaw, "vector", "data.label").name;
    found = env.store.read((db) => db.searchVectors(label, query, k, ef));
    types = [label];
  } else {
    ({ items: found, fitted: types } = env.store.read((db) => searchEveryType(db, env.schema.names("vector"), query, k, ef)));
  }
  const top = found
    .filter((item) => (item.score as number) >= minScore)
    .sort(byScore)
    .slice(0, k);
  return continueFrom(env, "search_vector", connection, top, types);
}

/**
 * The top k of each V type whose dimension fits the query, and those types (a type without
 * vectors fits any); a mismatch of every type is the error. Types of another dimension are not
 * among the traversal's types afterwards, so filters are not checked against their properties.
 */
function searchEveryType(
  db: QueryContext,
  types: readonly string[],
  query: number[],
  k: number,
  ef: number | null,
): { items: NodeItem[]; fitted: string[] } {
  const items: NodeItem[] = [];
  const fitted: string[] = [];
  let mismatch: StrandError | undefined;
  for (const label of types) {
    try {
      // One at a time: spread into push(), k of ~125k+ overflowed the stack.
      for (const item of db.searchVectors(label, query, k, ef)) items.push(item);
      fitted.push(label);
    } catch (error) {
      if (!isStrandError(error) || error.code !== "DIMENSION_MISMATCH") throw error;
      mismatch ??= error;
    }
  }
  if (fitted.length === 0 && mismatch !== undefined) throw mismatch;
  return { items, fitted };
}

async function embedQuery(env: ToolEnv, text: string): Promise<number[]> {
  const embedders = env.embedders;
  if (embedders === null) {
    throw new StrandError(
      "INVALID_VALUE",
      "search_vector_text needs an embedding model, and none is configured (embedding_model in strand.toml)",
    );
  }
  let vectors: number[][];
  try {
    vectors = await embedders(null).embed([text]);
  } catch (error) {
    if (isStrandError(error)) throw error;
    throw new StrandError("EMBEDDING_FAILED", `embedding the query failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  const vector = vectors[0];
  if (vectors.length !== 1 || vector === undefined)
    throw new StrandError("EMBEDDING_FAILED", `the embedder returned ${vectors.length} vectors for 1 text`);
  return vector;
}

export async function searchVectorText(env: ToolEnv, body: unknown): Promise<JsonValue> {
  const { connection, input } = openCall(env, BUILTIN_TOOLS.search_vector_text.input, body);
  const label = env.schema.require(input.data.label, "vector", "data.label").name;
  const vector = await embedQuery(env, input.data.query);
  const found = env.store.read((db) => db.searchVectors(label, vector, TEXT_SEARCH_K, input.data.ef ?? null));
  return continueFrom(env, "search_vector_text", connection, found, [label]);
}

export function searchKeyword(env: ToolEnv, body: unknown): JsonValue {
  const { connection, input } = openCall(env, BUILTIN_TOOLS.search_keyword.input, body, () => {
    if (!env.keywordSearch) throw bm25Disabled("search_keyword");
  });
  const { query, label, limit } = input.data;
  const view: TypeView = env.schema.require(label, ["node", "vector"], "data.label");
  const found = env.store.read((db) => db.searchBM25(view.name, query, limit));
  return continueFrom(env, "search_keyword", connection, found, [view.name]);
}
