// One log line and one metrics observation per answered request. The front-door thread watches its
// Node server and takes a record where Node finishes each response (so the duration covers
// writing it, and requests no route saw are counted too); the engine thread, which owns the
// logger and the metrics registry, turns each record into the line and the observation.
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Logger } from "./logger.js";
import type { ServerMetrics } from "./metrics.js";
import { type RouteNames, routeLabel } from "./route-label.js";

/** One answered request, as the front door saw it. */
export interface RequestRecord {
  method: string;
  url: string;
  status: number;
  seconds: number;
  bytes: number;
}

export interface RequestObserverOptions {
  logger: Logger;
  metrics: ServerMetrics | null;
  names: RouteNames;
}

/** Calls `onRecord` once per response `server` finishes. */
export function watchRequests(server: Server, onRecord: (record: RequestRecord) => void): void {
  server.prependListener("request", (req: IncomingMessage, res: ServerResponse) => {
    const started = process.hrtime.bigint();
    const bytes = countBodyBytes(res);
    res.once("finish", () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      onRecord({ method: req.method ?? "", url: req.url ?? "/", status: res.statusCode, seconds, bytes: bytes.count });
    });
  });
}

/** Logs and counts one record (the request's route label decides its metrics series). */
export function requestRecorder(options: RequestObserverOptions): (record: RequestRecord) => void {
  const { logger, metrics, names } = options;
  const logRequests = logger.isLevelEnabled("info");
  return ({ method, url, status, seconds, bytes }) => {
    const route = routeLabel(url, names);
    metrics?.observe(route, status, seconds);
    if (!logRequests && status < 500) return;
    const line = {
      method,
      path: url.length > 200 ? `${url.slice(0, 197)}...` : url,
      route,
      status,
      ms: Math.round(seconds * 1e6) / 1e3,
      bytes,
    };
    if (status >= 500) logger.error(line, "request");
    else logger.info(line, "request");
  };
}

/** Counts the body bytes written to `res` (most answers are written without a Content-Length). */
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
