// The HTTP layer: a Hono app over a store and a set of compiled queries, and a Node server for it.
export { createApp, DEFAULT_BODY_LIMIT_BYTES } from "./app.js";
export type { AppOptions } from "./app.js";
export { startServer, DEFAULT_HOST } from "./server.js";
export type { ServerOptions, RunningServer } from "./server.js";
export { introspect } from "./http/introspect.js";
export type { Introspection, QueryIntrospection, TypeIntrospection, EdgeIntrospection } from "./http/introspect.js";
export type { QueryStore } from "../runtime/query/query-store.js";
