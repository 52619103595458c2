// Optional shared-secret authentication: when the server has an api key, every request except
// `GET /health` (and HEAD) must carry it in `x-api-key` (or as `Authorization: Bearer <key>`). Compared in constant time over SHA-256 digests, so
// neither the key's content nor its length leaks through timing.
import { createHash, timingSafeEqual } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { StrandError } from "../../core/errors.js";
import { jsonErrorResponse } from "./error-response.js";
import { incomingOf, requestHeader } from "./request-header.js";

function digest(value: string): Buffer {
  return createHash("sha256").update(value, "utf8").digest();
}

/** Constant-time check of a presented key against the expected key's digest. */
export function apiKeyMatches(presented: string | undefined, expectedDigest: Buffer): boolean {
  if (presented === undefined) return false;
  return timingSafeEqual(digest(presented), expectedDigest);
}

function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  return match === null ? undefined : match[1];
}

export function apiKeyMiddleware(apiKey: string, publicPaths: ReadonlySet<string>): MiddlewareHandler {
  const expected = digest(apiKey);
  return async (c, next) => {
    // HEAD is GET without the body: a load balancer's HEAD /health must not need the key either.
    if ((c.req.method === "GET" || c.req.method === "HEAD") && publicPaths.has(c.req.path)) return next();
    const incoming = incomingOf(c);
    // `Authorization: Bearer <key>` too: what Prometheus and most HTTP tooling can send.
    const presented = requestHeader(c, incoming, "x-api-key") ?? bearerToken(requestHeader(c, incoming, "authorization"));
    if (!apiKeyMatches(presented, expected)) {
      const message = presented === undefined ? "missing x-api-key header" : "invalid api key";
      return jsonErrorResponse(new StrandError("UNAUTHORIZED", message));
    }
    return next();
  };
}
