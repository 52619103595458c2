// The label a request is counted and logged under: the query name for `POST /<QueryName>`, the
// path for the built-in routes and MCP tools, and one catch-all for anything else, so a client
// sending random paths cannot grow the metrics without bound.

import { REPLICATION_PATHS } from "../../runtime/replication/protocol.js";

export const UNMATCHED_ROUTE = "unmatched";
const BUILTIN_PATHS: ReadonlySet<string> = new Set([
  "/health",
  "/introspect",
  "/metrics",
  "/backup",
  "/explorer",
  "/mcp",
  "/memory/mcp",
  "/query",
  "/tenants",
  // A replica's polls of its leader (/replication/log) and its seeding.
  ...REPLICATION_PATHS,
]);

export interface RouteNames {
  queries: ReadonlySet<string>;
  mcpTools: ReadonlySet<string>;
}

/**
 * `url` is the request target (`/AddUser?x=1`); the query string is ignored, and so is a tenant's
 * `/t/<tenant>` prefix: a query is one route whichever tenant calls it (tenants are counted apart,
 * server/tenants/tenant-dispatch.ts).
 */
export function routeLabel(url: string, names: RouteNames): string {
  const q = url.indexOf("?");
  const full = q < 0 ? url : url.slice(0, q);
  const tenantEnd = full.startsWith("/t/") ? full.indexOf("/", 3) : -1;
  const path = tenantEnd < 0 ? full : full.slice(tenantEnd);
  if (BUILTIN_PATHS.has(path)) return path;
  const name = path.slice(1);
  if (names.queries.has(name)) return name;
  if (path.startsWith("/mcp/") && names.mcpTools.has(path.slice(5))) return path;
  if (path.startsWith("/tenants/")) return "/tenants/:name";
  return UNMATCHED_ROUTE;
}
