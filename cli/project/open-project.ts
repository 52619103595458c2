// What `serve`, `mcp --stdio` and `import` do before anything else: read strand.toml (or
// helix.toml), resolve the settings (config/settings.ts), create the embedding provider, compile
// the project, and open its store with its section of the settings. Every failure is printed and
// yields null (exit 1).
import { join } from "node:path";
import type { ProjectConfig } from "../config/load-config.js";
import type { GivenSettings } from "../config/knobs.js";
import { resolveSettings, type Settings } from "../config/settings.js";
import { createEmbedder } from "../../runtime/embed/embedder.js";
import { embeddersFor } from "../../runtime/embed/embedders.js";
import type { EmbedderFor } from "../../runtime/query/query-runner.js";
import { GraphStore } from "../../runtime/graph-store.js";
import type { SharedLogReaders } from "../../runtime/commit-log/log-readers.js";
import type { SchemaDescriptor } from "../../core/schema.js";
import { cliProgress } from "../progress/progress.js";
import { skipIdleTasks } from "../progress/skip-idle.js";
import { fsErrorMessage, fsErrorReason, isFsError } from "./fs-errors.js";
import { COMPILE_CACHE_DIR } from "./compile-cache.js";
import { CompileFailed, type LoadOptions, loadProject } from "./load-project.js";
import { bm25Origin, readProjectConfig } from "./project-setup.js";
import { dataOwnerProblem, recordDataOwner } from "./data-owner.js";
import { displayPath } from "./sources.js";
import { makeDirs } from "../../runtime/store/make-dirs.js";

export interface OpenedProject {
  config: ProjectConfig;
  /** Every setting, resolved once: flag over strand.toml over default (config/settings.ts). */
  settings: Settings;
  project: Awaited<ReturnType<typeof loadProject>>;
  store: GraphStore;
  embedders: EmbedderFor;
  /** Opens the store again with the same settings (a replica's re-seed); throws when it cannot. */
  reopenStore: () => GraphStore;
  /** Opens the store with the same settings and another schema (serve --watch); throws when it cannot. */
  openStoreWith: (schema: SchemaDescriptor) => GraphStore;
  /** Opens (creating) a store with the same settings and schema in another folder (a tenant's); throws when it cannot. `readers`: its log's shared readers (commit-log/log-readers.ts). */
  openStoreIn: (dir: string, readers?: SharedLogReaders) => GraphStore;
}

/** How a served project compiles: with its configuration's bm25 and mcp, cached in its data directory. */
export function loadOptionsOf(config: ProjectConfig, dataDir: string): LoadOptions {
  return { bm25: config.bm25, bm25Origin: bm25Origin(config), mcp: config.mcp, cacheDir: join(dataDir, COMPILE_CACHE_DIR) };
}

export interface OpenHooks {
  /** Runs after the compile, before the store opens (a replica seeds its empty store here); false: stop (it said why). */
  beforeStoreOpen?: (settings: Settings, config: ProjectConfig, project: Awaited<ReturnType<typeof loadProject>>) => Promise<boolean>;
}

/**
 * `flags`: the settings the command line gave; the rest comes from the project's configuration
 * and the defaults. `purpose`: what the caller is doing ("serving" checks the server's settings too).
 */
export async function openProject(
  dir: string,
  flags: GivenSettings,
  purpose: string,
  hooks: OpenHooks = {},
): Promise<OpenedProject | null> {
  const setup = readProjectConfig(dir);
  if (setup === null) return null;
  const { config } = setup;
  const resolved = resolveSettings(flags, config, purpose === "serving");
  if ("error" in resolved) {
    process.stderr.write(`strand: ${resolved.error}\n`);
    return null;
  }
  const settings = resolved;
  const dataDir = settings.store.dataDir;
  const owner = dataOwnerProblem(dataDir, dir);
  if (owner !== null) {
    process.stderr.write(`strand: ${owner}\n`);
    return null;
  }
  const embedder = createEmbedder(config.embeddingModel, process.env);
  if (!embedder.ok) {
    process.stderr.write(`strand: ${embedder.error}\n`);
    return null;
  }
  let project: Awaited<ReturnType<typeof loadProject>>;
  try {
    project = await loadProject(setup.sources, loadOptionsOf(config, dataDir));
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
  if (hooks.beforeStoreOpen !== undefined && !(await hooks.beforeStoreOpen(settings, config, project))) return null;
  const { store: s } = settings;
  const openStore = (dir: string, schema: SchemaDescriptor, readers?: SharedLogReaders): GraphStore => {
    makeDirs(dir);
    return GraphStore.open({
      path: dir,
      schema,
      ...(s.cacheEntries === undefined ? {} : { cacheEntries: s.cacheEntries }),
      ...(s.cacheBytes === undefined ? {} : { cacheBytes: s.cacheBytes }),
      bm25: s.bm25,
      bm25Stemmer: s.bm25Stemmer,
      vector: s.vector,
      logRetention: { entries: s.logRetentionEntries, bytes: s.logRetentionBytes },
      // A failover group's node records every write: any member may lead and be asked for them.
      logOnDemand: s.logOnDemand && settings.cluster === null ? (readers === undefined ? {} : { shared: readers }) : false,
      queryTimeoutMs: s.queryTimeoutMs,
      // Migrations and index rebuilds report on stderr (stdout is the MCP channel of `mcp --stdio`).
      progress: skipIdleTasks(cliProgress()),
    });
  };
  const openStoreWith = (schema: SchemaDescriptor): GraphStore => openStore(dataDir, schema);
  const openStoreIn = (dir: string, readers?: SharedLogReaders): GraphStore => openStore(dir, project.schema, readers);
  const reopenStore = (): GraphStore => openStoreWith(project.schema);
  let store: GraphStore;
  try {
    store = reopenStore();
  } catch (error) {
    const reason = !isFsError(error) ? (error as Error).message : error.path === dataDir ? fsErrorReason(error) : fsErrorMessage(error);
    process.stderr.write(`strand: cannot open the data directory ${displayPath(dataDir)}: ${reason}\n`);
    return null;
  }
  recordDataOwner(dataDir, dir);
  return {
    config,
    settings,
    project,
    store,
    embedders: embeddersFor(embedder.embedder, process.env),
    reopenStore,
    openStoreWith,
    openStoreIn,
  };
}
