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
import { createEmbedder, type Embedder } from "../../runtime/embed/embedder.js";
import type { TextEmbedder } from "../../runtime/embed/types.js";
import { DEFAULT_QUERY_TIMEOUT_MS } from "../../runtime/query/query-deadline.js";
import { GraphStore } from "../../runtime/graph-store.js";
import { makeDirs } from "../../runtime/store/make-dirs.js";
import { MemoryService } from "../../server/memory/memory-service.js";
import type { Settings } from "../config/settings.js";
import { cliProgress } from "../progress/progress.js";
import { skipIdleTasks } from "../progress/skip-idle.js";
import { COMPILE_CACHE_DIR } from "../project/compile-cache.js";
import { dataOwnerProblem, recordDataOwner } from "../project/data-owner.js";
import { fsErrorMessage, fsErrorReason, isFsError } from "../project/fs-errors.js";
import { CompileFailed, loadProject } from "../project/load-project.js";
import { displayPath } from "../project/sources.js";
import { templateDir } from "./init.js";

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
  const model = projectEmbedder?.model;
  const embedder =
    projectEmbedder === undefined || model === undefined || model === "hash"
      ? null
      : { model, embed: projectEmbedder.embed.bind(projectEmbedder) };
  return openMemory(join(settings.store.dataDir, SERVED_MEMORY_DIR), "serving", {
    queryTimeoutMs: settings.store.queryTimeoutMs,
    embedder,
  });
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
  const queryTimeoutMs = options.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS;
  const say = (line: string): null => {
    process.stderr.write(`strand: ${line}\n`);
    return null;
  };
  const memoryProject = templateDir("memory");
  // Another project's data would be migrated to the memory's schema: refused, as serve refuses it.
  if (dataOwnerProblem(dataDir, memoryProject) !== null)
    return say(
      `the data directory ${displayPath(dataDir)} holds another project's data; give the memory a directory of its own with --data`,
    );
  let project: Awaited<ReturnType<typeof loadProject>>;
  try {
    makeDirs(dataDir);
    project = await loadProject(memoryProject, { bm25: true, mcp: false, cacheDir: join(dataDir, COMPILE_CACHE_DIR) });
  } catch (error) {
    if (error instanceof CompileFailed) return say(`the built-in memory project does not compile; not ${doing}\n${error.report}`);
    if (isFsError(error)) return say(`cannot open the memory data directory ${displayPath(dataDir)}: ${fsErrorMessage(error)}`);
    throw error;
  }
  let store: GraphStore;
  try {
    store = GraphStore.open({
      path: dataDir,
      schema: project.schema,
      bm25: true,
      bm25Stemmer: "none",
      queryTimeoutMs,
      progress: skipIdleTasks(cliProgress()),
    });
  } catch (error) {
    const reason = !isFsError(error) ? (error as Error).message : error.path === dataDir ? fsErrorReason(error) : fsErrorMessage(error);
    return say(`cannot open the memory data directory ${displayPath(dataDir)}: ${reason}`);
  }
  recordDataOwner(dataDir, memoryProject);
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
