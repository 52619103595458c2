// The HTTP face of the memory tools, called by server/app.ts for every path under /memory/:
//
//   POST /memory/mcp   → the MCP memory server's nine tools (Streamable HTTP, stateless; http.ts)
//   other methods 405 (no event stream, no session to end); other paths under /memory/ 404
//
// With the memory off (the default; `strand serve --memory`) every such path answers 404 saying
// how to turn it on. Not a Hono route, for the reason server/mcp/routes.ts gives.
import type { Context } from "hono";
import { StrandError } from "../../core/errors.js";
import { errorToResponse, jsonErrorResponse } from "../http/error-response.js";
import type { MemoryService } from "./memory-service.js";

export const MEMORY_MCP_PATH = "/memory/mcp";

let protocol: Promise<typeof import("./http.js")> | null = null;

export function isMemoryPath(path: string): boolean {
  return path.startsWith("/memory/");
}

/** A request under /memory/ while the memory is off: 404 saying how to turn it on. */
export function memoryOff(method: string, path: string): Response {
  return jsonErrorResponse(
    new StrandError(
      "NOT_FOUND",
      `no route for ${method} ${path}: the memory server is off (start strand serve with --memory, or set [server] memory = true)`,
    ),
  );
}

/** The memory service, or how to have it: opened on first use (a tenant's memory, server/tenants/). */
export type MemorySource = MemoryService | (() => Promise<MemoryService>);

/** Answers a request whose path satisfies isMemoryPath; `source` null means the memory is off. */
export function memoryHandler(source: MemorySource | null, bodyLimitBytes: number): (c: Context) => Promise<Response> {
  return async (c) => {
    const { method, path } = c.req;
    if (source === null) return memoryOff(method, path);
    if (path !== MEMORY_MCP_PATH) return jsonErrorResponse(new StrandError("NOT_FOUND", `no route for ${method} ${path}`));
    if (method !== "POST") {
      return jsonErrorResponse(new StrandError("METHOD_NOT_ALLOWED", `method ${method} is not allowed on ${path}; use POST`), {
        allow: "POST",
      });
    }
    try {
      const service = typeof source === "function" ? await source() : source;
      protocol ??= import("./http.js");
      return await (await protocol).handleMemoryRequest(service, c.req.raw, bodyLimitBytes);
    } catch (error) {
      return errorToResponse(error);
    }
  };
}
