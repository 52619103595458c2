// One Streamable HTTP POST at /memory/mcp: stateless, as /mcp (server/mcp/protocol.ts), so each
// request gets a fresh McpServer and transport, answers in JSON, and the graph lives only in the
// store. Loaded by the first such request (routes.ts): most servers never see one. Requests are
// answered as the reference answers them over stdio (its SDK's own checks and messages).
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { MemoryService } from "./memory-service.js";
import { createMemoryServer } from "./tools.js";

export async function handleMemoryRequest(service: MemoryService, request: Request, bodyLimitBytes: number): Promise<Response> {
  const server = createMemoryServer(service, { subscriptions: false });
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
