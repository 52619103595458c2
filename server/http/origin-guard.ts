// Browser safety. A web page on any origin can make a browser send a "simple" request (a POST with
// a form or text/plain body, no preflight) to a local Strand, and a DNS-rebinding page can even
// look same-origin. Three rules close that:
//   1. A request with an `Origin` header from another origin is refused (403 FORBIDDEN_ORIGIN)
//      unless that origin is allowed with --cors (or `*`); same-origin pages (the explorer) pass.
//   2. A server bound to a loopback address without an api key answers only loopback host names
//      (`Host: localhost`, 127.x.x.x, [::1], *.localhost): a rebinding name is refused (403
//      FORBIDDEN_HOST). Bound beyond loopback, the operator chose exposure; the key protects it.
//   3. POST bodies must be application/json (content-type.ts): browsers cannot send that
//      cross-origin without a preflight, which rule 1 answers.
// Allowed origins get CORS answers: a 204 preflight and Access-Control-Allow-Origin on responses.
import type { MiddlewareHandler } from "hono";
import { echo } from "../../core/echo.js";
import { StrandError } from "../../core/errors.js";
import { jsonErrorResponse } from "./error-response.js";
import { HostMemo } from "./host-memo.js";
import { incomingOf, requestHeader } from "./request-header.js";

export interface OriginGuardOptions {
  /** Origins allowed to call from a browser (`https://app.example:8443`), or `*` for any. */
  corsOrigins: readonly string[];
  /** Refuse non-loopback Host names (rule 2): true when bound to loopback without an api key. */
  loopbackHostsOnly: boolean;
}

const ALLOW_METHODS = "GET, HEAD, POST, OPTIONS";
// strand-after: the generated client's read-your-writes bookmark (server/replication/commit-headers.ts);
// idempotency-key: a write a page may retry (idempotency-key.ts).
const ALLOW_HEADERS = "content-type, x-api-key, authorization, strand-after, idempotency-key";
/** Response headers a page may read besides the CORS-safelisted ones: the bookmark it sends back, and whether an answer was replayed. */
const EXPOSE_HEADERS = "strand-commit, idempotent-replayed";
const PREFLIGHT_MAX_AGE_SECONDS = "600";

/** The serialised origin of a URL-like string, or undefined when it is not http(s). */
export function normalOrigin(value: string): string | undefined {
  try {
    const url = new URL(value);
    if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
    return url.origin;
  } catch {
    return undefined;
  }
}

/** Whether a Host header names this machine's loopback interface. */
export function isLoopbackHost(host: string): boolean {
  return loopbackHosts.get(host);
}

const loopbackHosts = new HostMemo(loopbackName);

function loopbackName(host: string): boolean {
  let name: string;
  try {
    name = new URL(`http://${host}`).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (name === "localhost" || name.endsWith(".localhost") || name === "[::1]") return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

export function originGuard(options: OriginGuardOptions): MiddlewareHandler {
  const anyOrigin = options.corsOrigins.includes("*");
  const allowed = new Set(options.corsOrigins.map((o) => normalOrigin(o) ?? o));
  return async (c, next) => {
    const incoming = incomingOf(c);
    const host = requestHeader(c, incoming, "host");
    if (options.loopbackHostsOnly && (host === undefined || !isLoopbackHost(host))) {
      return jsonErrorResponse(
        new StrandError(
          "FORBIDDEN_HOST",
          `Host "${echo(host ?? "")}" is not a loopback name: a server on a loopback address without an api key answers only localhost names (a guard against DNS rebinding); set --api-key or bind with --host`,
        ),
      );
    }
    const origin = requestHeader(c, incoming, "origin");
    if (origin === undefined) return next();
    const sameOrigin = host !== undefined && normalOrigin(origin) === normalOrigin(`http://${host}`);
    const corsAllowed = anyOrigin || allowed.has(normalOrigin(origin) ?? origin);
    if (!sameOrigin && !corsAllowed) {
      return jsonErrorResponse(
        new StrandError(
          "FORBIDDEN_ORIGIN",
          `requests from the web page at ${echo(origin)} are refused; allow that origin with --cors ${echo(origin)}`,
        ),
        { vary: "Origin" },
      );
    }
    if (!corsAllowed) return next();
    const corsHeaders = { "access-control-allow-origin": anyOrigin ? "*" : origin, vary: "Origin" };
    if (c.req.method === "OPTIONS" && requestHeader(c, incoming, "access-control-request-method") !== undefined) {
      return new Response(null, {
        status: 204,
        headers: {
          ...corsHeaders,
          "access-control-allow-methods": ALLOW_METHODS,
          "access-control-allow-headers": ALLOW_HEADERS,
          "access-control-max-age": PREFLIGHT_MAX_AGE_SECONDS,
        },
      });
    }
    await next();
    for (const [name, value] of Object.entries(corsHeaders)) c.res.headers.set(name, value);
    c.res.headers.set("access-control-expose-headers", EXPOSE_HEADERS);
  };
}
