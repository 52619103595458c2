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
import { checkModel, type ConfigResult, DEFAULT_CONFIG, MAX_PARAM, type ProjectConfig, result } from "./config-types.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const isObject = (v: Json | undefined): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);

/** A value as a message shows it: its JSON, cut to 60 characters. */
function show(v: Json): string {
  const text = JSON.stringify(v);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

class JsonReader {
  readonly seen = new Set<string>();
  constructor(
    private readonly values: JsonObject,
    private readonly where: string,
    private readonly errors: string[],
  ) {}

  get(key: string): Json | undefined {
    this.seen.add(key);
    return Object.hasOwn(this.values, key) ? this.values[key] : undefined;
  }

  fail(key: string, expected: string, v: Json): void {
    this.errors.push(`${this.where}${key}: expected ${expected}, got ${show(v)}`);
  }

  boolean(key: string, fallback: boolean): boolean {
    const v = this.get(key);
    if (v === undefined) return fallback;
    if (typeof v === "boolean") return v;
    this.fail(key, "true or false", v);
    return fallback;
  }

  integer(key: string, fallback: number, min: number, max: number): number {
    const v = this.get(key);
    if (v === undefined) return fallback;
    if (typeof v === "number" && Number.isInteger(v) && v >= min && v <= max) return v;
    this.fail(key, `an integer from ${min} to ${max}`, v);
    return fallback;
  }

  string(key: string, fallback: string, check: (s: string) => string | null): string {
    const v = this.get(key);
    if (v === undefined) return fallback;
    if (typeof v !== "string") {
      this.fail(key, "a string", v);
      return fallback;
    }
    const problem = check(v);
    if (problem === null) return v;
    this.errors.push(`${this.where}${key}: ${problem}`);
    return fallback;
  }

  /** A nested object; an empty one when absent (a value of another kind is an error). */
  object(key: string): JsonReader {
    const v = this.get(key);
    if (v !== undefined && !isObject(v)) this.fail(key, "an object", v);
    return new JsonReader(isObject(v) ? v : {}, `${this.where}${key}.`, this.errors);
  }

  unknownKeys(): string[] {
    return Object.keys(this.values).filter((k) => !this.seen.has(k));
  }
}

/** config.hx.json: the settings Strand honours, and one warning per setting it does not. */
export function helixJsonConfig(text: string, file: string, shown = file): ConfigResult {
  let parsed: Json;
  try {
    parsed = JSON.parse(text) as Json;
  } catch (error) {
    return { ok: false, errors: [`${shown}: invalid JSON: ${(error as Error).message}`] };
  }
  if (!isObject(parsed)) return { ok: false, errors: [`${shown}: expected a JSON object, got ${show(parsed)}`] };
  const errors: string[] = [];
  const warnings: string[] = [];
  const warn = (key: string, why: string) => warnings.push(`${shown}: ${key} is not honoured: ${why}`);
  const top = new JsonReader(parsed, `${shown}: `, errors);
  const vector = top.object("vector_config");
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
  const graph = top.object("graph_config");
  const indices = graph.get("secondary_indices");
  if (indices !== undefined && !(Array.isArray(indices) && indices.length === 0)) {
    warn(
      "graph_config.secondary_indices",
      `Strand indexes the fields the schema declares INDEX (e.g. N::User { INDEX email: String }), got ${show(indices)}`,
    );
  }
  const label = top.get("graphvis_node_label");
  if (label !== undefined && label !== "") warn("graphvis_node_label", "Strand has no graph visualizer");
  const unknown = [
    ...top.unknownKeys(),
    ...vector.unknownKeys().map((k) => `vector_config.${k}`),
    ...graph.unknownKeys().map((k) => `graph_config.${k}`),
  ];
  if (unknown.length > 0) warnings.push(`${shown}: ignoring keys Strand does not use: ${unknown.sort().join(", ")}`);
  return result(config, errors, warnings);
}
