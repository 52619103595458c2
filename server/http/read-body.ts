// Reads a request body into memory, refusing (413) as soon as it grows past the limit — whether
// or not the client declared a Content-Length. Under @hono/node-server the Node request stream is
// read directly (the fast path); elsewhere (e.g. `app.request` in tests) the Fetch body stream.
// Each chunk is also scanned for the number of JSON values and their depth (json-shape.ts), so a
// body too large to parse without stalling the event loop is refused before JSON.parse sees it.
import type { IncomingMessage } from "node:http";
import { StrandError } from "../../core/errors.js";
import { JsonShapeGuard } from "./json-shape.js";

const EMPTY = new Uint8Array(0);

/** The smallest body limit a server takes: `{}`, the body of a query without parameters, must fit. */
export const MIN_BODY_LIMIT_BYTES = 2;

export function payloadTooLarge(limit: number): StrandError {
  return new StrandError(
    "PAYLOAD_TOO_LARGE",
    `request body exceeds the limit of ${limit} bytes; the limit is set by body_limit under [server] in strand.toml or strand serve --body-limit`,
  );
}

function incompleteBody(): StrandError {
  return new StrandError("INVALID_BODY", "request body was not received completely");
}

function declaredLength(value: string | null | undefined): number | null {
  if (value === null || value === undefined || value === "") return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

/** `incoming` is the Node request when served by @hono/node-server, undefined otherwise. */
export function readBody(request: Request, incoming: IncomingMessage | undefined, limit: number): Promise<Uint8Array> {
  if (incoming !== undefined) {
    const declared = declaredLength(incoming.headers["content-length"]);
    if (declared !== null && declared > limit) return Promise.reject(payloadTooLarge(limit));
    return readIncoming(incoming, limit);
  }
  const declared = declaredLength(request.headers.get("content-length"));
  if (declared !== null && declared > limit) return Promise.reject(payloadTooLarge(limit));
  return readFetchBody(request, limit);
}

function readIncoming(incoming: IncomingMessage, limit: number): Promise<Uint8Array> {
  if (incoming.readableEnded) return Promise.resolve(EMPTY);
  return new Promise<Uint8Array>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const shape = new JsonShapeGuard();
    let size = 0;
    const cleanup = (): void => {
      incoming.off("data", onData);
      incoming.off("end", onEnd);
      incoming.off("error", onError);
      incoming.off("close", onClose);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      let refusal: unknown = size > limit ? payloadTooLarge(limit) : null;
      if (refusal === null) {
        try {
          shape.feed(chunk);
        } catch (error) {
          refusal = error;
        }
      }
      if (refusal !== null) {
        cleanup();
        // Stop buffering; the server adapter drains or drops the rest after the error is sent.
        incoming.pause();
        reject(refusal);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(chunks.length === 1 ? chunks[0]! : chunks.length === 0 ? EMPTY : Buffer.concat(chunks, size));
    };
    const onError = (): void => {
      cleanup();
      reject(incompleteBody());
    };
    const onClose = (): void => {
      if (incoming.readableEnded) {
        onEnd();
        return;
      }
      cleanup();
      reject(incompleteBody());
    };
    incoming.on("data", onData);
    incoming.on("end", onEnd);
    incoming.on("error", onError);
    incoming.on("close", onClose);
  });
}

async function readFetchBody(request: Request, limit: number): Promise<Uint8Array> {
  const body = request.body;
  if (body === null) return EMPTY;
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  const shape = new JsonShapeGuard();
  let size = 0;
  for (;;) {
    let result: Awaited<ReturnType<typeof reader.read>>;
    try {
      result = await reader.read();
    } catch {
      throw incompleteBody();
    }
    if (result.done) break;
    size += result.value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw payloadTooLarge(limit);
    }
    try {
      shape.feed(result.value);
    } catch (error) {
      await reader.cancel().catch(() => undefined);
      throw error;
    }
    chunks.push(result.value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const all = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return all;
}
