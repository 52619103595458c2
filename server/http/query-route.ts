// `POST /<QueryName>`: the hot path. Look the query up, check the media type, read the body under
// the size limit, validate the parameters, run the query in one read snapshot or one durable write
// transaction, and answer with the object it returns (json-answer.ts). Errors are thrown as StrandErrors and turned
// into JSON by the app's error handler. Embeddings a query needs are fetched first (query/query-runner.ts).
import type { Context, Handler } from "hono";
import { echo } from "../../core/echo.js";
import { StrandError } from "../../core/errors.js";
import { validateParams } from "./params.js";
import type { QueryModule } from "../../core/query-module.js";
import type { JsonValue } from "../../core/schema.js";
import { jsonAnswer } from "./json-answer.js";
import { IDEMPOTENCY_KEY_HEADER, idempotencyKeyOf, keyedRun, REPLAYED_HEADER } from "./idempotency-key.js";
import { jsonRequestBody } from "./json-request.js";
import type { QueryRunner } from "../../runtime/query/query-runner.js";
import { closestName } from "../../core/suggest.js";
import { callerOf, requireRole } from "./caller.js";
import { incomingOf, requestHeader } from "./request-header.js";

export interface QueryRouteOptions {
  runner: QueryRunner;
  queries: ReadonlyMap<string, QueryModule>;
  bodyLimitBytes: number;
  /** The largest answer, in bytes of JSON (json-answer.ts); 0: none. */
  answerLimitBytes: number;
  /** How long a write's answer is kept under its Idempotency-Key (idempotency-key.ts), in ms. */
  idempotencyWindowMs: number;
  /** Answers a POST whose name is not a query (404 with a suggestion, 405 for a GET-only path, or /mcp). */
  notAQuery: (c: Context) => Response | Promise<Response>;
}

export function unknownQuery(name: string, known: readonly string[]): StrandError {
  const suggestion = closestName(name, known);
  return new StrandError(
    "UNKNOWN_QUERY",
    suggestion === undefined ? `unknown query "${echo(name)}"` : `unknown query "${echo(name)}"; did you mean "${suggestion}"?`,
  );
}

export function queryRoute({
  runner,
  queries,
  bodyLimitBytes,
  answerLimitBytes,
  idempotencyWindowMs,
  notAQuery,
}: QueryRouteOptions): Handler {
  return async (c: Context) => {
    const query = queries.get(c.req.param("name") ?? "");
    if (query === undefined) return notAQuery(c);
    if (query.writes) requireRole(callerOf(c), "write", `the query ${query.name} (it writes)`);
    const body = await jsonRequestBody(c, bodyLimitBytes);
    const params = validateParams(query.params, body);
    // Read from the forwarded headers: c.req.header would build the whole Fetch Request.
    const key = query.writes ? idempotencyKeyOf(requestHeader(c, incomingOf(c), IDEMPOTENCY_KEY_HEADER)) : undefined;
    if (key === undefined) return jsonAnswer(c, (await runner.run(query, params)) as JsonValue, answerLimitBytes);
    const { result, replayed } = await runner.runOnce(query, params, keyedRun(key, query.name, params, idempotencyWindowMs));
    if (replayed) c.header(REPLAYED_HEADER, "true");
    return jsonAnswer(c, result as JsonValue, answerLimitBytes);
  };
}
