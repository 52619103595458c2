// A project's settings: `strand.toml` in the project folder or, when there is none, the
// `[local.<instance>]` section of an existing HelixDB project's `helix.toml`. No file: defaults.
// Unknown keys and bad values are errors naming `file: key` and what is expected; they stop
// startup (no silent fallback).
//
//   strand.toml                          helix.toml ([local.<instance>], one instance or "dev";
//                                        no [local.*] section: the defaults)
//   bm25 = true                          bm25 = true
//   bm25_stemmer = "none" | "english"    -
//   mcp = true                           mcp = true
//   mcp_idle_timeout_seconds = 1800      mcp_idle_timeout_seconds = 1800
//   mcp_max_connections = 10000          mcp_max_connections = 10000
//   mcp_max_connections_per_client = 100 -  (the /mcp limits of issue #14: strand.toml only;
//   mcp_max_items = 1000000              -   a helix.toml project gets the defaults)
//   mcp_max_total_items = 4000000        -
//   mcp_max_request_items = 5000000      -
//   embedding_model = "hash"             embedding_model = "..."
//   [vector]                             vector_config = { m = 16, ef_construction = 128, ef_search = 768 }
//   m = 16
//   ef_construction = 128
//   ef_search = 64
//   metric = "cosine" | "l2" | "ip"
//                                        [project] queries = "./db/" (where the .hx files are; see
//                                        project-layout.ts); name, id, workspace_id and
//                                        container_runtime are HelixDB's and ignored
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse, TomlError, type TomlTable } from "smol-toml";
import { parseModelName } from "../../core/model-name.js";
import { STEMMERS, type Stemmer } from "../../runtime/search/tokenizer.js";
import { TomlReader } from "./toml-table.js";

export type Metric = "cosine" | "l2" | "ip";
export const METRICS: readonly Metric[] = ["cosine", "l2", "ip"];

export interface ProjectConfig {
  /** The file the settings came from, or null for the defaults. */
  file: string | null;
  /** The helix.toml section read ("local.dev"); null for strand.toml, the defaults and a helix.toml without [local.*]. */
  section: string | null;
  /** helix.toml `[project] queries`: the folder of the .hx files, relative to helix.toml; null when not set. */
  queries: string | null;
  bm25: boolean;
  bm25Stemmer: Stemmer;
  mcp: boolean;
  /** Idle time after which an /mcp connection expires (ConnectionOptions.idleTimeoutMs / 1000). */
  mcpIdleTimeoutSeconds: number;
  /** Live /mcp connections at most; more are refused with 429 (ConnectionOptions.maxConnections). */
  mcpMaxConnections: number;
  // The /mcp limits of issue #14; undefined when not set, and the registry applies its defaults
  // (server/mcp/connections.ts DEFAULT_MAX_CONNECTIONS_PER_CLIENT, item-budget.ts DEFAULT_ITEM_LIMITS).
  /** Live /mcp connections of one client at most (ConnectionOptions.maxConnectionsPerClient). */
  mcpMaxConnectionsPerClient: number | undefined;
  /** Items one /mcp connection may hold (ConnectionOptions.maxItems). */
  mcpMaxItems: number | undefined;
  /** Items every /mcp connection together may hold (ConnectionOptions.maxTotalItems). */
  mcpMaxTotalItems: number | undefined;
  /** Items one /mcp call may reach while expanding steps (ConnectionOptions.maxRequestItems). */
  mcpMaxRequestItems: number | undefined;
  embeddingModel: string;
  /** The shape of GraphStoreOptions.vector (runtime/vector/metric.ts VectorOptions). */
  vector: { m: number; efConstruction: number; efSearch: number; metric: Metric };
}

export type ConfigResult = { ok: true; config: ProjectConfig } | { ok: false; errors: string[] };

export const DEFAULT_CONFIG: ProjectConfig = {
  file: null,
  section: null,
  queries: null,
  bm25: true,
  bm25Stemmer: "none",
  mcp: true,
  mcpIdleTimeoutSeconds: 1800,
  mcpMaxConnections: 10_000,
  mcpMaxConnectionsPerClient: undefined,
  mcpMaxItems: undefined,
  mcpMaxTotalItems: undefined,
  mcpMaxRequestItems: undefined,
  embeddingModel: "hash",
  vector: { m: 16, efConstruction: 128, efSearch: 64, metric: "cosine" },
};

const MAX_PARAM = 1_000_000;
/** One year: any longer and an idle connection is simply a leak. */
const MAX_IDLE_TIMEOUT_SECONDS = 365 * 24 * 60 * 60;
const MAX_CONNECTIONS = 1_000_000;
/** A billion items would not fit in memory anyway; the cap keeps the numbers exact integers. */
const MAX_ITEMS = 1_000_000_000;

const checkModel = (s: string): string | null => {
  const r = parseModelName(s);
  return r.ok ? null : r.error;
};

/** `show` renders the file's path in messages (e.g. relative to the working directory). */
export function loadProjectConfig(projectDir: string, show: (file: string) => string = (f) => f): ConfigResult {
  for (const [name, read] of [
    ["strand.toml", strandConfig],
    ["helix.toml", helixConfig],
  ] as const) {
    const file = join(projectDir, name);
    if (!existsSync(file)) continue;
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (error) {
      return { ok: false, errors: [`${show(file)}: cannot read: ${(error as Error).message}`] };
    }
    return read(text, file, show(file));
  }
  return { ok: true, config: { ...DEFAULT_CONFIG } };
}

