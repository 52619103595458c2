// One function per LangGraph route (routes.ts): the body read and checked against its schema
// (wire.ts), the service called, its outcome answered as JSON or as the error that stopped it.
import type { Context } from "hono";
import { jsonErrorResponse } from "../http/error-response.js";
import { jsonRequestBody } from "../http/json-request.js";
import { parseInput } from "../mcp/input-parse.js";
import type { LangGraphService, Outcome } from "./langgraph-service.js";
import * as wire from "./wire.js";

type Handler = (service: LangGraphService, c: Context, bodyLimitBytes: number) => Promise<Response>;

function answer<T>(outcome: Outcome<T>, shape: (value: T) => object): Response {
  if (!outcome.ok) return jsonErrorResponse(outcome.error);
  return new Response(JSON.stringify(shape(outcome.value)), { headers: { "content-type": "application/json" } });
}

export const LANGGRAPH_HANDLERS: ReadonlyMap<string, Handler> = new Map<string, Handler>([
  [
    "checkpoints/get",
    async (service, c, limit) => {
      const body = parseInput(wire.getCheckpointBody, await jsonRequestBody(c, limit));
      return answer(await service.getCheckpoint(body), (checkpoint) => ({ checkpoint }));
    },
  ],
  [
    "checkpoints/list",
    async (service, c, limit) => {
      const body = parseInput(wire.listCheckpointsBody, await jsonRequestBody(c, limit));
      return answer(await service.listCheckpoints(body), (checkpoints) => ({ checkpoints }));
    },
  ],
  [
    "checkpoints/put",
    async (service, c, limit) => {
      const body = parseInput(wire.putCheckpointBody, await jsonRequestBody(c, limit));
      return answer(await service.putCheckpoint(body), () => ({}));
    },
  ],
  [
    "checkpoints/put-writes",
    async (service, c, limit) => {
      const body = parseInput(wire.putWritesBody, await jsonRequestBody(c, limit));
      return answer(await service.putWrites(body), () => ({}));
    },
  ],
  [
    "checkpoints/delete-thread",
    async (service, c, limit) => {
      const body = parseInput(wire.deleteThreadBody, await jsonRequestBody(c, limit));
      return answer(await service.deleteThread(body.thread_id), () => ({}));
    },
  ],
  [
    "store/batch",
    async (service, c, limit) => {
      const body = parseInput(wire.storeBatchBody, await jsonRequestBody(c, limit));
      return answer(await service.storeBatch(body.operations), (results) => ({ results }));
    },
  ],
]);
