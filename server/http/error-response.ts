// Every error leaves the server as `{"error": "...", "code": "..."}` with the status its code maps
// to. StrandErrors are expected outcomes (bad input, missing ids, conflicts); anything else that
// escapes a handler is a bug: its stack goes to stderr and the client sees a generic 500.
import { isStrandError, type StrandError } from "../../core/errors.js";
import { httpStatus } from "./status.js";

const JSON_HEADERS = { "content-type": "application/json" } as const;

export function jsonErrorResponse(error: StrandError, extraHeaders?: Record<string, string>): Response {
  const headers = extraHeaders === undefined ? JSON_HEADERS : { ...JSON_HEADERS, ...extraHeaders };
  return new Response(JSON.stringify(error.toJSON()), { status: httpStatus(error.code), headers });
}

const INTERNAL_BODY = JSON.stringify({ error: "internal error", code: "INTERNAL" });

export function internalErrorResponse(): Response {
  return new Response(INTERNAL_BODY, { status: 500, headers: JSON_HEADERS });
}

/** Maps anything a handler threw to a response; logs the stack of unexpected errors. */
export function errorToResponse(error: unknown): Response {
  if (isStrandError(error)) return jsonErrorResponse(error);
  const detail = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
  process.stderr.write(`strand: internal error while handling a request\n${detail}\n`);
  return internalErrorResponse();
}
