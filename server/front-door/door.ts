// One HTTP door of the engine: given a Node HTTP server, it parses requests, reads each body up
// to the limit (request-body.ts), answers /health itself (health.ts) and Node's parser refusals
// with JSON (client-error.ts), bounds connections and pipelining, closes gracefully
// (graceful-close.ts), and hands every other request to the engine with `post`, writing back the
// answer the engine gives to `fromEngine`. It runs in either thread (start.ts): on the front-door
// thread (worker.ts, listening by default, standing by with --front-door engine), where `post`
// crosses a MessagePort, and on the engine's own thread with --front-door engine, where `post` is
// a call (no copy, no wake-up of another thread). Nothing here touches the store.
import { closeIdleAfterPendingReads } from "./keep-alive-timeout.js";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { StrandError } from "../../core/errors.js";
import { answerClientErrors } from "../http/client-error.js";
import { gracefulCloser } from "../http/graceful-close.js";
import { HostMemo } from "../http/host-memo.js";
import { httpStatus } from "../http/status.js";
import type { Logger } from "../observe/logger.js";
import { errorCodeOfBody, noteErrorCode, type RequestRecord, watchRequests } from "../observe/request-observer.js";
import { REQUEST_ID_HEADER } from "../observe/request-id.js";
import { FrontDoorHealth } from "./health.js";
import type { DoorSettings, ToEngine, ToFrontDoor } from "./messages.js";
import { afterEarlierAnswers } from "./answer-turns.js";
import { drainAfterAnswer, readRequestBody } from "./request-body.js";
import { limitPipelining } from "./pipeline-limit.js";
import { rateLimitedLog } from "./rate-limited-log.js";
import { answersBusy, ByteBudget, BUSY_RETRY_AFTER_SECONDS } from "./byte-budget.js";
import { LEADER_ANSWER_HEADER, LeaseGate, leaseRanOut } from "./lease-gate.js";
import { guardConnections } from "./connection-guard.js";

export interface DoorOptions {
  settings: DoorSettings;
  /** Hands a message to the engine (the buffers listed may be transferred). */
  post: (message: ToEngine, transfer?: ArrayBuffer[]) => void;
  /** A request's record (log line and metrics), once its answer has left. */
  record: (record: RequestRecord) => void;
  /** The door's own lines: refusals, and its internal errors. */
  logger: Logger;
}

export interface Door {
  /** What the engine answered. */
  fromEngine(message: ToFrontDoor): void;
  /** Stops accepting, finishes what is in flight, closes the connections (graceful-close.ts). */
  close(): Promise<void>;
}

/** RFC 3986 reg-name (unreserved, sub-delims, percent-escapes) or a bracketed IPv6 literal, then an optional port. */
const VALID_HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~!$&'()*+,;=%-]+)(?::\d{1,5})?$/;

/** The absolute URL the engine's Request gets, or null when the Host or the target is unusable. */
export function absoluteUrl(host: string | undefined, target: string): string | null {
  // A Host is a name or an address and a port, nothing more: "x/mcp" would move the path.
  if (host === undefined || !VALID_HOST.test(host) || !target.startsWith("/")) return null;
  // A path of letters, digits, "_", "-" and "/" (every query route) is its own serialization
  // (nothing to percent-encode, no dot segment): only the Host needs the parser, once (origins).
  if (PLAIN_PATH.test(target)) {
    const origin = origins.get(host);
    if (origin !== null) return origin + target;
  }
  return parsedUrl(`http://${host}${target}`);
}

const PLAIN_PATH = /^\/[A-Za-z0-9_\-/]*$/;

function parsedUrl(text: string): string | null {
  try {
    return new URL(text).href;
  } catch {
    return null;
  }
}

/** `http://<host>` as the URL parser writes it (lower case, default port dropped), or null when it refuses it. */
const origins = new HostMemo((host) => {
  const href = parsedUrl(`http://${host}/`);
  return href === null ? null : href.slice(0, -1);
});

/** The id watchRequests gave the request `res` answers (observe/request-id.ts). */
function requestIdOf(res: ServerResponse): string | undefined {
  const id = res.getHeader(REQUEST_ID_HEADER);
  return typeof id === "string" ? id : undefined;
}

/** POST /mcp (mcp/routes.ts MCP_PATH): the MCP SDK's transport reads and bounds that body itself. */
function isMcpEndpoint(target: string | undefined): boolean {
  return target === "/mcp" || target?.startsWith("/mcp?") === true;
}

