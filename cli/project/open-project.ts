// What `serve` and `mcp --stdio` both do before they answer anything: read strand.toml (or
// helix.toml), create the embedding provider, compile the project, and open its store with the
// configured keyword and vector settings. Every failure is printed and yields null (exit 1).
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { ProjectConfig } from "../config/project-config.js";
import { createEmbedder } from "../../runtime/embed/embedder.js";
import { embeddersFor } from "../../runtime/embed/embedders.js";
import type { ConnectionOptions } from "../../server/mcp/connections.js";
import type { EmbedderFor } from "../../runtime/query-runner.js";
import { GraphStore } from "../../runtime/graph-store.js";
import { cliProgress } from "../progress/progress.js";
import { skipIdleTasks } from "../progress/skip-idle.js";
import { fsErrorMessage, fsErrorReason, isFsError } from "./fs-errors.js";
import { COMPILE_CACHE_DIR } from "./compile-cache.js";
import { CompileFailed, loadProject } from "./load-project.js";
import { bm25Origin, readProjectConfig } from "./project-config.js";
import { displayPath } from "./sources.js";

export interface OpenedProject {
  config: ProjectConfig;
  project: Awaited<ReturnType<typeof loadProject>>;
  store: GraphStore;
  embedders: EmbedderFor;
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

export async function openProject(
  dir: string,
  dataDir: string,
  cacheEntries: number | undefined,
  purpose: string,
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
  let store: GraphStore;
  try {
    mkdirSync(dataDir, { recursive: true });
    store = GraphStore.open({
      path: dataDir,
      schema: project.schema,
      ...(cacheEntries === undefined ? {} : { cacheEntries }),
      bm25: config.bm25,
      bm25Stemmer: config.bm25Stemmer,
      vector: config.vector,
      // Migrations and index rebuilds report on stderr (stdout is the MCP channel of `mcp --stdio`).
      progress: skipIdleTasks(cliProgress()),
    });
  } catch (error) {
    const reason = !isFsError(error) ? (error as Error).message : error.path === dataDir ? fsErrorReason(error) : fsErrorMessage(error);
    process.stderr.write(`strand: cannot open the data directory ${displayPath(dataDir)}: ${reason}\n`);
    return null;
  }
  return { config, project, store, embedders: embeddersFor(embedder.embedder, process.env) };
}
