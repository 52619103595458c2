// A request's body in memory, refused (413) as soon as it grows past the limit — whether or not
// the client declared a Content-Length. Served by startServer, the front door has read it already
// (server/front-door/request-body.ts) on its own thread, checked the same way; elsewhere (e.g.
// `app.request` in tests) the Fetch body stream is read here. Each chunk is also scanned for the
// number of JSON values and their depth (json-shape.ts), so a body too large to parse without
// stalling the event loop is refused before JSON.parse sees it.
import { StrandError } from "../../core/errors.js";
import { JsonShapeGuard } from "./json-shape.js";
import type { IncomingRequest } from "./request-header.js";

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

function declaredLength(value: string | null): number | null {
  if (value === null || value === undefined || value === "") return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

/** `incoming` is the request as the server forwarded it (its body already read), undefined otherwise. */
export function readBody(request: Request, incoming: IncomingRequest | undefined, limit: number): Promise<Uint8Array> {
  if (incoming !== undefined) {
    const refusal = incoming.refusal;
    if (refusal !== null) return Promise.reject(new StrandError(refusal.code, refusal.message));
    if (incoming.body.byteLength > limit) return Promise.reject(payloadTooLarge(limit));
    return Promise.resolve(incoming.body);
  }
  const declared = declaredLength(request.headers.get("content-length"));
  if (declared !== null && declared > limit) return Promise.reject(payloadTooLarge(limit));
  return readFetchBody(request, limit);
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
