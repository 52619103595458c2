// Requests Node's HTTP server refuses before the app sees them (an unknown method, a path with
// raw non-ASCII bytes, headers past the size limit, a malformed request line, `Expect:` other
// than 100-continue) are answered with the same `{"error","code"}` JSON as every other error;
// Node's own answers have an empty body. The connection is closed after them: the parser cannot
// tell where the next request would start.
import { maxHeaderSize, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { echo } from "../../core/echo.js";
import { StrandError } from "../../core/errors.js";
import { httpStatus } from "./status.js";

/** The error a parser failure code (llhttp's HPE_*, or Node's) is answered with. */
export function parserError(code: string | undefined, headerLimit: number): StrandError {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return new StrandError("HEADERS_TOO_LARGE", `the request's headers are too large (at most ${headerLimit} bytes)`);
    case "HPE_INVALID_METHOD":
      return new StrandError("BAD_REQUEST", "malformed request: unknown HTTP method");
    case "HPE_INVALID_URL":
      return new StrandError("BAD_REQUEST", "malformed request: invalid request target (percent-encode characters outside ASCII)");
    case "ERR_HTTP_REQUEST_TIMEOUT":
    case "ERR_HTTP_HEADERS_TIMEOUT":
      return new StrandError("REQUEST_TIMEOUT", "the request was not received in time");
    default:
      return new StrandError("BAD_REQUEST", `malformed request (${code ?? "rejected by the HTTP parser"})`);
  }
}

function rawResponse(error: StrandError): string {
  const status = httpStatus(error.code);
  const body = JSON.stringify(error.toJSON());
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ""}\r\n` +
    "content-type: application/json\r\n" +
    `content-length: ${Buffer.byteLength(body)}\r\n` +
    "connection: close\r\n\r\n" +
    body
  );
}

/** Installs the JSON answers on `server`. */
export function answerClientErrors(server: Server): void {
  const headerLimit = maxHeaderSize;
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    const answer = rawResponse(parserError(error.code, headerLimit));
    // The request before the bad bytes on this connection, if its answer is not yet out.
    const pending = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (pending === undefined || pending === null || pending.writableFinished) {
      socket.end(answer);
    } else if (pending.req.complete) {
      // Bad bytes after a whole request (pipelined): answer that request, then refuse the rest.
      pending.once("finish", () => socket.end(answer));
      pending.once("close", () => socket.destroy());
    } else if (!pending.headersSent) {
      // Bad bytes inside this request's body (a malformed chunk): it is answered here; the
      // app's read of the body fails when the socket closes, and its answer goes nowhere.
      socket.end(answer);
    } else socket.destroy();
  });
  server.on("checkExpectation", (request: IncomingMessage, response: ServerResponse) => {
    const expect = request.headers.expect ?? "";
    const error = new StrandError("EXPECTATION_FAILED", `unsupported Expect header '${echo(expect)}' (only 100-continue is supported)`);
    const body = JSON.stringify(error.toJSON());
    response.writeHead(httpStatus(error.code), {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(body),
      connection: "close",
    });
    response.end(body);
  });
}
