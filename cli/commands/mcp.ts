// `strand mcp --stdio [dir] --data <dir>`: the agent tools over the Model Context Protocol on
// stdin/stdout, for desktop agents that launch their MCP servers as child processes. Compiles the
// project in process and opens the store like `serve` (so the data directory must not be served
// at the same time: one process per data directory). stdout carries only protocol messages;
// diagnostics go to stderr. Runs until stdin closes or SIGINT/SIGTERM.
import { mkdirSync } from "node:fs";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createProtocolServer } from "../../runtime/mcp/protocol.js";
import { McpService } from "../../runtime/mcp/service.js";
import { GraphStore } from "../../runtime/store/graph-store.js";
import { CompileFailed, loadProject } from "../load-project.js";
import { displayPath } from "../sources.js";

export interface McpOptions {
  dir: string;
  dataDir: string;
  cacheEntries: number | undefined;
}

export async function runMcp(options: McpOptions): Promise<number> {
  let project: Awaited<ReturnType<typeof loadProject>>;
  try {
    project = await loadProject(options.dir);
  } catch (error) {
    if (!(error instanceof CompileFailed)) throw error;
    process.stderr.write(`${error.report}\n${error.message}; not serving\n`);
    return 1;
  }
  if (project.warnings !== "") process.stderr.write(`${project.warnings}\n`);

  let store: GraphStore;
  try {
    mkdirSync(options.dataDir, { recursive: true });
    store = GraphStore.open({
      path: options.dataDir,
      schema: project.schema,
      ...(options.cacheEntries === undefined ? {} : { cacheEntries: options.cacheEntries }),
    });
  } catch (error) {
    process.stderr.write(`strand: cannot open the data directory ${displayPath(options.dataDir)}: ${(error as Error).message}\n`);
    return 1;
  }

  const service = new McpService({ store, schema: project.schema, queries: project.queries });
  const server = createProtocolServer(service);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    process.stdin.once("end", resolve);
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await server.connect(transport);
  process.stderr.write(`strand: MCP over stdio (${service.toolNames().length} tools, data in ${displayPath(options.dataDir)})\n`);
  await closed;
  await server.close();
  await store.close();
  return 0;
}
