// Reads one request header without materialising a Fetch `Headers` object when the request came
// through @hono/node-server (whose lightweight Request builds Headers lazily, at a cost).
import type { IncomingMessage } from "node:http";
import type { Context } from "hono";

/** The Node request behind a Hono context, when served by @hono/node-server. */
export function incomingOf(c: Context): IncomingMessage | undefined {
  const env = c.env as { incoming?: IncomingMessage } | undefined;
  return env?.incoming;
}

/** `name` must be lower-case. */
export function requestHeader(c: Context, incoming: IncomingMessage | undefined, name: string): string | undefined {
  if (incoming !== undefined) {
    const value = incoming.headers[name];
    return Array.isArray(value) ? value.join(", ") : value;
  }
  return c.req.raw.headers.get(name) ?? undefined;
}
