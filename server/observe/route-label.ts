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
  // A replica's polls of its leader (/replication/log) and its seeding.
  ...REPLICATION_PATHS,
]);

export interface RouteNames {
  queries: ReadonlySet<string>;
  mcpTools: ReadonlySet<string>;
}

/** `url` is the request target (`/AddUser?x=1`); the query string is ignored. */
export function routeLabel(url: string, names: RouteNames): string {
  const q = url.indexOf("?");
  const path = q < 0 ? url : url.slice(0, q);
  if (BUILTIN_PATHS.has(path)) return path;
  const name = path.slice(1);
  if (names.queries.has(name)) return name;
  if (path.startsWith("/mcp/") && names.mcpTools.has(path.slice(5))) return path;
  return UNMATCHED_ROUTE;
}
