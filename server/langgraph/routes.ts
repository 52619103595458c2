// The HTTP face of StrandSaver and StrandStore (the `strand/langgraph` export), called by
// server/app.ts for every path under /memory/langgraph/ when `strand serve --memory` is on:
//
//   POST /memory/langgraph/checkpoints/get            {thread_id, checkpoint_ns?, checkpoint_id?} → {checkpoint}
//   POST /memory/langgraph/checkpoints/list           {thread_id?, checkpoint_ns?, checkpoint_id?, before_id?, filter?, limit?} → {checkpoints}
//   POST /memory/langgraph/checkpoints/put            {thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id?, checkpoint, metadata, filterable} → {}
//   POST /memory/langgraph/checkpoints/put-writes     {thread_id, checkpoint_ns, checkpoint_id, task_id, task_path, writes} → {}
//   POST /memory/langgraph/checkpoints/delete-thread  {thread_id} → {}
//   POST /memory/langgraph/store/batch                {operations} → {results}
//
// Bodies are checked by wire.ts (loaded with zod by the first such request). Other methods 405,
// other paths 404; with the memory off, 404 saying how to turn it on. Not Hono routes, for the
// reason server/mcp/routes.ts gives.
import type { Context } from "hono";
import { StrandError } from "../../core/errors.js";
import { errorToResponse, jsonErrorResponse } from "../http/error-response.js";
import { memoryOff } from "../memory/routes.js";
import type { LangGraphService } from "./langgraph-service.js";

export const LANGGRAPH_PREFIX = "/memory/langgraph/";

let handlers: Promise<typeof import("./handlers.js")> | null = null;

export function isLangGraphPath(path: string): boolean {
  return path.startsWith(LANGGRAPH_PREFIX);
}

/** Answers a request whose path satisfies isLangGraphPath; `service` null means the memory is off. */
export function langGraphHandler(service: LangGraphService | null, bodyLimitBytes: number): (c: Context) => Promise<Response> {
  return async (c) => {
    const { method, path } = c.req;
    if (service === null) return memoryOff(method, path);
    try {
      handlers ??= import("./handlers.js");
      const handler = (await handlers).LANGGRAPH_HANDLERS.get(path.slice(LANGGRAPH_PREFIX.length));
      if (handler === undefined) return jsonErrorResponse(new StrandError("NOT_FOUND", `no route for ${method} ${path}`));
      if (method !== "POST") {
        return jsonErrorResponse(new StrandError("METHOD_NOT_ALLOWED", `method ${method} is not allowed on ${path}; use POST`), {
          allow: "POST",
        });
      }
      return await handler(service, c, bodyLimitBytes);
    } catch (error) {
      return errorToResponse(error);
    }
  };
}
