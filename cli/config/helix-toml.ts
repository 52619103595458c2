// A HelixDB v2 `helix.toml`: the `[local.<instance>]` section (the only one, or `dev`; none: the
// defaults) and `[project] queries`. HelixDB's CLI ignores keys it does not know, so Strand does
// too: an unknown key anywhere (`[project] version`, `vector_config.db_max_size_gb`, a table of a
// newer CLI) is named in one warning and startup goes on. HelixDB keys Strand has no use for
// (below) are accepted silently. The values of the keys Strand reads are checked strictly.
import {
  checkModel,
  type ConfigResult,
  DEFAULT_CONFIG,
  MAX_CONNECTIONS,
  MAX_IDLE_TIMEOUT_SECONDS,
  MAX_PARAM,
  type ProjectConfig,
  parseToml,
  result,
} from "./config-types.js";
import { ConfigReader } from "./config-reader.js";
import { TOML_VALUES } from "./value-adapters.js";

// HelixDB settings Strand has no use for; accepted so existing projects start unchanged.
const HELIX_IGNORED_TOP = ["project", "cloud", "enterprise"];
// HelixDB v2's [project] keys (docs.helix-db.com, CLI configuration); Strand reads `queries`.
const HELIX_PROJECT_IGNORED = ["name", "id", "workspace_id"];
const CONTAINER_RUNTIMES = ["docker", "podman"] as const;
const nonEmpty = (s: string): string | null => (s.trim() === "" ? "expected a non-empty path" : null);
const HELIX_IGNORED_INSTANCE = ["port", "build_mode", "image", "tag", "storage", "graph_config", "db_max_size_gb", "graphvis_node_label"];

/** The one warning naming every helix.toml key Strand ignored because it does not know it. */
export function ignoredKeysWarning(shown: string, keys: readonly string[]): string[] {
  return keys.length === 0 ? [] : [`${shown}: ignoring keys Strand does not use: ${[...keys].sort().join(", ")}`];
}

/** helix.toml: the `[local.<instance>]` section (the only one, or `dev`); none: the defaults. */
export function helixConfig(text: string, file: string, shown = file): ConfigResult {
  const parsed = parseToml(text, shown);
  if (!parsed.ok) return parsed;
  const errors: string[] = [];
  const ignored: string[] = [];
  const top = new ConfigReader(parsed.table, TOML_VALUES, `${shown}: `, errors);
  top.ignore(...HELIX_IGNORED_TOP);
  const project = top.table("project");
  const queries = project.string("queries", "", nonEmpty);
  for (const key of HELIX_PROJECT_IGNORED) project.string(key, "", () => null);
  project.oneOf("container_runtime", CONTAINER_RUNTIMES, "docker");
  ignored.push(...project.unknownKeys());
  const local = top.table("local");
  ignored.push(...top.unknownKeys());
  const instances = local.keys();
  const warnings = () => ignoredKeysWarning(shown, ignored);
  // No instance at all: every setting has a default (a helix.toml may hold only [project]).
  if (instances.length === 0) {
    return result({ ...DEFAULT_CONFIG, file, queries: queries === "" ? null : queries }, errors, warnings());
  }
  const name = instances.length === 1 ? instances[0]! : instances.includes("dev") ? "dev" : null;
  if (name === null) {
    errors.push(`${shown}: local: expected one [local.<instance>] section or [local.dev], found ${instances.join(", ")}`);
    return result(DEFAULT_CONFIG, errors);
  }
  local.ignore(...instances);
  const inst = local.table(name);
  inst.ignore(...HELIX_IGNORED_INSTANCE);
  const d = DEFAULT_CONFIG;
  const vector = inst.table("vector_config");
  const config: ProjectConfig = {
    file,
    section: `local.${name}`,
    queries: queries === "" ? null : queries,
    bm25: inst.boolean("bm25", d.bm25),
    bm25Stemmer: d.bm25Stemmer,
    mcp: inst.boolean("mcp", d.mcp),
    mcpIdleTimeoutSeconds: inst.integer("mcp_idle_timeout_seconds", d.mcpIdleTimeoutSeconds, 1, MAX_IDLE_TIMEOUT_SECONDS),
    mcpMaxConnections: inst.integer("mcp_max_connections", d.mcpMaxConnections, 1, MAX_CONNECTIONS),
    mcpMaxConnectionsPerClient: d.mcpMaxConnectionsPerClient,
    mcpMaxItems: d.mcpMaxItems,
    mcpMaxTotalItems: d.mcpMaxTotalItems,
    mcpMaxRequestItems: d.mcpMaxRequestItems,
    embeddingModel: inst.string("embedding_model", d.embeddingModel, checkModel),
    vector: {
      m: vector.integer("m", d.vector.m, 2, MAX_PARAM),
      efConstruction: vector.integer("ef_construction", d.vector.efConstruction, 1, MAX_PARAM),
      efSearch: vector.integer("ef_search", d.vector.efSearch, 1, MAX_PARAM),
      metric: d.vector.metric,
    },
  };
  ignored.push(...vector.unknownKeys(), ...inst.unknownKeys());
  return result(config, errors, warnings());
}
