// A HelixDB CLI v1 project's `config.hx.json` (created by `helix init` in `helixdb-cfg/`, beside
// the .hx files). Its documented shape:
//
//   { "vector_config": { "m": 16, "ef_construction": 128, "ef_search": 768 },
//     "graph_config": { "secondary_indices": [] },
//     "db_max_size_gb": 10, "mcp": true, "bm25": true,
//     "embedding_model": "...", "graphvis_node_label": "" }
//
// Strand reads vector_config (m, ef_construction, ef_search), bm25, mcp and embedding_model, with
// the same checks as helix.toml (a bad value is an error naming the key). What it cannot honour
// is never dropped silently: each such setting gets one warning line saying what Strand does
// instead (a database size cap, secondary indices declared here rather than in the schema, the
// visualizer's label, keys HelixDB did not document).
import { ConfigReader } from "./config-reader.js";
import { checkModel, type ConfigResult, DEFAULT_CONFIG, MAX_PARAM, type ProjectConfig, result } from "./config-types.js";
import { isJsonObject, JSON_VALUES, type Json, showJson } from "./value-adapters.js";

/** config.hx.json: the settings Strand honours, and one warning per setting it does not. */
export function helixJsonConfig(text: string, file: string, shown = file): ConfigResult {
  let parsed: Json;
  try {
    parsed = JSON.parse(text) as Json;
  } catch (error) {
    return { ok: false, errors: [`${shown}: invalid JSON: ${(error as Error).message}`] };
  }
  if (!isJsonObject(parsed)) return { ok: false, errors: [`${shown}: expected a JSON object, got ${showJson(parsed)}`] };
  const errors: string[] = [];
  const warnings: string[] = [];
  const warn = (key: string, why: string) => warnings.push(`${shown}: ${key} is not honoured: ${why}`);
  const top = new ConfigReader(parsed, JSON_VALUES, `${shown}: `, errors);
  const vector = top.table("vector_config");
  const d = DEFAULT_CONFIG;
  const config: ProjectConfig = {
    ...d,
    file,
    bm25: top.boolean("bm25", d.bm25),
    mcp: top.boolean("mcp", d.mcp),
    embeddingModel: top.string("embedding_model", d.embeddingModel, checkModel),
    vector: {
      m: vector.integer("m", d.vector.m, 2, MAX_PARAM),
      efConstruction: vector.integer("ef_construction", d.vector.efConstruction, 1, MAX_PARAM),
      efSearch: vector.integer("ef_search", d.vector.efSearch, 1, MAX_PARAM),
      metric: d.vector.metric,
    },
  };
  const size = top.get("db_max_size_gb");
  if (size !== undefined) warn("db_max_size_gb", "Strand's store has no size cap; it grows as data is added");
  const vectorSize = vector.get("db_max_size");
  if (vectorSize !== undefined) warn("vector_config.db_max_size", "Strand's store has no size cap; it grows as data is added");
  const graph = top.table("graph_config");
  const indices = graph.get("secondary_indices");
  if (indices !== undefined && !(Array.isArray(indices) && indices.length === 0)) {
    warn(
      "graph_config.secondary_indices",
      `Strand indexes the fields the schema declares INDEX (e.g. N::User { INDEX email: String }), got ${showJson(indices)}`,
    );
  }
  const label = top.get("graphvis_node_label");
  if (label !== undefined && label !== "") warn("graphvis_node_label", "Strand has no graph visualizer");
  const unknown = [
    ...top.unknownKeys(),
    ...vector.unknownKeys(), // dotted: vector_config.<key>
    ...graph.unknownKeys(),
  ];
  if (unknown.length > 0) warnings.push(`${shown}: ignoring keys Strand does not use: ${unknown.sort().join(", ")}`);
  return result(config, errors, warnings);
}
