// One log line and one metrics observation per answered request. Each door (front-door/door.ts)
// watches its Node server: it gives each request its id (request-id.ts) as it arrives, and takes a
// record where Node hands each response's last bytes to the socket (so the duration covers writing it, and requests no
// route saw are counted too); the engine thread, which owns the logger and the metrics registry,
// turns each record into the line and the observation.
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Logger } from "./logger.js";
import type { ServerMetrics } from "./metrics.js";
import { REQUEST_ID_HEADER, requestId } from "./request-id.js";
import { type RouteNames, routeLabel } from "./route-label.js";

/** One answered request, as the front door saw it. */
export interface RequestRecord {
  method: string;
  url: string;
  status: number;
  seconds: number;
  bytes: number;
  /** An error answer's code (its body's `code`), null for other answers. */
  code: string | null;
  /** The request's id (request-id.ts), also its answer's x-request-id. */
  reqId: string;
  /** The TCP peer's address (never a header such as x-forwarded-for); null once the socket was gone. */
  client: string | null;
}

/**
 * The 5xx codes of a server that is shedding load, busy or waiting for a peer, not failing: logged
 * at warn (ENGINE_STALLED: /health while one request holds the engine; a balancer polling it
 * during every long query would fill the error lines). Every other 5xx (STORAGE_ERROR, INTERNAL,
 * ...) is logged at error, so an operator's error lines are the ones that need them.
 */
const BUSY_CODES: ReadonlySet<string> = new Set(["SERVER_BUSY", "QUERY_TIMEOUT", "REPLICA_BEHIND", "ENGINE_STALLED"]);

/** Error bodies are `{"error","code"}` with a message; a longer body is not read for its code. */
const ERROR_BODY_MAX_BYTES = 16 * 1024;

const errorCodes = new WeakMap<ServerResponse, string>();
const utf8 = new TextDecoder();

/** Notes the error code `res` answers with, for its record. */
export function noteErrorCode(res: ServerResponse, code: string): void {
  errorCodes.set(res, code);
}

/** The `code` of an error answer's whole JSON body (`{"error","code"}`), or null when it has none. */
export function errorCodeOfBody(chunks: readonly Uint8Array[]): string | null {
  let size = 0;
  for (const chunk of chunks) size += chunk.byteLength;
  if (size === 0 || size > ERROR_BODY_MAX_BYTES) return null;
  try {
    const text =
      chunks.length === 1 ? utf8.decode(chunks[0]) : chunks.map((c) => utf8.decode(c, { stream: true })).join("") + utf8.decode();
    const body: unknown = JSON.parse(text);
    const code = typeof body === "object" && body !== null ? (body as { code?: unknown }).code : undefined;
    return typeof code === "string" ? code : null;
  } catch {
    return null;
  }
}

export interface RequestObserverOptions {
  logger: Logger;
  metrics: ServerMetrics | null;
  names: RouteNames;
}

/**
 * Gives each request of `server` its id (the x-request-id of its answer, set before any handler
 * runs, so every answer carries it) and calls `onRecord` once per response it finishes (hands
 * its last bytes to the socket).
 */
export function watchRequests(server: Server, onRecord: (record: RequestRecord) => void): void {
  server.prependListener("request", (req: IncomingMessage, res: ServerResponse) => {
    const started = process.hrtime.bigint();
    const reqId = requestId(req.headers[REQUEST_ID_HEADER]);
    res.setHeader(REQUEST_ID_HEADER, reqId);
    const client = req.socket.remoteAddress ?? null;
    const bytes = countBodyBytes(res);
    // "prefinish": the answer's last bytes were handed to the socket, which on the engine's own
    // door comes before the client can send anything more; at "finish" (the socket's write
    // callback, a later turn) a /metrics the client sent after reading the answer could be read
    // first and miss it.
    res.once("prefinish", () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const code = errorCodes.get(res) ?? null;
      const method = req.method ?? "";
      onRecord({ method, url: req.url ?? "/", status: res.statusCode, seconds, bytes: bytes.count, code, reqId, client });
    });
  });
}

type RequestLevel = "debug" | "info" | "warn" | "error";

const HEALTH_ROUTE = "/health";

/**
 * The level of a request's line: debug for a /health answered below 400 (a balancer or an
 * orchestrator polls it every few seconds), info below 500, then warn or error (BUSY_CODES).
 */
function levelOf(route: string, status: number, code: string | null): RequestLevel {
  if (status < 400 && route === HEALTH_ROUTE) return "debug";
  if (status < 500) return "info";
  return code !== null && BUSY_CODES.has(code) ? "warn" : "error";
}

/** Logs and counts one record (the request's route label decides its metrics series). */
export function requestRecorder(options: RequestObserverOptions): (record: RequestRecord) => void {
  const { logger, metrics, names } = options;
  const enabled: Record<RequestLevel, boolean> = {
    debug: logger.isLevelEnabled("debug"),
    info: logger.isLevelEnabled("info"),
    warn: logger.isLevelEnabled("warn"),
    error: logger.isLevelEnabled("error"),
  };
  return ({ method, url, status, seconds, bytes, code, reqId, client }) => {
    const route = routeLabel(url, names);
    metrics?.observe(route, status, code, seconds);
    const level = levelOf(route, status, code);
    if (!enabled[level]) return;
    const line = {
      method,
      path: url.length > 200 ? `${url.slice(0, 197)}...` : url,
      route,
      status,
      ...(code === null ? {} : { code }),
      ms: Math.round(seconds * 1e6) / 1e3,
      bytes,
      reqId,
      ...(client === null ? {} : { client }),
    };
    logger[level](line, "request");
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
