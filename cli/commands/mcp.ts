// `strand mcp --stdio [dir] --data <dir>`: the agent tools over the Model Context Protocol on
// stdin/stdout, for desktop agents that launch their MCP servers as child processes. Compiles the
// project in process and opens the store like `serve` (so the data directory must not be served
// at the same time: one process per data directory). stdout carries only protocol messages;
// diagnostics go to stderr. Runs until stdin closes or SIGINT/SIGTERM.
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { stdioClosed } from "./stdio-closed.js";
import { createProtocolServer } from "../../server/mcp/protocol.js";
import { guardParams } from "../../server/mcp/rpc-params.js";
import { McpService } from "../../server/mcp/service.js";
import type { GivenSettings } from "../config/knobs.js";
import { embedderNotice, embedderNoticeLine } from "../project/embedder-notice.js";
import { openProject } from "../project/open-project.js";
import { displayPath } from "../project/sources.js";

export interface McpOptions {
  dir: string;
  /** The settings the command line gave: --data, --cache-entries, --cache-size. */
  flags: GivenSettings;
}

export async function runMcp(options: McpOptions): Promise<number> {
  const opened = await openProject(options.dir, options.flags, "starting the MCP server");
  if (opened === null) return 1;
  const { settings, project, store, embedders } = opened;

  if (!settings.mcp.enabled) {
    process.stderr.write("strand: mcp = false in the project configuration; not starting the MCP server\n");
    await store.close();
    return 1;
  }
  const service = new McpService({
    store,
    schema: project.schema,
    queries: project.queries,
    embedders,
    vectorMetric: settings.store.vector.metric,
    connections: settings.mcp.connections,
    bm25: settings.store.bm25,
    vectorDataInAnswers: settings.server.vectorDataInAnswers,
  });
  const server = createProtocolServer(service);
  const transport = new StdioServerTransport();
  const closed = stdioClosed(transport);
  await server.connect(transport);
  guardParams(transport);
  process.stderr.write(`strand: MCP over stdio (${service.toolNames().length} tools, data in ${displayPath(settings.store.dataDir)})\n`);
  const embedding = embedderNotice(opened.config, project.schema, project.models);
  if (embedding !== null) process.stderr.write(embedderNoticeLine(embedding));
  await closed;
  await server.close();
  await store.close();
  return 0;
}
