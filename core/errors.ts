// Errors are values with a machine-readable code. The runtime throws StrandError only to abort the
// current transaction; the front doors (server/) turn it into `{"error", "code"}` with the HTTP
// status its code maps to (server/http/status.ts). Anything else that escapes is a bug (a 500).

export type ErrorCode =
  | "INVALID_JSON"
  | "INVALID_QUERY"
  | "WRITE_FORBIDDEN"
  | "ROLE_FORBIDDEN"
  | "INVALID_TENANT"
  | "UNKNOWN_TENANT"
  | "TENANT_FORBIDDEN"
  | "TENANT_RATE_LIMITED"
  | "TENANT_FULL"
  | "INVALID_BODY"
  | "MISSING_PARAMETER"
  | "INVALID_PARAMETER"
  | "UNKNOWN_PARAMETER"
  | "INVALID_VALUE"
  | "INVALID_WEIGHT"
  | "DIMENSION_MISMATCH"
  | "EDGE_TYPE_MISMATCH"
  | "NOT_FOUND"
  | "UNKNOWN_QUERY"
  | "UNIQUE_VIOLATION"
  | "PAYLOAD_TOO_LARGE"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "UNAUTHORIZED"
  | "FORBIDDEN_ORIGIN"
  | "FORBIDDEN_HOST"
  | "METHOD_NOT_ALLOWED"
  | "UNKNOWN_TOOL"
  | "UNKNOWN_CONNECTION"
  | "TOO_MANY_CONNECTIONS"
  | "RESULT_TOO_LARGE"
  | "BAD_REQUEST"
  | "HEADERS_TOO_LARGE"
  | "STORAGE_CORRUPT"
  | "STORAGE_FULL"
  | "STORAGE_ERROR"
  | "EXPECTATION_FAILED"
  | "REQUEST_TIMEOUT"
  | "ENGINE_STALLED"
  | "QUERY_TIMEOUT"
  | "INVALID_IDEMPOTENCY_KEY"
  | "IDEMPOTENCY_KEY_REUSED"
  | "SERVER_BUSY"
  | "EMBEDDING_FAILED"
  | "BM25_DISABLED"
  | "SCHEMA_MISMATCH"
  | "NOT_LEADER"
  | "REPLICA_BEHIND"
  | "LOG_GONE"
  | "FENCED"
  | "NOT_REPLICATED"
  | "INTERNAL";

export class StrandError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string) {
    super(message);
    this.name = "StrandError";
    this.code = code;
  }

  toJSON(): { error: string; code: ErrorCode } {
    return { error: this.message, code: this.code };
  }
}

export function isStrandError(value: unknown): value is StrandError {
  return value instanceof StrandError;
}

/** BM25_DISABLED: `what` (SearchBM25<T>, search_keyword) asked of a store opened with bm25 = false. */
export function bm25Disabled(what: string): StrandError {
  return new StrandError(
    "BM25_DISABLED",
    `${what} needs the BM25 keyword index, which this project disables (bm25 = false): set bm25 = true in strand.toml (or helix.toml) and restart to build it`,
  );
}

/**
 * NOT_LEADER: a write sent to a read replica. The answer names the leader to send it to:
 * `{"error", "code", "leader"}`.
 */
export class NotLeaderError extends StrandError {
  constructor(readonly leader: string) {
    super("NOT_LEADER", `this server is a read replica: send writes to the leader at ${leader}`);
  }

  override toJSON(): { error: string; code: ErrorCode; leader: string } {
    return { ...super.toJSON(), leader: this.leader };
  }
}

const AT_ELEMENT = new WeakSet<StrandError>();

/**
 * A StrandError from one iteration of a FOR loop, its message prefixed with the element's path
 * (`items[1]: UNIQUE INDEX violated ...`), code kept. Only once: the innermost loop
 * names the whole path (`docs[0].chunks[1]`), and the loops around it pass it on unchanged.
 * A QUERY_TIMEOUT is about the whole query, not the element it stopped at: it stays as it is, as
 * does anything else (a bug).
 */
export function atElement(error: unknown, path: string): unknown {
  if (!(error instanceof StrandError) || AT_ELEMENT.has(error) || error.code === "QUERY_TIMEOUT") return error;
  const located = new StrandError(error.code, `${path}: ${error.message}`);
  AT_ELEMENT.add(located);
  return located;
}
