// `strand serve --memory`'s LangGraph store (server/langgraph/): the checkpoints of StrandSaver
// and the items of StrandStore, in `<data>/langgraph`, beside the MCP memory's `<data>/memory`.
// Searches embed with the served project's default embedder.
import { join } from "node:path";
import type { TextEmbedder } from "../../runtime/embed/types.js";
import type { GraphStore } from "../../runtime/graph-store.js";
import { LangGraphService } from "../../server/langgraph/langgraph-service.js";
import type { Settings } from "../config/settings.js";
import { openBuiltinStore } from "./builtin-store.js";

/** The LangGraph store's folder under `strand serve`'s data directory. */
export const SERVED_LANGGRAPH_DIR = "langgraph";

export interface OpenedLangGraph {
  store: GraphStore;
  service: LangGraphService;
}

/** The LangGraph store in `<data>/langgraph`, or null after printing why not. */
export async function openServedLangGraph(settings: Settings, embedder: TextEmbedder): Promise<OpenedLangGraph | null> {
  const opened = await openBuiltinStore({
    template: "langgraph",
    what: "the LangGraph store",
    dirName: "the LangGraph data directory",
    dataDir: join(settings.store.dataDir, SERVED_LANGGRAPH_DIR),
    doing: "serving",
    bm25: false,
    queryTimeoutMs: settings.store.queryTimeoutMs,
  });
  if (opened === null) return null;
  const service = LangGraphService.create(opened.store, opened.queries, { embedder });
  if ("error" in service) {
    await opened.store.close();
    process.stderr.write(`strand: the built-in LangGraph project is broken: ${service.error}\n`);
    return null;
  }
  return { store: opened.store, service };
}
