// Errors are values with a machine-readable code and the HTTP status they map to. The runtime
// throws StrandError only to abort the current transaction; the HTTP layer turns it into
// `{"error", "code"}`. Anything else that escapes is a bug and becomes a 500.

export type ErrorCode =
  | "INVALID_JSON"
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
  | "METHOD_NOT_ALLOWED"
  | "UNKNOWN_TOOL"
  | "UNKNOWN_CONNECTION"
  | "TOO_MANY_CONNECTIONS"
  | "EMBEDDING_FAILED"
  | "BM25_DISABLED"
  | "SCHEMA_MISMATCH"
  | "INTERNAL";

const STATUS: Record<ErrorCode, number> = {
  INVALID_JSON: 400,
  INVALID_BODY: 400,
  MISSING_PARAMETER: 400,
  INVALID_PARAMETER: 400,
  UNKNOWN_PARAMETER: 400,
  INVALID_VALUE: 400,
  INVALID_WEIGHT: 400,
  DIMENSION_MISMATCH: 400,
  EDGE_TYPE_MISMATCH: 400,
  NOT_FOUND: 404,
  UNKNOWN_QUERY: 404,
  UNIQUE_VIOLATION: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNAUTHORIZED: 401,
  METHOD_NOT_ALLOWED: 405,
  UNKNOWN_TOOL: 404,
  UNKNOWN_CONNECTION: 404,
  TOO_MANY_CONNECTIONS: 429,
  EMBEDDING_FAILED: 502,
  // Keyword search asked of a project that keeps no BM25 index (bm25 = false).
  BM25_DISABLED: 400,
  // Opening a store whose records do not fit the project's schema (runtime/store/migrate.ts):
  // the open is refused. A write that meets stored data of an undeclared type (which that
  // refusal keeps from happening) is refused with it too.
  SCHEMA_MISMATCH: 409,
  INTERNAL: 500,
};

export class StrandError extends Error {
  readonly code: ErrorCode;
  readonly status: number;

  constructor(code: ErrorCode, message: string) {
    super(message);
    this.name = "StrandError";
    this.code = code;
    this.status = STATUS[code];
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

const AT_ELEMENT = new WeakSet<StrandError>();

/**
 * A StrandError from one iteration of a FOR loop, its message prefixed with the element's path
 * (`items[1]: UNIQUE INDEX violated ...`), code and status kept. Only once: the innermost loop
 * names the whole path (`docs[0].chunks[1]`), and the loops around it pass it on unchanged.
 * Anything else (a bug) is returned as it is.
 */
export function atElement(error: unknown, path: string): unknown {
  if (!(error instanceof StrandError) || AT_ELEMENT.has(error)) return error;
  const located = new StrandError(error.code, `${path}: ${error.message}`);
  AT_ELEMENT.add(located);
  return located;
}
