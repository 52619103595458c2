// A project's settings, from the first of these files in the project folder (precedence, whole
// files, never merged): `strand.toml`, a HelixDB v2 `helix.toml` ([local.<instance>]), a HelixDB
// CLI v1 `config.hx.json` (helix-json.ts). No file: defaults. In strand.toml an unknown key or a
// bad value is an error naming `file: key` and what is expected; it stops startup (no silent
// fallback). helix.toml and config.hx.json are HelixDB's: keys Strand does not know are ignored
// with one warning naming them (HelixDB's CLI ignores them too); the values of the keys Strand
// reads are checked as strictly.
//
//   strand.toml                          helix.toml ([local.<instance>], one instance or "dev";
//                                        no [local.*] section: the defaults)
//   bm25 = true                          bm25 = true
//   bm25_stemmer = "none" | "english"    -
//   mcp = true                           mcp = true
//   mcp_idle_timeout_seconds = 1800      mcp_idle_timeout_seconds = 1800
//   mcp_max_connections = 10000          mcp_max_connections = 10000
//   mcp_max_connections_per_client = 100 -  (the /mcp limits: strand.toml only;
//   mcp_max_items = 1000000              -   a helix.toml project gets the defaults)
//   mcp_max_total_items = 4000000        -
//   mcp_max_request_items = 5000000      -
//   embedding_model = "hash"             embedding_model = "..."
//   [server]                             -  (strand.toml only; `strand serve --body-limit` wins)
//   body_limit = "8MiB"  (or bytes)
//   body_memory_limit = "512MiB"  (request bodies held at once; past it 503 SERVER_BUSY; --body-memory-limit wins)
//   answer_memory_limit = "1GiB"  (answers not yet read by clients; past it 503 SERVER_BUSY; --answer-memory-limit wins)
//   stall_limit_ms = 30000  (/health 503 ENGINE_STALLED past it; --stall-limit wins)
//   max_connections_per_client = 1000  (connections one address holds open; past it 429; --max-connections-per-client wins)
//   query_timeout_ms = 60000  (a query running longer stops with QUERY_TIMEOUT; 0: no limit; --query-timeout wins)
//   [vector]                             vector_config = { m = 16, ef_construction = 128, ef_search = 768 }
//   m = 16
//   ef_construction = 128
//   ef_search = 64
//   metric = "cosine" | "l2" | "ip"
//   [replication]                        -  (strand.toml only)
//   log_retention_entries = 100000
//   log_retention_bytes = 268435456
//   read_after_timeout_ms = 5000
//   [cluster]                            -  (strand.toml only; the serve flags win)
//   etcd = "http://10.0.0.1:2379,…"
//   group = "prod"
//   sync_replicas = 1
//   lease_ttl_seconds = 10
//   sync_timeout_ms = 10000
//                                        [project] queries = "./db/" (where the .hx files are; see
//                                        project-layout.ts); name, id, workspace_id and
//                                        container_runtime are HelixDB's and ignored
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { STEMMERS } from "../../runtime/search/tokenizer.js";
import {
  checkModel,
  type ConfigResult,
  DEFAULT_CONFIG,
  MAX_CONNECTIONS,
  MAX_IDLE_TIMEOUT_SECONDS,
  MAX_ITEMS,
  MAX_PARAM,
  METRICS,
  type ProjectConfig,
  parseToml,
  result,
} from "./config-types.js";
import { helixJsonConfig } from "./helix-json.js";
import { helixConfig } from "./helix-toml.js";
import { ConfigReader } from "./config-reader.js";
import { TOML_VALUES } from "./value-adapters.js";
import { givesAny, noneGiven, readGivenTable, tomlKeys } from "./given.js";

export { type ConfigResult, DEFAULT_CONFIG, type Metric, METRICS, type ProjectConfig } from "./config-types.js";
export { helixConfig } from "./helix-toml.js";

/** The configuration files, highest precedence first. */
export const CONFIG_FILES = ["strand.toml", "helix.toml", "config.hx.json"] as const;
const READERS = { "strand.toml": strandConfig, "helix.toml": helixConfig, "config.hx.json": helixJsonConfig };

/** `show` renders the file's path in messages (e.g. relative to the working directory). */
export function loadProjectConfig(projectDir: string, show: (file: string) => string = (f) => f): ConfigResult {
  for (const name of CONFIG_FILES) {
    const file = join(projectDir, name);
    if (!existsSync(file)) continue;
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (error) {
      return { ok: false, errors: [`${show(file)}: cannot read: ${(error as Error).message}`] };
    }
    return READERS[name](text, file, show(file));
  }
  return { ok: true, config: { ...DEFAULT_CONFIG } };
}

/** strand.toml: the keys above and nothing else. */
export function strandConfig(text: string, file: string, shown = file): ConfigResult {
  const parsed = parseToml(text, shown);
  if (!parsed.ok) return parsed;
  const errors: string[] = [];
  const top = new ConfigReader(parsed.table, TOML_VALUES, `${shown}: `, errors);
  const d = DEFAULT_CONFIG;
  const vector = top.table("vector");
  const server = top.table("server");
  const replication = top.table("replication");
  const cluster = top.table("cluster");
  // Read in this order so that errors come in the order of the file's description above.
  const settings = {
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
  };
  const given = noneGiven();
  readGivenTable(server, "server", given);
  const config: ProjectConfig = {
    file,
    section: null,
    queries: null,
    ...settings,
    vector: {
      m: vector.integer("m", d.vector.m, 2, MAX_PARAM),
      efConstruction: vector.integer("ef_construction", d.vector.efConstruction, 1, MAX_PARAM),
      efSearch: vector.integer("ef_search", d.vector.efSearch, 1, MAX_PARAM),
      metric: vector.oneOf("metric", METRICS, d.vector.metric),
    },
  };
  readGivenTable(replication, "replication", given);
  vector.rejectUnknown("known: m, ef_construction, ef_search, metric");
  server.rejectUnknown(`known: ${tomlKeys("server").join(", ")}`);
  readGivenTable(cluster, "cluster", given);
  if (givesAny(given)) config.given = given;
  replication.rejectUnknown(`known: ${tomlKeys("replication").join(", ")}`);
  cluster.rejectUnknown(`known: ${tomlKeys("cluster").join(", ")}`);
  top.rejectUnknown(
    "known: bm25, bm25_stemmer, mcp, mcp_idle_timeout_seconds, mcp_max_connections, mcp_max_connections_per_client, " +
      "mcp_max_items, mcp_max_total_items, mcp_max_request_items, embedding_model, [server], [vector], [replication], [cluster]",
  );
  return result(config, errors);
}
