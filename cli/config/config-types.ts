// The settings every configuration file is read into (strand.toml, helix.toml, config.hx.json),
// their defaults and limits, and what the readers share. See load-config.ts for the files.
import { parse, TomlError, type TomlTable } from "smol-toml";
import { parseModelName } from "../../core/model-name.js";
import type { Stemmer } from "../../runtime/search/tokenizer.js";
import type { GivenSettings } from "./knobs.js";

export type Metric = "cosine" | "l2" | "ip";
export const METRICS: readonly Metric[] = ["cosine", "l2", "ip"];

export interface ProjectConfig {
  /** The file the settings came from, or null for the defaults. */
  file: string | null;
  /** The helix.toml section read ("local.dev"); null for strand.toml, config.hx.json, the defaults and a helix.toml without [local.*]. */
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
  // The /mcp limits; undefined when not set, and the registry applies its defaults
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
  /**
   * What strand.toml's [server], [replication] and [cluster] tables give, by the rows of knobs.ts
   * (absent when it gives none; HelixDB's files have no such keys). settings.ts resolves them.
   */
  given?: GivenSettings;
}

/** `warnings`: settings read and not honoured, one line each (printed, startup goes on); absent when none. */
export type ConfigResult = { ok: true; config: ProjectConfig; warnings?: string[] } | { ok: false; errors: string[] };

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

export const MAX_PARAM = 1_000_000;
/** One year: any longer and an idle connection is simply a leak. */
export const MAX_IDLE_TIMEOUT_SECONDS = 365 * 24 * 60 * 60;
export const MAX_CONNECTIONS = 1_000_000;
/** A billion items would not fit in memory anyway; the cap keeps the numbers exact integers. */
export const MAX_ITEMS = 1_000_000_000;

export const checkModel = (s: string): string | null => {
  const r = parseModelName(s);
  return r.ok ? null : r.error;
};

export function parseToml(text: string, shown: string): { ok: true; table: TomlTable } | { ok: false; errors: string[] } {
  try {
    return { ok: true, table: parse(text, { integersAsBigInt: true }) };
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    return { ok: false, errors: [`${shown}:${error.line}:${error.column}: invalid TOML: ${error.message.split("\n")[0]}`] };
  }
}

/** The settings, or every error; warnings (settings read but not honoured) only when there are some. */
export function result(config: ProjectConfig, errors: string[], warnings: string[] = []): ConfigResult {
  if (errors.length > 0) return { ok: false, errors };
  return warnings.length === 0 ? { ok: true, config } : { ok: true, config, warnings };
}
