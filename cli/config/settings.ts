// One place where a setting's value is decided: the flag (or its environment variable), else
// strand.toml, else the default of its row in knobs.ts — and the combinations that make no
// sense, refused with a message naming them. `strand serve` and `strand mcp` resolve once, after
// reading the project's configuration, and hand each layer its section.
import { DEFAULT_BODY_LIMIT_BYTES } from "../../server/app.js";
import type { ConnectionOptions } from "../../server/mcp/connections.js";
import type { ProjectConfig } from "./config-types.js";
import { clusterSettings, type ClusterSettings } from "./cluster-settings.js";
import { noneGiven } from "./given.js";
import { type GivenSettings, KNOBS, type KnobSettings, type SectionName } from "./knobs.js";

export interface Settings {
  /** Where the server listens, whom it lets in, and the largest body it takes. */
  readonly server: KnobSettings["server"];
  /** The front door's limits on bodies, answers, stalls and connections. */
  readonly frontDoor: KnobSettings["frontDoor"];
  /** The store: where, its read cache, its query time limit, its commit log; the keyword and vector settings of the project. */
  readonly store: KnobSettings["store"] & Pick<ProjectConfig, "bm25" | "bm25Stemmer" | "vector">;
  /** Following a leader (--follow), the replication key, the Strand-After wait. */
  readonly replication: KnobSettings["replication"];
  /** Failover on etcd; null without etcd. */
  readonly cluster: ClusterSettings | null;
  /** The agent tools under /mcp. */
  readonly mcp: { readonly enabled: boolean; readonly connections: ConnectionOptions };
}

/** Flag over file over default, for every row of knobs.ts. */
function merged(flags: GivenSettings, file: GivenSettings): KnobSettings {
  const out: Record<string, Record<string, unknown>> = {};
  for (const section of Object.keys(KNOBS) as SectionName[]) {
    const given = flags[section] as Record<string, unknown>;
    const fromFile = file[section] as Record<string, unknown>;
    const values: Record<string, unknown> = {};
    for (const [key, row] of Object.entries(KNOBS[section]))
      values[key] = given[key] ?? fromFile[key] ?? (row as { default?: unknown }).default;
    out[section] = values;
  }
  return out as unknown as KnobSettings;
}

/**
 * The settings, or why they cannot be (one line, for `strand: …`). `serving`: the server's
 * combinations are checked too (its body limits, failover); `strand mcp` and `strand import` only
 * open the store, whatever strand.toml says of serving.
 */
export function resolveSettings(flags: GivenSettings, config: ProjectConfig, serving: boolean): Settings | { error: string } {
  const file = config.given ?? noneGiven();
  const knobs = merged(flags, file);
  const limits = serving ? bodyLimitsError(knobs.server.bodyLimitBytes, knobs.frontDoor.bodyMemoryLimitBytes) : null;
  if (limits !== null) return { error: limits };
  const cluster = serving ? clusterSettings(knobs.cluster, flags.cluster, knobs.replication.follow, knobs.server.host) : null;
  if (cluster !== null && "error" in cluster) return cluster;
  // The group's nodes read each other's commit logs with the replication key (a replica sends
  // only that key): without it every replica is refused and every synchronous write times out.
  if (cluster !== null && knobs.replication.key === undefined)
    return {
      error:
        "a failover group needs --replication-key KEY (or STRAND_REPLICATION_KEY), the same on every node: its nodes read each other's commit logs with it",
    };
  return {
    server: knobs.server,
    frontDoor: knobs.frontDoor,
    store: { ...knobs.store, bm25: config.bm25, bm25Stemmer: config.bm25Stemmer, vector: config.vector },
    replication: knobs.replication,
    cluster,
    mcp: { enabled: config.mcp, connections: { ...mcpConnectionOptions(config), ...mcpLimitOptions(config) } },
  };
}

/** Why the body memory limit cannot hold one body of the body limit, or null. */
function bodyLimitsError(bodyLimit: number | undefined, memory: number | undefined): string | null {
  const body = bodyLimit ?? DEFAULT_BODY_LIMIT_BYTES;
  if (memory === undefined || memory >= body) return null;
  return `the body memory limit (${memory} bytes: --body-memory-limit, STRAND_BODY_MEMORY_LIMIT or [server] body_memory_limit) is below the body limit (${body} bytes): one body the server takes must fit in it`;
}

/** The /mcp connection settings of the configuration (mcp_idle_timeout_seconds, mcp_max_connections). */
export function mcpConnectionOptions(config: ProjectConfig): ConnectionOptions {
  return { idleTimeoutMs: config.mcpIdleTimeoutSeconds * 1000, maxConnections: config.mcpMaxConnections };
}

/** The /mcp limits of strand.toml per client and on the items traversals hold (unset: the registry's defaults). */
export function mcpLimitOptions(config: ProjectConfig): ConnectionOptions {
  return {
    maxConnectionsPerClient: config.mcpMaxConnectionsPerClient,
    maxItems: config.mcpMaxItems,
    maxTotalItems: config.mcpMaxTotalItems,
    maxRequestItems: config.mcpMaxRequestItems,
  };
}