function bodySize(chunks: readonly Uint8Array[]): number {
  return chunks.reduce((n, c) => n + c.byteLength, 0);
}

/** A streamed answer's Content-Length, 0 when it has none. */
function declaredLength(headers: Record<string, string>): number {
  const length = Number(headers["content-length"]);
  return Number.isSafeInteger(length) && length > 0 ? length : 0;
}

/** Statuses whose responses carry no body (and so no Content-Length). */
function bodiless(status: number): boolean {
  return status < 200 || status === 204 || status === 304;
}

export function openDoor(server: Server, options: DoorOptions): Door {
  const { settings, post, logger } = options;
  // A client may half-close its side after sending (`socket.end(request)`) and still wait for the
  // answer. Node's default aborts the requests still unanswered at that FIN, and every request here
  // is unanswered for a while (the engine's turn); with this (a plain property of http.Server),
  // the connection ends after the last answer instead.
  (server as typeof server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  watchRequests(server, options.record);
  answerClientErrors(server);
  const closeGracefully = gracefulCloser(server, settings.forceCloseAfterMs);
  const health = new FrontDoorHealth({
    stallLimitMs: settings.stallLimitMs,
    loopbackHostsOnly: settings.loopbackHostsOnly,
    ping: (seq) => post({ t: "ping", seq }),
  });
  const bodyBudget = new ByteBudget(settings.bodyMemoryLimitBytes, settings.budgetCells?.bodies);
  const answerBudget = new ByteBudget(settings.answerMemoryLimitBytes, settings.budgetCells?.answers);
  const leaseGate = settings.leaseGate === null ? null : new LeaseGate(settings.leaseGate);

  /** The responses the engine has still to end, by request id. */
  const open = new Map<number, ServerResponse>();
  let nextId = 1;

  function answerError(res: ServerResponse, error: StrandError, headers: Record<string, string> = {}): void {
    const body = JSON.stringify(error.toJSON());
    noteErrorCode(res, error.code);
    res.writeHead(httpStatus(error.code), { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(body) });
    res.end(body);
  }

  /** A budget refusal (byte-budget.ts): 503 SERVER_BUSY with Retry-After. */
  function answerBusy(res: ServerResponse, error: StrandError): void {
    answerError(res, error, { "retry-after": String(BUSY_RETRY_AFTER_SECONDS) });
  }

  /** Something this door got wrong (a bug): logged with its stack. */
  function internalError(error: unknown): void {
    logger.error({ stack: (error as Error)?.stack ?? String(error) }, "internal error in the HTTP front door");
  }

  /** Something this door got wrong answering one request: that response is cut, the server goes on. */
  function failed(res: ServerResponse, error: unknown): void {
    internalError(error);
    if (!res.headersSent) {
      try {
        answerError(res, new StrandError("INTERNAL", "internal error"));
        return;
      } catch {
        // fall through: cut the connection
      }
    }
    res.destroy();
  }

  /** What a client can cause at will (refused and closed connections): warn, at most a line a second. */
  const warn = (line: string): void => logger.warn(line);
  const pipelineLog = rateLimitedLog(warn);
  function pipelinedTooFar(socket: Socket, waiting: number): void {
    pipelineLog(
      `closed a connection from ${socket.remoteAddress} with ${waiting} requests waiting for their answers (pipelined far ahead of them)`,
    );
  }

  closeIdleAfterPendingReads(server);

  const connectionLog = rateLimitedLog(warn);
  const wasRefused = guardConnections(server, {
    maxPerClient: settings.maxConnectionsPerClient,
    firstRequestMs: server.headersTimeout,
    refused: (address, open) =>
      connectionLog(`refused a connection from ${address}: it holds ${open} open, its limit (max_connections_per_client)`),
  });

  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    // Its connection was refused (429 written, not read): a request from it is not served.
    if (wasRefused(req.socket)) {
      req.socket.destroy();
      return;
    }
    try {
      if (limitPipelining(req, res, pipelinedTooFar)) forward(req, res);
    } catch (error) {
      failed(res, error);
    }
  });

  function forward(req: IncomingMessage, res: ServerResponse): void {
    if (health.answer(req, res)) return;
    const url = absoluteUrl(req.headers.host, req.url ?? "");
    if (url === null) {
      answerError(res, new StrandError("BAD_REQUEST", "malformed request: a Host header and a path are required"));
      return;
    }
    const turn = afterEarlierAnswers(req.socket, res);
    Promise.all([readRequestBody(req, settings.bodyLimitBytes, !isMcpEndpoint(req.url), bodyBudget), turn]).then(
      ([read]) => {
        if (read === null) return; // the client went away mid-body: nobody to answer
        if (res.destroyed) {
          bodyBudget.give(read.held); // ... or while an earlier answer on its connection was leaving
          return;
        }
        res.once("close", () => bodyBudget.give(read.held));
        if (read.refusal?.code === "SERVER_BUSY") {
          // Answered here: the engine may be what holds the bodies, and this request never reaches it.
          drainAfterAnswer(req, res);
          answerBusy(res, new StrandError(read.refusal.code, read.refusal.message));
          return;
        }
        const id = nextId++;
        open.set(id, res);
        if (!read.complete) drainAfterAnswer(req, res);
        res.once("close", () => {
          if (open.delete(id)) post({ t: "abort", id });
        });
        const body = read.body;
        post(
          {
            t: "request",
            id,
            method: req.method ?? "GET",
            url,
            rawHeaders: req.rawHeaders,
            remoteAddress: req.socket.remoteAddress,
            reqId: requestIdOf(res),
            body,
            refusal: read.refusal,
          },
          body === null ? [] : [body.buffer as ArrayBuffer],
        );
      },
      (error: unknown) => failed(res, error),
    );
  }

  function answer(message: ToFrontDoor): void {
    switch (message.t) {
      case "head": {
        const res = open.get(message.id);
        if (res === undefined) return;
        // Held until the system has taken it all (the response's close): an answer a client does not read stays counted.
        // A long answer streamed with its length (http/json-answer.ts) counts whole: the engine holds
        // its text until the client has read it.
        const size = message.end ? bodySize(message.body) : Math.max(bodySize(message.body), declaredLength(message.headers));
        if (!answerBudget.take(size)) {
          open.delete(message.id);
          if (!message.end) post({ t: "abort", id: message.id });
          answerBusy(res, answersBusy(answerBudget.limitBytes));
          return;
        }
        res.once("close", () => answerBudget.give(size));
        const epoch = message.headers[LEADER_ANSWER_HEADER];
        if (epoch !== undefined && leaseGate !== null && !leaseGate.allows(Date.now())) {
          open.delete(message.id);
          if (!message.end) post({ t: "abort", id: message.id });
          answerError(res, leaseRanOut(epoch));
          return;
        }
        const headers: Record<string, string | number> = message.headers;
        if (message.end && !bodiless(message.status) && headers["content-length"] === undefined) {
          headers["content-length"] = size;
        }
        if (message.status >= 400 && message.end) {
          const code = errorCodeOfBody(message.body);
          if (code !== null) noteErrorCode(res, code);
        }
        res.writeHead(message.status, headers);
        if (message.end) {
          open.delete(message.id);
          if (message.body.length === 1) res.end(message.body[0]);
          else {
            for (const chunk of message.body) res.write(chunk);
            res.end();
          }
        } else for (const chunk of message.body) res.write(chunk);
        return;
      }
      case "chunk": {
        const res = open.get(message.id);
        if (res === undefined) return;
        const { id, data } = message;
        if (data.byteLength > 0) res.write(data, () => post({ t: "written", id, bytes: data.byteLength }));
        if (message.end) {
          open.delete(id);
          res.end();
        }
        return;
      }
      case "fail": {
        const res = open.get(message.id);
        open.delete(message.id);
        res?.destroy();
        return;
      }
      case "pong":
        health.pong(message.seq, message.commit);
        return;
      default:
        return;
    }
  }

  return {
    fromEngine(message: ToFrontDoor): void {
      try {
        answer(message);
      } catch (error) {
        // E.g. a header value Node refuses to write: that response fails, not the door.
        const res = "id" in message ? open.get(message.id) : undefined;
        if (res !== undefined && "id" in message) {
          open.delete(message.id);
          post({ t: "abort", id: message.id }); // the engine stops producing the body
          failed(res, error);
        } else internalError(error);
      }
    },
    async close(): Promise<void> {
      try {
        await closeGracefully();
      } finally {
        health.stop();
      }
    },
  };
}
