// `strand memory [--data DIR]`: the MCP memory server (@modelcontextprotocol/server-memory's nine
// tools, server/memory/) on stdin/stdout, over a durable Strand store in DIR (default
// ./memory-data), for agents that launch their MCP servers as child processes. stdout carries
// only protocol messages; diagnostics go to stderr. Runs until stdin closes or SIGINT/SIGTERM.
//
// `strand memory import FILE [--data DIR]`: a reference server's memory.jsonl merged into the
// store in one transaction (server/memory/graph-import.ts); a bad line is named and nothing is
// written. Both hold the data directory alone while they run, as every Strand process does.
//
// With --embedding-model (memory-store.ts), search_nodes ranks by BM25 and by meaning, fused
// (server/memory/search.ts), and every write keeps its entities' text vectors; an import too.
import { readFileSync } from "node:fs";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { stdioClosed } from "./stdio-closed.js";
import { parseMemoryFile } from "../../server/memory/jsonl.js";
import { createMemoryServer } from "../../server/memory/tools.js";
import { fsErrorMessage, isFsError } from "../project/fs-errors.js";
import { displayPath } from "../project/sources.js";
import { memoryEmbedder, openMemory, type OpenMemoryOptions } from "./memory-store.js";

export interface MemoryOptions {
  dataDir: string;
  /** --embedding-model: search_nodes by BM25 and meaning; absent: BM25 alone. */
  embeddingModel?: string | undefined;
}

export interface MemoryImportOptions {
  dataDir: string;
  file: string;
  embeddingModel?: string | undefined;
}

/** The embedder of --embedding-model as openMemory takes it, or null after printing why it cannot be had. */
function embedderOption(model: string | undefined): OpenMemoryOptions | null {
  const embedder = memoryEmbedder(model);
  if (typeof embedder !== "string") return { embedder };
  process.stderr.write(`strand: ${embedder}\n`);
  return null;
}

export async function runMemory(options: MemoryOptions): Promise<number> {
  const embedding = embedderOption(options.embeddingModel);
  if (embedding === null) return 1;
  const opened = await openMemory(options.dataDir, "starting the memory server", embedding);
  if (opened === null) return 1;
  const server = createMemoryServer(opened.service, { subscriptions: true });
  const transport = new StdioServerTransport();
  const closed = stdioClosed(transport);
  await server.connect(transport);
  const model = opened.service.embeddingModel;
  const search = model === null ? "" : `; search_nodes by BM25 and by meaning with ${model}`;
  process.stderr.write(`strand: MCP memory server over stdio (data in ${displayPath(options.dataDir)}${search})\n`);
  await closed;
  await server.close();
  await opened.store.close();
  return 0;
}

export async function runMemoryImport(options: MemoryImportOptions): Promise<number> {
  const say = (line: string): number => {
    process.stderr.write(`strand: ${line}\n`);
    return 1;
  };
  const file = displayPath(options.file);
  let text: string;
  try {
    text = readFileSync(options.file, "utf8");
  } catch (error) {
    if (isFsError(error)) return say(`cannot read ${file}: ${fsErrorMessage(error)}`);
    throw error;
  }
  // The file is checked whole before the store is opened: a bad line writes nothing, not even a directory.
  const parsed = parseMemoryFile(text);
  if (!parsed.ok) return say(`${file}:${parsed.line}: ${parsed.message}; nothing imported`);
  const embedding = embedderOption(options.embeddingModel);
  if (embedding === null) return 1;
  const opened = await openMemory(options.dataDir, "importing", embedding);
  if (opened === null) return 1;
  try {
    const outcome = await opened.service.importItems(parsed.items);
    if (!outcome.ok) return say(`${file}: ${outcome.error.message} (${outcome.error.code}); nothing imported`);
    const c = outcome.value;
    process.stdout.write(
      `imported ${file} into ${displayPath(options.dataDir)}: ${c.entities} entities (${c.newEntities} new, ` +
        `${c.mergedObservations} observations merged into existing ones), ${c.relations} relations (${c.newRelations} new)\n`,
    );
    return 0;
  } finally {
    await opened.store.close();
  }
}
