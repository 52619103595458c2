// The same tools over the Model Context Protocol (the official SDK's low-level Server): every
// built-in tool and one `<QueryName>Mcp` tool per `#[mcp]` query, each listed with its input
// schema (input-schemas.ts, as JSON Schema). A call goes straight to McpService.call, which
// checks the arguments against that same schema, so every failure, a malformed argument
// included, is an error result whose text is the same `{"error","code"}` JSON the HTTP endpoints
// send; the SDK's own zod validation (McpServer) would answer those with a differently shaped
// text, and recurse without bound over a deeply nested filter. A tool's result is its JSON
// answer as text content.
//
// Over HTTP (`/mcp`) the server is stateless: each POST gets a fresh Server and transport (the
// SDK's pattern for stateless Streamable HTTP); the agent's state lives in the connections, which
// the service keeps across requests.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { toJsonSchemaCompat } from "@modelcontextprotocol/sdk/server/zod-json-schema-compat.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { isStrandError } from "../../core/errors.js";
import { LOCAL_CLIENT } from "./connections.js";
import { BUILTIN_TOOLS, queryInputSchema, type InputSchema } from "./input-schemas.js";
import { guardParams } from "./rpc-params.js";
import { isBuiltinToolName } from "./tool-names.js";
import type { McpService } from "./service.js";

export const SERVER_INFO = { name: "strand", version: "0.1.0" } as const;

function text(value: unknown, isError: boolean): CallToolResult {
  const result: CallToolResult = { content: [{ type: "text", text: JSON.stringify(value) }] };
  if (isError) result.isError = true;
  return result;
}

async function invoke(service: McpService, name: string, args: unknown, client: string): Promise<CallToolResult> {
  try {
    return text(await service.call(name, args ?? {}, client), false);
  } catch (error) {
    if (isStrandError(error)) return text(error.toJSON(), true);
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    process.stderr.write(`strand: internal error in MCP tool ${name}\n${detail}\n`);
    return text({ error: "internal error", code: "INTERNAL" }, true);
  }
}

/** The tools/list answer of a service, computed once (a fresh Server answers each HTTP request). */
const listings = new WeakMap<McpService, Tool[]>();

function toolList(service: McpService): Tool[] {
  let tools = listings.get(service);
  if (tools !== undefined) return tools;
  const describe = (name: string, description: string, input: InputSchema): Tool => ({
    name,
    description,
    inputSchema: toJsonSchemaCompat(input, { strictUnions: true, pipeStrategy: "input" }) as Tool["inputSchema"],
  });
  tools = [];
  for (const name of service.toolNames()) {
    if (isBuiltinToolName(name)) {
      const builtin = BUILTIN_TOOLS[name];
      tools.push(describe(name, builtin.description, builtin.input));
      continue;
    }
    const query = service.queryTool(name);
    if (query === undefined) continue;
    const returns = query.returns.length > 0 ? query.returns.join(", ") : "nothing";
    tools.push(
      describe(
        name,
        `Run the #[mcp] query ${query.name}; returns {${returns}} like POST /${query.name}.`,
        queryInputSchema(query.params, query.writes),
      ),
    );
  }
  listings.set(service, tools);
  return tools;
}

/** A protocol Server exposing the service's tools (connect it to any SDK transport); `client` owns the connections it opens. */
export function createProtocolServer(service: McpService, client: string = LOCAL_CLIENT): Server {
  const server = new Server(SERVER_INFO, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolList(service) }));
  server.setRequestHandler(CallToolRequestSchema, (request) => invoke(service, request.params.name, request.params.arguments, client));
  return server;
}

/**
 * Answers one Streamable HTTP POST at `/mcp` (stateless, JSON responses). GET and DELETE
 * (server-sent event streams and session ends) do not apply to a stateless server: routes.ts
 * answers them 405 before they get here.
 */
export async function handleProtocolRequest(
  service: McpService,
  request: Request,
  bodyLimitBytes: number,
  client: string,
): Promise<Response> {
  const server = createProtocolServer(service, client);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: Math.max(1, bodyLimitBytes),
  });
  await server.connect(transport);
  guardParams(transport);
  try {
    return await transport.handleRequest(request);
  } finally {
    await server.close();
  }
}
