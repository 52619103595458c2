// One log line and one metrics observation per answered request, taken where Node finishes the
// response (so the duration covers writing it, and requests no route saw are counted too).
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Logger } from "./logger.js";
import type { ServerMetrics } from "./metrics.js";
import { type RouteNames, routeLabel } from "./route-label.js";

export interface RequestObserverOptions {
  logger: Logger;
  metrics: ServerMetrics | null;
  names: RouteNames;
}

export function observeRequests(server: Server, options: RequestObserverOptions): void {
  const { logger, metrics, names } = options;
  const logRequests = logger.isLevelEnabled("info");
  server.prependListener("request", (req: IncomingMessage, res: ServerResponse) => {
    const started = process.hrtime.bigint();
    const bytes = countBodyBytes(res);
    res.once("finish", () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const url = req.url ?? "/";
      const route = routeLabel(url, names);
      metrics?.observe(route, res.statusCode, seconds);
      if (!logRequests && res.statusCode < 500) return;
      const line = {
        method: req.method,
        path: url.length > 200 ? `${url.slice(0, 197)}...` : url,
        route,
        status: res.statusCode,
        ms: Math.round(seconds * 1e6) / 1e3,
        bytes: bytes.count,
      };
      if (res.statusCode >= 500) logger.error(line, "request");
      else logger.info(line, "request");
    });
  });
}

/** Counts the body bytes written to `res` (the adaptor sets no Content-Length on most answers). */
function countBodyBytes(res: ServerResponse): { count: number } {
  const counter = { count: 0 };
  const add = (chunk: unknown, encoding: unknown): void => {
    if (typeof chunk === "string")
      counter.count += Buffer.byteLength(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8");
    else if (chunk instanceof Uint8Array) counter.count += chunk.byteLength;
  };
  const write = res.write;
  const end = res.end;
  res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
    add(chunk, rest[0]);
    return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
  } as typeof res.write;
  res.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
    if (typeof chunk !== "function") add(chunk, rest[0]);
    return (end as (...a: unknown[]) => ServerResponse).call(this, chunk, ...rest);
  } as typeof res.end;
  return counter;
}
