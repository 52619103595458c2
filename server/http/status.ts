// The HTTP status of each error code: the only place codes meet HTTP. core/ keeps errors free of
// transport concerns; both front doors (HTTP routes and /mcp) answer with these.
import type { ErrorCode } from "../../core/errors.js";

export const HTTP_STATUS: Record<ErrorCode, number> = {
  INVALID_JSON: 400,
  INVALID_QUERY: 400,
  WRITE_FORBIDDEN: 403,
  ROLE_FORBIDDEN: 403,
  INVALID_TENANT: 400,
  UNKNOWN_TENANT: 404,
  TENANT_FORBIDDEN: 403,
  TENANT_RATE_LIMITED: 429,
  TENANT_FULL: 507,
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
  // A browser page of another origin (origin-guard.ts), or a non-loopback Host on a keyless loopback server.
  FORBIDDEN_ORIGIN: 403,
  FORBIDDEN_HOST: 403,
  METHOD_NOT_ALLOWED: 405,
  UNKNOWN_TOOL: 404,
  UNKNOWN_CONNECTION: 404,
  TOO_MANY_CONNECTIONS: 429,
  // An /mcp step or source that would hold or visit more items than strand.toml allows.
  RESULT_TOO_LARGE: 400,
  INVALID_IDEMPOTENCY_KEY: 400,
  IDEMPOTENCY_KEY_REUSED: 422,
  // Requests Node's HTTP parser refuses before any route sees them (client-error.ts).
  BAD_REQUEST: 400,
  HEADERS_TOO_LARGE: 431,
  // A data file that cannot be what the store wrote (runtime/store/dbs.ts): the store does not open.
  STORAGE_CORRUPT: 503,
  // A commit that failed for want of space (disk full, file size limit, LMDB map full): that
  // request's writes are not saved; the server keeps serving and later writes succeed once there
  // is room again (runtime/store/commit-failure.ts).
  STORAGE_FULL: 507,
  // A commit that failed for any other reason (an I/O error): not saved, the server keeps serving.
  STORAGE_ERROR: 503,
  EXPECTATION_FAILED: 417,
  REQUEST_TIMEOUT: 408,
  // GET /health when one request has held the engine longer than the stall limit (front-door/health.ts).
  ENGINE_STALLED: 503,
  // A query stopped at the server's time limit (runtime/query/query-deadline.ts): nothing it wrote is
  // kept. 503, not 4xx: the same query may finish on a less busy server, or with a higher limit.
  QUERY_TIMEOUT: 503,
  // A request refused because the request bodies held, or the answers clients have not read,
  // would pass their limit with it (front-door/byte-budget.ts); sent with Retry-After.
  SERVER_BUSY: 503,
  EMBEDDING_FAILED: 502,
  // Keyword search asked of a project that keeps no BM25 index (bm25 = false).
  BM25_DISABLED: 400,
  // Opening a store whose records do not fit the project's schema (runtime/migrate/):
  // the open is refused. A write that meets stored data of an undeclared type (which that
  // refusal keeps from happening) is refused with it too.
  SCHEMA_MISMATCH: 409,
  // Replication (server/replication/): a write sent to a read replica names the leader (421
  // Misdirected Request); a replica that has not applied a `Strand-After` sequence in time is
  // 503 with Retry-After; a follower asking for log entries the leader no longer keeps is 410.
  NOT_LEADER: 421,
  REPLICA_BEHIND: 503,
  LOG_GONE: 410,
  // Failover on etcd (server/cluster/): a node of a group that neither leads nor knows the leader
  // (starting, or fenced: it lost the lead) refuses writes; a write that its in-sync replicas did
  // not confirm in time is committed on the leader only, and not acknowledged.
  FENCED: 503,
  NOT_REPLICATED: 503,
  INTERNAL: 500,
};

/** The HTTP status an error with this code is answered with. */
export function httpStatus(code: ErrorCode): number {
  return HTTP_STATUS[code];
}
