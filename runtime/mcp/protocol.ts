// The same tools over the Model Context Protocol (the official SDK's McpServer): every built-in
// tool and one `<QueryName>Mcp` tool per `#[mcp]` query, each with its input schema. A tool's
// result is its JSON answer as text content; a StrandError becomes an error result whose text is
// the same `{"error","code"}` JSON the HTTP endpoints send.
//
// Over HTTP (`/mcp`) the server is stateless: each POST gets a fresh McpServer and transport (the
// SDK's pattern for stateless Streamable HTTP); the agent's state lives in the connections, which
// the service keeps across requests.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { isStrandError } from "../errors.js";
import { BUILTIN_TOOLS, queryInputSchema, type InputSchema } from "./input-schemas.js";
import type { McpService } from "./service.js";

export const SERVER_INFO = { name: "strand", version: "0.1.0" } as const;

function text(value: unknown, isError: boolean): CallToolResult {
  const result: CallToolResult = { content: [{ type: "text", text: JSON.stringify(value) }] };
  if (isError) result.isError = true;
  return result;
}

async function invoke(service: McpService, name: string, args: unknown): Promise<CallToolResult> {
  try {
    return text(await service.call(name, args ?? {}), false);
  } catch (error) {
    if (isStrandError(error)) return text(error.toJSON(), true);
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    process.stderr.write(`strand: internal error in MCP tool ${name}\n${detail}\n`);
    return text({ error: "internal error", code: "INTERNAL" }, true);
  }
}

/** An McpServer exposing the service's tools (connect it to any SDK transport). */
export function createProtocolServer(service: McpService): McpServer {
  const server = new McpServer(SERVER_INFO);
  const register = (name: string, description: string, input: InputSchema): void => {
    server.registerTool(name, { description, inputSchema: input }, (args: unknown) => invoke(service, name, args));
  };
  for (const [name, tool] of Object.entries(BUILTIN_TOOLS)) register(name, tool.description, tool.input);
  for (const name of service.toolNames()) {
    const query = service.queryTool(name);
    if (query === undefined) continue;
    const returns = query.returns.length > 0 ? query.returns.join(", ") : "nothing";
    register(name, `Run the #[mcp] query ${query.name}; returns {${returns}} like POST /${query.name}.`, queryInputSchema(query.params));
  }
  return server;
}

/**
 * Answers one Streamable HTTP request at `/mcp` (stateless, JSON responses). GET and DELETE
 * (server-sent event streams and session ends) do not apply to a stateless server: the
 * transport answers them 405.
 */
export async function handleProtocolRequest(service: McpService, request: Request, bodyLimitBytes: number): Promise<Response> {
  const server = createProtocolServer(service);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: Math.max(1, bodyLimitBytes),
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request);
  } finally {
    await server.close();
  }
}
