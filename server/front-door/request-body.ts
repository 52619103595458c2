// The front door reads each request's body before the engine sees the request, so a slow or huge
// upload never holds the engine. It stops at the body limit, or at the first chunk that takes the
// body past the JSON shape limits (http/json-shape.ts), and hands the refusal to the engine,
// which answers it where the route reads the body (after the api key and the route checks, as
// before). The rest of a body the front door stopped reading is dropped after the answer.
import type { IncomingMessage, ServerResponse } from "node:http";
import { isStrandError } from "../../core/errors.js";
import { JsonShapeGuard } from "../http/json-shape.js";
import { payloadTooLarge } from "../http/read-body.js";
import { type ByteBudget, bodiesBusy } from "./byte-budget.js";
import type { BodyRefusal } from "./messages.js";

export interface ReadBody {
  body: Uint8Array | null;
  refusal: BodyRefusal | null;
  /** Whether the request was read to its end (else the rest is drained after the answer, drainAfterAnswer). */
  complete: boolean;
  /** Bytes taken from the budget for this body: given back when its response ends. */
  held: number;
}

function refusalOf(error: unknown): BodyRefusal {
  if (isStrandError(error)) return { code: error.code, message: error.message };
  return { code: "INVALID_BODY", message: String(error) };
}

function declaredLength(value: string | undefined): number | null {
  if (value === undefined || value === "") return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

/**
 * Resolves null when the client went away before its body arrived whole. `checkShape`: whether
 * to scan the body with JsonShapeGuard (not for the MCP endpoint, whose SDK transport reads the
 * body itself). A body past the byte limit keeps what arrived (the limit and one chunk more), so
 * a reader of the Fetch body that counts bytes itself sees it too long. Each chunk is taken from
 * `budget` as it arrives; a chunk that does not fit refuses the request with SERVER_BUSY and
 * gives back what the body held.
 */
export function readRequestBody(
  request: IncomingMessage,
  limit: number,
  checkShape: boolean,
  budget: ByteBudget,
): Promise<ReadBody | null> {
  const declared = declaredLength(request.headers["content-length"]);
  if (declared !== null && declared > limit) {
    return Promise.resolve({ body: null, refusal: refusalOf(payloadTooLarge(limit)), complete: false, held: 0 });
  }
  // No Content-Length (or 0) and no Transfer-Encoding: HTTP/1.1 says there is no body.
  if (request.readableEnded || ((declared === null || declared === 0) && request.headers["transfer-encoding"] === undefined)) {
    return Promise.resolve({ body: null, refusal: null, complete: true, held: 0 });
  }
  return new Promise<ReadBody | null>((resolve) => {
    const chunks: Buffer[] = [];
    let shape: JsonShapeGuard | null = null;
    let size = 0;
    const cleanup = (): void => {
      request.off("data", onData);
      request.off("end", onEnd);
      request.off("error", onGone);
      request.off("close", onClose);
    };
    const onData = (chunk: Buffer): void => {
      if (!budget.take(chunk.length)) {
        cleanup();
        request.pause();
        budget.give(size);
        resolve({ body: null, refusal: refusalOf(bodiesBusy(budget.limitBytes)), complete: false, held: 0 });
        return;
      }
      size += chunk.length;
      let refusal: unknown = null;
      if (size > limit) {
        refusal = payloadTooLarge(limit);
        chunks.push(chunk);
      } else if (checkShape) {
        try {
          shape ??= new JsonShapeGuard();
          shape.feed(chunk);
        } catch (error) {
          refusal = error;
        }
      }
      if (refusal !== null) {
        cleanup();
        request.pause();
        // Past the byte limit, what arrived goes on (chunks holds this chunk too); past the shape limits, nothing.
        if (size > limit) resolve({ body: joined(chunks, size), refusal: refusalOf(refusal), complete: false, held: size });
        else {
          budget.give(size);
          resolve({ body: null, refusal: refusalOf(refusal), complete: false, held: 0 });
        }
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve({ body: joined(chunks, size), refusal: null, complete: true, held: size });
    };
    const onGone = (): void => {
      cleanup();
      budget.give(size);
      resolve(null);
    };
    const onClose = (): void => {
      if (request.readableEnded) onEnd();
      else onGone();
    };
    request.on("data", onData);
    request.on("end", onEnd);
    request.on("error", onGone);
    request.on("close", onClose);
  });
}

/** One buffer of its own (transferable without detaching anyone else's memory), or null when empty. */
function joined(chunks: readonly Buffer[], size: number): Uint8Array | null {
  if (size === 0) return null;
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

/** How long, and how many bytes, the rest of a refused body is read and dropped after its answer. */
const DRAIN_TIMEOUT_MS = 2_000;
const DRAIN_MAX_BYTES = 64 * 1024 * 1024;

/**
 * After the answer to a request whose body was refused part way, reads and drops the rest, so a
 * client still sending it gets to read the answer (closing at once would reset its connection
 * mid-send); past DRAIN_MAX_BYTES or DRAIN_TIMEOUT_MS the connection is closed instead.
 */
export function drainAfterAnswer(request: IncomingMessage, response: ServerResponse): void {
  response.once("finish", () => {
    if (request.readableEnded || request.destroyed) return;
    let drained = 0;
    const close = (): void => {
      clearTimeout(timer);
      request.off("data", onData);
      request.socket.destroySoon();
    };
    const onData = (chunk: Buffer): void => {
      drained += chunk.length;
      if (drained > DRAIN_MAX_BYTES) close();
    };
    const timer = setTimeout(close, DRAIN_TIMEOUT_MS);
    timer.unref();
    request.once("end", () => {
      clearTimeout(timer);
      request.off("data", onData);
    });
    request.on("data", onData);
    request.resume();
  });
}
