// Opens the built-in memory (the project in templates/memory/) over a data directory: compiles it
// (once: the compile cache in the directory keeps the result for the next start), opens its
// store, and puts the memory service (server/memory/) on it. `strand memory`, `strand memory
// import` and `strand serve --memory` start here. One process per data directory, as for every
// Strand store: a second one is refused with the holder's pid.
//
// The embedding model of search_nodes by meaning (server/memory/entity-vectors.ts): `strand
// memory --embedding-model <model>` (any model string embedding_model takes, with the same
// environment: OPENAI_API_KEY, ...), none by default: the memory then ranks by BM25 alone, as it
// always did. `strand serve --memory` uses the served project's embedding_model, unless that is
// the default `hash`: hash is lexical, so it would only rank again by the words BM25 already
// ranks by, and it would fix the memory's vectors at hash's dimension (a real model set later
// would then be refused until the memory moves to a new directory). A memory opened with a model
// first gives every entity without a current vector one (a store written before, or without it).
import { join } from "node:path";
import { StrandError } from "../../core/errors.js";
import { GraphStore } from "../../runtime/graph-store.js";
import { makeDirs } from "../../runtime/store/make-dirs.js";
import type { OpenTenantMemory } from "../../server/tenants/tenant-handle.js";
import { COMPILE_CACHE_DIR } from "../project/compile-cache.js";
import { CompileFailed, loadProject } from "../project/load-project.js";
import { templateDir } from "./init.js";
import { createEmbedder, type Embedder } from "../../runtime/embed/embedder.js";
import type { TextEmbedder } from "../../runtime/embed/types.js";
import { MemoryService } from "../../server/memory/memory-service.js";
import type { Settings } from "../config/settings.js";
import { openBuiltinStore } from "./builtin-store.js";

/** The memory's folder under `strand serve`'s data directory. */
export const SERVED_MEMORY_DIR = "memory";

/**
 * Why `strand serve` cannot serve the memory with these settings, or null. Only a node that leads
 * alone can: the memory's store is not replicated, so a replica or a failover group would hold
 * as many memories as nodes.
 */
export function servedMemoryProblem(settings: Settings): string | null {
  if (!settings.server.memory || (settings.replication.follow === undefined && settings.cluster === null)) return null;
  return "--memory ([server] memory) is for a server on its own: the memory's store is not replicated, so not with --follow or --etcd";
}

/**
 * `strand serve --memory`: the memory in `<data>/memory`, or null after printing why not.
 * `projectEmbedder`: the served project's (embedding_model); used unless it is `hash`.
 */
export function openServedMemory(settings: Settings, projectEmbedder?: TextEmbedder): Promise<OpenedMemory | null> {
  const embedder = servedEmbedder(projectEmbedder);
  return openMemory(join(settings.store.dataDir, SERVED_MEMORY_DIR), "serving", {
    queryTimeoutMs: settings.store.queryTimeoutMs,
    embedder,
  });
}

/** The served memory's embedder: the project's, unless it is the lexical `hash` (or none). */
function servedEmbedder(projectEmbedder?: TextEmbedder): (TextEmbedder & { readonly model: string }) | null {
  const model = projectEmbedder?.model;
  return projectEmbedder === undefined || model === undefined || model === "hash"
    ? null
    : { model, embed: projectEmbedder.embed.bind(projectEmbedder) };
}

/** The embedder of `--embedding-model`: null without one; a string says why it cannot be had. */
export function memoryEmbedder(model: string | undefined): Embedder | null | string {
  if (model === undefined) return null;
  const created = createEmbedder(model, process.env);
  return created.ok ? created.embedder : `--embedding-model: ${created.error}`;
}

export interface OpenedMemory {
  store: GraphStore;
  service: MemoryService;
}

export interface OpenMemoryOptions {
  queryTimeoutMs?: number;
  /** The embedding model of search_nodes by meaning; absent or null: BM25 alone. */
  embedder?: (TextEmbedder & { readonly model: string }) | null;
}

/** The memory over `dataDir`, or null after printing why not (`doing`: "starting the memory server"). */
export async function openMemory(dataDir: string, doing: string, options: OpenMemoryOptions = {}): Promise<OpenedMemory | null> {
  const say = (line: string): null => {
    process.stderr.write(`strand: ${line}\n`);
    return null;
  };
  const opened = await openBuiltinStore({
    template: "memory",
    what: "the memory",
    dirName: "the memory data directory",
    dataDir,
    doing,
    bm25: true,
    ...(options.queryTimeoutMs !== undefined ? { queryTimeoutMs: options.queryTimeoutMs } : {}),
  });
  if (opened === null) return null;
  const { store } = opened;
  const project = { queries: opened.queries };
  const service = MemoryService.create(store, project.queries, { embedder: options.embedder ?? null });
  if ("error" in service) {
    await store.close();
    return say(`the built-in memory project is broken: ${service.error}`);
  }
  const refreshed = await service.refreshVectors();
  if (!refreshed.ok) {
    await store.close();
    return say(`cannot give the memory's entities their vectors; not ${doing}: ${refreshed.error.message} (${refreshed.error.code})`);
  }
  if (refreshed.value > 0)
    process.stderr.write(`strand: embedded ${refreshed.value} memory entities with ${service.embeddingModel} for search_nodes\n`);
  return { store, service };
}

/**
 * `strand serve --memory` with tenants: how each tenant's memory is opened, in its folder's
 * `memory/`, when its first memory call comes. The built-in project is compiled once here; a
 * tenant's memory then opens as a store, with the served memory's embedding model. Null after
 * printing why the project cannot be had.
 */
export async function tenantMemoryOpener(settings: Settings, projectEmbedder?: TextEmbedder): Promise<OpenTenantMemory | null> {
  const embedder = servedEmbedder(projectEmbedder);
  let project: Awaited<ReturnType<typeof loadProject>>;
  try {
    project = await loadProject(templateDir("memory"), {
      bm25: true,
      mcp: false,
      cacheDir: join(settings.store.dataDir, SERVED_MEMORY_DIR, COMPILE_CACHE_DIR),
    });
  } catch (error) {
    if (!(error instanceof CompileFailed)) throw error;
    process.stderr.write(`strand: the built-in memory project does not compile; not serving\n${error.report}\n`);
    return null;
  }
  return async (dir) => {
    makeDirs(dir);
    const store = GraphStore.open({
      path: dir,
      schema: project.schema,
      bm25: true,
      bm25Stemmer: "none",
      queryTimeoutMs: settings.store.queryTimeoutMs,
      logOnDemand: { graceMs: 0 },
    });
    const service = MemoryService.create(store, project.queries, { embedder });
    if ("error" in service) {
      await store.close();
      throw new StrandError("INTERNAL", `the built-in memory project is broken: ${service.error}`);
    }
    const refreshed = await service.refreshVectors();
    if (!refreshed.ok) {
      await store.close();
      throw refreshed.error;
    }
    return { service, close: () => store.close() };
  };
}
