// Opens a built-in project's store (templates/memory/, templates/langgraph/) over a data
// directory: compiles the project (once: the compile cache in the directory keeps the result for
// the next start), opens its store, and records the directory's owner. One process per data
// directory, as for every Strand store: a second one is refused with the holder's pid.
import { join } from "node:path";
import type { QueryModule } from "../../core/query-module.js";
import { GraphStore } from "../../runtime/graph-store.js";
import { DEFAULT_QUERY_TIMEOUT_MS } from "../../runtime/query/query-deadline.js";
import { makeDirs } from "../../runtime/store/make-dirs.js";
import { cliProgress } from "../progress/progress.js";
import { skipIdleTasks } from "../progress/skip-idle.js";
import { COMPILE_CACHE_DIR } from "../project/compile-cache.js";
import { dataOwnerProblem, recordDataOwner } from "../project/data-owner.js";
import { fsErrorMessage, fsErrorReason, isFsError } from "../project/fs-errors.js";
import { CompileFailed, loadProject } from "../project/load-project.js";
import { displayPath } from "../project/sources.js";
import { templateDir } from "./init.js";

export interface BuiltinStoreOptions {
  /** The folder under templates/. */
  template: string;
  /** Its name in messages: "the memory", "the LangGraph store". */
  what: string;
  /** Its data directory in messages: "the memory data directory". */
  dirName: string;
  dataDir: string;
  /** What fails without it, in messages: "serving", "starting the memory server". */
  doing: string;
  bm25: boolean;
  queryTimeoutMs?: number;
}

export interface OpenedBuiltinStore {
  store: GraphStore;
  queries: readonly QueryModule[];
}

/** The store, or null after printing why not. */
export async function openBuiltinStore(options: BuiltinStoreOptions): Promise<OpenedBuiltinStore | null> {
  const { dataDir, what, dirName, doing } = options;
  const say = (line: string): null => {
    process.stderr.write(`strand: ${line}\n`);
    return null;
  };
  const projectDir = templateDir(options.template);
  // Another project's data would be migrated to this schema: refused, as serve refuses it.
  if (dataOwnerProblem(dataDir, projectDir) !== null)
    return say(`the data directory ${displayPath(dataDir)} holds another project's data; give ${what} a directory of its own with --data`);
  let project: Awaited<ReturnType<typeof loadProject>>;
  try {
    makeDirs(dataDir);
    project = await loadProject(projectDir, { bm25: options.bm25, mcp: false, cacheDir: join(dataDir, COMPILE_CACHE_DIR) });
  } catch (error) {
    if (error instanceof CompileFailed)
      return say(`the built-in ${options.template} project does not compile; not ${doing}\n${error.report}`);
    if (isFsError(error)) return say(`cannot open ${dirName} ${displayPath(dataDir)}: ${fsErrorMessage(error)}`);
    throw error;
  }
  let store: GraphStore;
  try {
    store = GraphStore.open({
      path: dataDir,
      schema: project.schema,
      bm25: options.bm25,
      ...(options.bm25 ? { bm25Stemmer: "none" as const } : {}),
      queryTimeoutMs: options.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS,
      // Not replicated: no follower ever asks for its log, so writes leave hollow entries (runtime/commit-log/log-readers.ts).
      logOnDemand: { graceMs: 0 },
      progress: skipIdleTasks(cliProgress()),
    });
  } catch (error) {
    const reason = !isFsError(error) ? (error as Error).message : error.path === dataDir ? fsErrorReason(error) : fsErrorMessage(error);
    return say(`cannot open ${dirName} ${displayPath(dataDir)}: ${reason}`);
  }
  recordDataOwner(dataDir, projectDir);
  return { store, queries: project.queries };
}
