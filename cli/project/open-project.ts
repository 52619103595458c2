// What `serve` and `mcp --stdio` both do before they answer anything: read strand.toml (or
// helix.toml), create the embedding provider, compile the project, and open its store with the
// configured keyword and vector settings. Every failure is printed and yields null (exit 1).
import { join } from "node:path";
import type { ProjectConfig } from "../config/project-config.js";
import { createEmbedder } from "../../runtime/embed/embedder.js";
import { embeddersFor } from "../../runtime/embed/embedders.js";
import type { ConnectionOptions } from "../../server/mcp/connections.js";
import type { EmbedderFor } from "../../runtime/query/query-runner.js";
import { GraphStore } from "../../runtime/graph-store.js";
import type { LogRetention } from "../../runtime/commit-log/commit-log.js";
import { cliProgress } from "../progress/progress.js";
import { skipIdleTasks } from "../progress/skip-idle.js";
import { fsErrorMessage, fsErrorReason, isFsError } from "./fs-errors.js";
import { COMPILE_CACHE_DIR } from "./compile-cache.js";
import { CompileFailed, loadProject } from "./load-project.js";
import { bm25Origin, readProjectConfig } from "./project-config.js";
import { displayPath } from "./sources.js";
import { makeDirs } from "../../runtime/store/make-dirs.js";

export interface OpenedProject {
  config: ProjectConfig;
  project: Awaited<ReturnType<typeof loadProject>>;
  store: GraphStore;
  embedders: EmbedderFor;
  /** Opens the store again with the same settings (a replica's re-seed); throws when it cannot. */
  reopenStore: () => GraphStore;
}

export interface OpenHooks {
  /** Runs after the compile, before the store opens (a replica seeds its empty store here); false: stop (it said why). */
  beforeStoreOpen?: (config: ProjectConfig, project: Awaited<ReturnType<typeof loadProject>>) => Promise<boolean>;
  /** How much of the commit log the store keeps (serve --log-retention-*, strand.toml [replication]). */
  logRetention?: (config: ProjectConfig) => Partial<LogRetention>;
  /** How long one query may run (serve --query-timeout, strand.toml [server] query_timeout_ms); absent: no limit. */
  queryTimeoutMs?: (config: ProjectConfig) => number;
}

/** The /mcp connection settings of strand.toml (mcp_idle_timeout_seconds, mcp_max_connections). */
export function mcpConnectionOptions(config: ProjectConfig): ConnectionOptions {
  return { idleTimeoutMs: config.mcpIdleTimeoutSeconds * 1000, maxConnections: config.mcpMaxConnections };
}

/** The /mcp limits of strand.toml per client and on the items traversals hold (issue #14). */
export function mcpLimitOptions(config: ProjectConfig): ConnectionOptions {
  return {
    maxConnectionsPerClient: config.mcpMaxConnectionsPerClient,
    maxItems: config.mcpMaxItems,
    maxTotalItems: config.mcpMaxTotalItems,
    maxRequestItems: config.mcpMaxRequestItems,
  };
}

/** The read cache's limits from the command line; undefined: the store's defaults. */
export interface ReadCacheLimits {
  entries?: number | undefined;
  bytes?: number | undefined;
}

export async function openProject(
  dir: string,
  dataDir: string,
  cache: ReadCacheLimits,
  purpose: string,
  hooks: OpenHooks = {},
): Promise<OpenedProject | null> {
  const setup = readProjectConfig(dir);
  if (setup === null) return null;
  const { config } = setup;
  const embedder = createEmbedder(config.embeddingModel, process.env);
  if (!embedder.ok) {
    process.stderr.write(`strand: ${embedder.error}\n`);
    return null;
  }
  let project: Awaited<ReturnType<typeof loadProject>>;
  try {
    project = await loadProject(setup.sources, {
      bm25: config.bm25,
      bm25Origin: bm25Origin(config),
      mcp: config.mcp,
      cacheDir: join(dataDir, COMPILE_CACHE_DIR),
    });
  } catch (error) {
    if (!(error instanceof CompileFailed)) throw error;
    process.stderr.write(`${error.report}\n${error.message}; not ${purpose}\n`);
    return null;
  }
  if (project.warnings !== "") process.stderr.write(`${project.warnings}\n`);
  // A #[model("..")] this environment cannot serve stops startup, like embedding_model does.
  for (const model of project.models) {
    const created = createEmbedder(model, process.env);
    if (!created.ok) {
      process.stderr.write(`strand: #[model("${model}")]: ${created.error}\n`);
      return null;
    }
  }
  if (hooks.beforeStoreOpen !== undefined && !(await hooks.beforeStoreOpen(config, project))) return null;
  const reopenStore = (): GraphStore => {
    makeDirs(dataDir);
    return GraphStore.open({
      path: dataDir,
      schema: project.schema,
      ...(cache.entries === undefined ? {} : { cacheEntries: cache.entries }),
      ...(cache.bytes === undefined ? {} : { cacheBytes: cache.bytes }),
      bm25: config.bm25,
      bm25Stemmer: config.bm25Stemmer,
      vector: config.vector,
      ...(hooks.logRetention === undefined ? {} : { logRetention: hooks.logRetention(config) }),
      ...(hooks.queryTimeoutMs === undefined ? {} : { queryTimeoutMs: hooks.queryTimeoutMs(config) }),
      // Migrations and index rebuilds report on stderr (stdout is the MCP channel of `mcp --stdio`).
      progress: skipIdleTasks(cliProgress()),
    });
  };
  let store: GraphStore;
  try {
    store = reopenStore();
  } catch (error) {
    const reason = !isFsError(error) ? (error as Error).message : error.path === dataDir ? fsErrorReason(error) : fsErrorMessage(error);
    process.stderr.write(`strand: cannot open the data directory ${displayPath(dataDir)}: ${reason}\n`);
    return null;
  }
  return { config, project, store, embedders: embeddersFor(embedder.embedder, process.env), reopenStore };
}