function parseToml(text: string, shown: string): { ok: true; table: TomlTable } | { ok: false; errors: string[] } {
  try {
    return { ok: true, table: parse(text, { integersAsBigInt: true }) };
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    return { ok: false, errors: [`${shown}:${error.line}:${error.column}: invalid TOML: ${error.message.split("\n")[0]}`] };
  }
}

function result(config: ProjectConfig, errors: string[]): ConfigResult {
  return errors.length === 0 ? { ok: true, config } : { ok: false, errors };
}

/** strand.toml: the keys above and nothing else. */
export function strandConfig(text: string, file: string, shown = file): ConfigResult {
  const parsed = parseToml(text, shown);
  if (!parsed.ok) return parsed;
  const errors: string[] = [];
  const top = new TomlReader(parsed.table, `${shown}: `, errors);
  const d = DEFAULT_CONFIG;
  const vector = top.table("vector");
  const config: ProjectConfig = {
    file,
    section: null,
    queries: null,
    bm25: top.boolean("bm25", d.bm25),
    bm25Stemmer: top.oneOf("bm25_stemmer", STEMMERS, d.bm25Stemmer),
    mcp: top.boolean("mcp", d.mcp),
    mcpIdleTimeoutSeconds: top.integer("mcp_idle_timeout_seconds", d.mcpIdleTimeoutSeconds, 1, MAX_IDLE_TIMEOUT_SECONDS),
    mcpMaxConnections: top.integer("mcp_max_connections", d.mcpMaxConnections, 1, MAX_CONNECTIONS),
    mcpMaxConnectionsPerClient: top.optionalInteger("mcp_max_connections_per_client", 1, MAX_CONNECTIONS),
    mcpMaxItems: top.optionalInteger("mcp_max_items", 1, MAX_ITEMS),
    mcpMaxTotalItems: top.optionalInteger("mcp_max_total_items", 1, MAX_ITEMS),
    mcpMaxRequestItems: top.optionalInteger("mcp_max_request_items", 1, MAX_ITEMS),
    embeddingModel: top.string("embedding_model", d.embeddingModel, checkModel),
    vector: {
      m: vector.integer("m", d.vector.m, 2, MAX_PARAM),
      efConstruction: vector.integer("ef_construction", d.vector.efConstruction, 1, MAX_PARAM),
      efSearch: vector.integer("ef_search", d.vector.efSearch, 1, MAX_PARAM),
      metric: vector.oneOf("metric", METRICS, d.vector.metric),
    },
  };
  vector.rejectUnknown("known: m, ef_construction, ef_search, metric");
  top.rejectUnknown(
    "known: bm25, bm25_stemmer, mcp, mcp_idle_timeout_seconds, mcp_max_connections, mcp_max_connections_per_client, " +
      "mcp_max_items, mcp_max_total_items, mcp_max_request_items, embedding_model, [vector]",
  );
  return result(config, errors);
}

// HelixDB settings Strand has no use for; accepted so existing projects start unchanged.
const HELIX_IGNORED_TOP = ["project", "cloud", "enterprise"];
// HelixDB v2's [project] keys (docs.helix-db.com, CLI configuration); Strand reads `queries`.
const HELIX_PROJECT_IGNORED = ["name", "id", "workspace_id"];
const CONTAINER_RUNTIMES = ["docker", "podman"] as const;
const nonEmpty = (s: string): string | null => (s.trim() === "" ? "expected a non-empty path" : null);
const HELIX_IGNORED_INSTANCE = ["port", "build_mode", "image", "tag", "storage", "graph_config", "db_max_size_gb", "graphvis_node_label"];

/** helix.toml: the `[local.<instance>]` section (the only one, or `dev`); none: the defaults. */
export function helixConfig(text: string, file: string, shown = file): ConfigResult {
  const parsed = parseToml(text, shown);
  if (!parsed.ok) return parsed;
  const errors: string[] = [];
  const top = new TomlReader(parsed.table, `${shown}: `, errors);
  top.ignore(...HELIX_IGNORED_TOP);
  const project = top.table("project");
  const queries = project.string("queries", "", nonEmpty);
  for (const key of HELIX_PROJECT_IGNORED) project.string(key, "", () => null);
  project.oneOf("container_runtime", CONTAINER_RUNTIMES, "docker");
  project.rejectUnknown(`known: queries; ignored: ${[...HELIX_PROJECT_IGNORED, "container_runtime"].join(", ")}`);
  const local = top.table("local");
  top.rejectUnknown(`Strand reads [local.<instance>]; also accepted: ${HELIX_IGNORED_TOP.join(", ")}`);
  const instances = local.keys();
  // No instance at all: every setting has a default (a helix.toml may hold only [project]).
  if (instances.length === 0) return result({ ...DEFAULT_CONFIG, file, queries: queries === "" ? null : queries }, errors);
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
  vector.rejectUnknown("known: m, ef_construction, ef_search");
  inst.rejectUnknown(
    `known: vector_config, bm25, mcp, mcp_idle_timeout_seconds, mcp_max_connections, embedding_model; ignored: ${HELIX_IGNORED_INSTANCE.join(", ")}`,
  );
  return result(config, errors);
}
