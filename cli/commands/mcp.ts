// `strand mcp --stdio [dir] --data <dir>`: the agent tools over the Model Context Protocol on
// stdin/stdout, for desktop agents that launch their MCP servers as child processes. Compiles the
// project in process and opens the store like `serve` (so the data directory must not be served
// at the same time: one process per data directory). stdout carries only protocol messages;
// diagnostics go to stderr. Runs until stdin closes or SIGINT/SIGTERM.
import { DEFAULT_QUERY_TIMEOUT_MS } from "../../runtime/query/query-deadline.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createProtocolServer } from "../../server/mcp/protocol.js";
import { guardParams } from "../../server/mcp/rpc-params.js";
import { McpService } from "../../server/mcp/service.js";
import { mcpConnectionOptions, mcpLimitOptions, openProject } from "../project/open-project.js";
import { displayPath } from "../project/sources.js";

export interface McpOptions {
  dir: string;
  dataDir: string;
  cacheEntries: number | undefined;
  /** --cache-size: the read cache's budget in estimated bytes; undefined: the store's default. */
  cacheBytes: number | undefined;
}

export async function runMcp(options: McpOptions): Promise<number> {
  const opened = await openProject(
    options.dir,
    options.dataDir,
    { entries: options.cacheEntries, bytes: options.cacheBytes },
    "starting the MCP server",
    { queryTimeoutMs: (config) => config.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS },
  );
  if (opened === null) return 1;
  const { config, project, store, embedders } = opened;

  if (!config.mcp) {
    process.stderr.write("strand: mcp = false in the project configuration; not starting the MCP server\n");
    await store.close();
    return 1;
  }
  const service = new McpService({
    store,
    schema: project.schema,
    queries: project.queries,
    embedders,
    vectorMetric: config.vector.metric,
    connections: { ...mcpConnectionOptions(config), ...mcpLimitOptions(config) },
    bm25: config.bm25,
  });
  const server = createProtocolServer(service);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    process.stdin.once("end", resolve);
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await server.connect(transport);
  guardParams(transport);
  process.stderr.write(`strand: MCP over stdio (${service.toolNames().length} tools, data in ${displayPath(options.dataDir)})\n`);
  await closed;
  await server.close();
  await store.close();
  return 0;
}
