// `POST /query`: an ad-hoc HelixQL query, `{"query": "<HelixQL>", "params": {..}, "explain": false}`.
// The text is compiled against the served schema (the AdHocCompiler the command put in; compiled
// once per distinct text), its parameters validated as a named query's, and it runs as one (the
// same time limit, embeddings, answer shape). A query that does not compile is 400 INVALID_QUERY
// with every diagnostic; one that writes runs only on a server with keys, for a key whose role
// allows writes (else 403 WRITE_FORBIDDEN without keys, ROLE_FORBIDDEN with a read key). `"explain": true` answers what it would read instead of
// running it, each step with its estimated rows. Not a Hono route, for the reason server/mcp/routes.ts gives.
import type { Context } from "hono";
import { StrandError } from "../../core/errors.js";
import type { JsonValue } from "../../core/schema.js";
import type { QueryRunner } from "../../runtime/query/query-runner.js";
import { errorToResponse, jsonErrorResponse } from "../http/error-response.js";
import { jsonAnswer } from "../http/json-answer.js";
import { jsonRequestBody } from "../http/json-request.js";
import { validateParams } from "../http/params.js";
import { callerOf, requireRole } from "../http/caller.js";
import type { AdHocCompiler, AdHocDiagnostic, AdHocPlanStats } from "./adhoc-compiler.js";

export const ADHOC_PATH = "/query";

export interface AdHocRouteOptions {
  compiler: AdHocCompiler;
  runner: QueryRunner;
  bodyLimitBytes: number;
  answerLimitBytes: number;
  /** The store's counts for the plan's row estimates, or null when the store gives none. */
  planStats: () => AdHocPlanStats | null;
  /** Whether the server has keys: ad-hoc writes need a key with the role write or admin. */
  keyed: boolean;
}

const MEMBERS = new Set(["query", "params", "explain"]);

export function adHocHandler(options: AdHocRouteOptions | null): (c: Context) => Promise<Response> {
  return async (c) => {
    if (options === null) {
      return jsonErrorResponse(
        new StrandError("NOT_FOUND", `no route for ${c.req.method} ${c.req.path}: ad-hoc queries are off on this server`),
      );
    }
    if (c.req.method !== "POST") {
      return jsonErrorResponse(new StrandError("METHOD_NOT_ALLOWED", `method ${c.req.method} is not allowed on ${ADHOC_PATH}; use POST`), {
        allow: "POST",
      });
    }
    try {
      const body = await jsonRequestBody(c, options.bodyLimitBytes);
      const { text, params, explain } = requestOf(body);
      const compiled = await options.compiler.compile(text, params);
      if (!compiled.ok) return invalidQuery(compiled.diagnostics);
      const query = compiled.query;
      if (explain) {
        const plan = compiled.plan(options.planStats(), params);
        return c.json({ params: query.params, writes: query.writes, plan } as unknown as Record<string, never>);
      }
      if (query.writes && !options.keyed) {
        throw new StrandError(
          "WRITE_FORBIDDEN",
          "this ad-hoc query writes: ad-hoc writes need a server with an api key (--api-key or STRAND_API_KEY), sent by the caller",
        );
      }
      if (query.writes) requireRole(callerOf(c), "write", "an ad-hoc query that writes");
      const validated = validateParams(query.params, params);
      return await jsonAnswer(c, (await options.runner.run(query, validated)) as JsonValue, options.answerLimitBytes);
    } catch (error) {
      return errorToResponse(error);
    }
  };
}

function requestOf(body: unknown): { text: string; params: Record<string, unknown>; explain: boolean } {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new StrandError("INVALID_BODY", 'request body must be a JSON object: {"query": "<HelixQL>", "params": {..}}');
  }
  const b = body as Record<string, unknown>;
  for (const key of Object.keys(b)) {
    if (!MEMBERS.has(key)) throw new StrandError("UNKNOWN_PARAMETER", `unknown member '${key}' (expected: query, params, explain)`);
  }
  if (b.query === undefined)
    throw new StrandError("MISSING_PARAMETER", "missing 'query' (the HelixQL text: a whole QUERY, or a body and a RETURN)");
  if (typeof b.query !== "string")
    throw new StrandError("INVALID_PARAMETER", `'query' must be HelixQL text (a string), got ${kindOf(b.query)}`);
  if (b.query.trim() === "") throw new StrandError("INVALID_PARAMETER", "'query' is empty: send HelixQL text");
  const params = b.params ?? {};
  if (typeof params !== "object" || params === null || Array.isArray(params)) {
    throw new StrandError("INVALID_PARAMETER", "'params' must be a JSON object of the query's parameters");
  }
  if (b.explain !== undefined && typeof b.explain !== "boolean")
    throw new StrandError("INVALID_PARAMETER", "'explain' must be true or false");
  return { text: b.query, params: params as Record<string, unknown>, explain: b.explain === true };
}

function kindOf(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "an array" : typeof value === "object" ? "an object" : `a ${typeof value}`;
}

function invalidQuery(diagnostics: readonly AdHocDiagnostic[]): Response {
  const errors = diagnostics.filter((d) => d.severity === "error");
  const first = errors[0] ?? diagnostics[0];
  const error =
    first === undefined
      ? "the query does not compile"
      : `the query does not compile: ${first.code} at ${first.line}:${first.column}: ${first.message}${errors.length > 1 ? ` (and ${errors.length - 1} more)` : ""}`;
  const body = { error, code: "INVALID_QUERY", diagnostics };
  return new Response(JSON.stringify(body), { status: 400, headers: { "content-type": "application/json" } });
}
