// What the app reads of a request beyond its Fetch `Request`: Node's parsed headers (a lookup
// without materialising a Fetch `Headers`), the TCP peer's address and the body the front door
// already read (server/front-door/). They travel beside the Request, in the Hono env, set by the
// server itself: never taken from anything a client sends.
import type { IncomingHttpHeaders } from "node:http";
import type { Context } from "hono";
import type { ErrorCode } from "../../core/errors.js";

export interface IncomingRequest {
  /** Lower-case names; a repeated header's values joined with ", ". */
  readonly headers: IncomingHttpHeaders;
  /** The address of the TCP peer (per-client caps, server/mcp/client-id.ts). */
  readonly remoteAddress: string | undefined;
  /** The whole body, read within the body limit. */
  readonly body: Uint8Array;
  /** Why the body was not read (past the limit, too many values): what reading it answers. */
  readonly refusal: { readonly code: ErrorCode; readonly message: string } | null;
}

/** The request as the server forwarded it; undefined under `app.request` (tests) or another adaptor. */
export function incomingOf(c: Context): IncomingRequest | undefined {
  const env = c.env as { forwarded?: IncomingRequest } | undefined;
  return env?.forwarded;
}

/** `name` must be lower-case. */
export function requestHeader(c: Context, incoming: IncomingRequest | undefined, name: string): string | undefined {
  if (incoming !== undefined) {
    const value = incoming.headers[name];
    return Array.isArray(value) ? value.join(", ") : value;
  }
  return c.req.raw.headers.get(name) ?? undefined;
}
