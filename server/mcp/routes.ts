// The HTTP face of the agent tools, called by server/app.ts for every path under /mcp:
//
//   POST /mcp/<tool>   → the tool's JSON answer (service.ts); other methods 405
//   POST /mcp          → the MCP protocol endpoint (Streamable HTTP, protocol.ts); other methods
//                        405: a stateless server offers no GET event stream and no session to DELETE
//
// With MCP disabled every /mcp path answers 404 with a JSON error. These are not Hono routes:
// the app hands them over from its unrouted-request handler, because a POST route next to
// `POST /:name` makes Hono fall back from its RegExpRouter to the slower TrieRouter for queries.
import type { Context } from "hono";
import { StrandError } from "../../core/errors.js";
import { clientOf } from "./client-id.js";
import { errorToResponse, jsonErrorResponse } from "../http/error-response.js";
import { jsonRequestBody } from "../http/json-request.js";
import type { McpService } from "./service.js";

export const MCP_PATH = "/mcp";

/**
 * The MCP protocol module (the MCP SDK and zod) is loaded by the first request that needs it:
 * loading it was a large share of every start, and most servers never see one.
 */
let protocol: Promise<typeof import("./protocol.js")> | null = null;
const TOOL_PATH = /^\/mcp\/([^/]+)$/;
const JSON_HEADERS = { "content-type": "application/json" } as const;

export function isMcpPath(path: string): boolean {
  return path === MCP_PATH || path.startsWith(`${MCP_PATH}/`);
}

/** Answers a request whose path satisfies isMcpPath; `service` null means MCP is disabled. */
export function mcpHandler(service: McpService | null, bodyLimitBytes: number): (c: Context) => Promise<Response> {
  return async (c) => {
    const { method, path } = c.req;
    if (service === null) {
      return jsonErrorResponse(
        new StrandError("NOT_FOUND", `no route for ${method} ${path}: the MCP endpoints are disabled (mcp = false)`),
      );
    }
    try {
      const tool = path === MCP_PATH ? undefined : TOOL_PATH.exec(path)?.[1];
      if (path !== MCP_PATH && tool === undefined) return jsonErrorResponse(new StrandError("NOT_FOUND", `no route for ${method} ${path}`));
      if (method !== "POST") {
        return jsonErrorResponse(new StrandError("METHOD_NOT_ALLOWED", `method ${method} is not allowed on ${path}; use POST`), {
          allow: "POST",
        });
      }
      const client = clientOf(c);
      if (tool === undefined) {
        protocol ??= import("./protocol.js");
        return await (await protocol).handleProtocolRequest(service, c.req.raw, bodyLimitBytes, client);
      }
      const body = await jsonRequestBody(c, bodyLimitBytes);
      const result = await service.call(tool, body, client);
      return new Response(JSON.stringify(result), { headers: JSON_HEADERS });
    } catch (error) {
      return errorToResponse(error);
    }
  };
}
