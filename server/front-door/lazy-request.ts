// The Fetch Request the engine hands the Hono app, built only if something needs it. Hono routes
// on `url` and `method`, and the app reads headers and the body from the forwarded request
// (http/request-header.ts), so most requests never need a real Request: constructing one (its
// Headers, its body stream, its AbortSignal) cost about as much as answering a point read. The
// first use of any other member (the MCP transport reads `headers` and `body`) builds the real one.
import { delegatingPrototype } from "./delegating-prototype.js";

const URL_KEY = Symbol("url");
const METHOD_KEY = Symbol("method");
const INIT_KEY = Symbol("init");
const REAL_KEY = Symbol("real");

interface LazyFields {
  [URL_KEY]: string;
  [METHOD_KEY]: string;
  [INIT_KEY]: { rawHeaders: readonly string[]; body: Uint8Array | null };
  [REAL_KEY]?: Request;
}

function real(lazy: LazyFields): Request {
  let request = lazy[REAL_KEY];
  if (request === undefined) {
    const { rawHeaders, body } = lazy[INIT_KEY];
    const headers: [string, string][] = [];
    for (let i = 0; i + 1 < rawHeaders.length; i += 2) headers.push([rawHeaders[i]!, rawHeaders[i + 1]!]);
    const method = lazy[METHOD_KEY];
    const withBody = body !== null && method !== "GET" && method !== "HEAD";
    request = new Request(lazy[URL_KEY], { method, headers, body: withBody ? body : null });
    lazy[REAL_KEY] = request;
  }
  return request;
}

const prototype = delegatingPrototype<LazyFields>(Request.prototype, new Set(["url", "method"]), real);
Object.defineProperty(prototype, "url", {
  get(this: LazyFields) {
    return this[REAL_KEY]?.url ?? this[URL_KEY];
  },
});
Object.defineProperty(prototype, "method", {
  get(this: LazyFields) {
    return this[METHOD_KEY];
  },
});

/** A Request for `url` (absolute) whose real construction waits until a member other than url and method is read. */
export function lazyRequest(url: string, method: string, rawHeaders: readonly string[], body: Uint8Array | null): Request {
  const lazy = Object.create(prototype) as LazyFields;
  lazy[URL_KEY] = url;
  lazy[METHOD_KEY] = method;
  lazy[INIT_KEY] = { rawHeaders, body };
  return lazy as unknown as Request;
}

/** The same request at another URL (a tenant's path without its `/t/<tenant>` prefix); still lazy when it was. */
export function relocatedRequest(request: Request, url: string): Request {
  const lazy = request as unknown as Partial<LazyFields>;
  const init = lazy[INIT_KEY];
  if (init !== undefined && lazy[REAL_KEY] === undefined) return lazyRequest(url, request.method, init.rawHeaders, init.body);
  return new Request(url, { method: request.method, headers: request.headers, body: request.body, duplex: "half" } as RequestInit);
}
