// The Hono application: routes, optional api-key check, and JSON for every error and unknown path.
//
//   GET  /health        → {"status":"ok"}            (never requires the api key, nor does HEAD)
//   GET  /introspect    → see http/introspect.ts
//   GET  /metrics       → Prometheus text (observe/metrics.ts), when the server keeps metrics
//   GET  /explorer, POST /explorer/api/* → the graph explorer (explorer/routes.ts), when enabled
//   GET  /backup        → the store's backup, streamed (http/backup-route.ts; only with an api key)
//   GET  /replication/… → status, log and seed backup for replicas (replication/routes.ts)
//   POST /<QueryName>   → the query's RETURN object   (see http/query-route.ts)
//   POST /mcp/<tool>, /mcp → the agent tools and the MCP endpoint (see mcp/routes.ts)
//   POST /memory/mcp    → the MCP memory server's tools, when served (see memory/routes.ts)
//   POST /memory/langgraph/… → StrandSaver's and StrandStore's calls, when served (langgraph/routes.ts)
//   POST /query         → an ad-hoc HelixQL query, compiled against the served schema (adhoc/routes.ts)
//   other methods on those paths → 405; any other path → 404 NOT_FOUND
import { DEFAULT_ANSWER_LIMIT_BYTES } from "./http/json-answer.js";
import { DEFAULT_IDEMPOTENCY_WINDOW_MS } from "./http/idempotency-key.js";
import { Hono, type Context } from "hono";
import { StrandError } from "../core/errors.js";
import type { ConnectionOptions } from "./mcp/connections.js";
import { isMcpPath, MCP_PATH, mcpHandler } from "./mcp/routes.js";
import { McpService } from "./mcp/service.js";
import type { QueryModule } from "../core/query-module.js";
import { QueryRunner, type EmbedderFor } from "../runtime/query/query-runner.js";
import { observedEmbedders } from "../runtime/embed/observed.js";
import type { SchemaDescriptor } from "../core/schema.js";
import type { Metric } from "../runtime/vector/metric.js";
import { callerMiddleware } from "./http/caller.js";
import { fixedKeyRing, type KeyRing } from "./access/key-ring.js";
import { BACKUP_PATH, backupAccess, backupRoute, type BackupSource } from "./http/backup-route.js";
import { errorToResponse, jsonErrorResponse } from "./http/error-response.js";
import { introspect } from "./http/introspect.js";
import { originGuard } from "./http/origin-guard.js";
import { addExplorerAssets, EXPLORER_ASSETS, explorerApi } from "./explorer/routes.js";
import { queryRoute, unknownQuery } from "./http/query-route.js";
import type { ServerMetrics } from "./observe/metrics.js";
import type { RouteNames } from "./observe/route-label.js";
import { queryToolName } from "./mcp/query-tools.js";
import { BUILTIN_TOOL_NAMES } from "./mcp/service.js";
import { MIN_BODY_LIMIT_BYTES } from "./http/read-body.js";
import type { QueryStore } from "../runtime/query/query-store.js";
import { REPLICATION_PATHS } from "../runtime/replication/protocol.js";
import { commitHeaders } from "./replication/commit-headers.js";
import type { ReplicationNode } from "./replication/node.js";
import { addReplicationRoutes } from "./replication/routes.js";
import { commitView } from "./mcp/pinning.js";
import { isMemoryPath, type MemorySource, memoryHandler } from "./memory/routes.js";
import type { LangGraphService } from "./langgraph/langgraph-service.js";
import type { AdHocCompiler } from "./adhoc/adhoc-compiler.js";
import { ADHOC_PATH, adHocHandler } from "./adhoc/routes.js";
import { planStatsOf } from "./adhoc/plan-stats.js";
import { isTenantsPath, type TenantAdmin, tenantsHandler, tenantsOffGuard } from "./tenants/tenant-routes.js";
import { isLangGraphPath, langGraphHandler } from "./langgraph/routes.js";

// 8 MiB: with at most MAX_BODY_VALUES values (http/json-shape.ts), parsing one body stays short.
export const DEFAULT_BODY_LIMIT_BYTES = 8 * 1024 * 1024;

export interface AppOptions {
  store: QueryStore;
  queries: readonly QueryModule[];
  schema: SchemaDescriptor;
  /** When set, every request except `GET /health` (and `HEAD /health`) must send it as `x-api-key`: an admin key. */
  apiKey?: string | undefined;
  /**
   * The server's keys with their roles (access/key-ring.ts), when it has more than `apiKey`; the
   * ring may be reloaded while serving. Given, `apiKey` is ignored: put it in the ring.
   */
  keys?: KeyRing | undefined;
  /** Largest accepted request body; default 8 MiB. */
  bodyLimitBytes?: number | undefined;
  /** Largest answer of a query, in bytes of JSON (400 RESULT_TOO_LARGE past it); default 256 MiB, 0: none. */
  answerLimitBytes?: number | undefined;
  /** How long a write's answer is kept under its Idempotency-Key, in ms; default a day. */
  idempotencyWindowMs?: number | undefined;
  /** Embedding providers for Embed(..) in queries (by model string; null = the default model). */
  embedders?: EmbedderFor | null | undefined;
  /** Serve the agent tools under /mcp (default true; `mcp = false` answers 404 there). */
  mcp?: boolean | undefined;
  /** Idle timeout, cap and clock of the /mcp connections (defaults: 30 min, 10,000). */
  mcpConnections?: ConnectionOptions | undefined;
  /** The store's vector metric (strand.toml [vector] metric), for search_vector's exact scores; default cosine. */
  vectorMetric?: Metric | undefined;
  /** Whether the store keeps the BM25 index (strand.toml bm25, default true); false leaves search_keyword out of /mcp. */
  bm25?: boolean | undefined;
  /** Browser origins allowed to call (CORS), `*` for any; others are refused (http/origin-guard.ts). */
  corsOrigins?: readonly string[] | undefined;
  /** Refuse non-loopback Host names: set when bound to loopback without an api key (DNS-rebinding guard). */
  loopbackHostsOnly?: boolean | undefined;
  /** Serve the graph explorer at /explorer (default false; `startServer` turns it on for loopback addresses). */
  explorer?: boolean | undefined;
  /** Serve `GET /metrics` from these (behind the api key when one is set); null or absent: 404. */
  metrics?: ServerMetrics | null | undefined;
  /** Serves `GET /backup` (the served GraphStore); absent: the path is 404. */
  backup?: BackupSource | undefined;
  /** The node's commit log and role: `Strand-Commit` / `Strand-After` on every request, and the /replication endpoints. */
  replication?: ReplicationNode | undefined;
  /**
   * Whether vector records in answers (of queries and of /mcp tools) carry their embedding, `data`
   * (strand.toml [server] vector_data_in_answers; default true, as HelixDB sends it).
   */
  vectorDataInAnswers?: boolean | undefined;
  /** The MCP memory server's tools at /memory/mcp, over their own store (absent: 404 there). */
  memory?: MemorySource | undefined;
  /** StrandSaver's and StrandStore's routes at /memory/langgraph/, over their own store (absent: 404 there). */
  langgraph?: LangGraphService | undefined;
  /** Compiles `POST /query`'s ad-hoc queries against the served schema (absent: 404 there). */
  adhoc?: AdHocCompiler | undefined;
  /** The tenant this app serves (server/tenants/); absent: the project's own graph, the default tenant. */
  tenant?: string | undefined;
  /** The default tenant's app: the tenants, managed at /tenants (absent: tenants are off). */
  tenants?: TenantAdmin | undefined;
}

const PUBLIC_PATHS: readonly string[] = ["/health"];
const GET_PATHS: readonly string[] = ["/health", "/introspect"];
const HEALTH_BODY = JSON.stringify({ status: "ok" });
const JSON_HEADERS = { "content-type": "application/json" } as const;

export function createApp(options: AppOptions): Hono {
  const queries = indexQueries(options.queries);
  const bodyLimitBytes = options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  if (!Number.isInteger(bodyLimitBytes) || bodyLimitBytes < MIN_BODY_LIMIT_BYTES) {
    throw new RangeError(`bodyLimitBytes must be an integer of at least ${MIN_BODY_LIMIT_BYTES} (the body {}), got ${bodyLimitBytes}`);
  }
  const introspection = JSON.stringify(introspect(options.schema, options.queries));

  const app = new Hono();
  const replication = options.replication;
  // First, so that every response (refusals included) says which sequence this node is at.
  if (replication !== undefined) app.use("*", commitHeaders(replication));
  // Before the api key: a preflight carries no key, and a refused origin needs no key to be refused.
  app.use("*", originGuard({ corsOrigins: options.corsOrigins ?? [], loopbackHostsOnly: options.loopbackHostsOnly === true }));
  const explorer = options.explorer === true;
  // The explorer's page, script and style hold no data; its data calls need the key like any other.
  // The replication endpoints check the replication key or the api key themselves.
  const publicPaths = new Set([
    ...PUBLIC_PATHS,
    ...(explorer ? Object.keys(EXPLORER_ASSETS) : []),
    ...(replication !== undefined ? REPLICATION_PATHS : []),
  ]);
  const keys = keyRingOf(options);
  // Without tenants, a request naming one must not land in the project's own graph unseen.
  if (options.tenant === undefined && options.tenants === undefined) app.use("*", tenantsOffGuard());
  app.use("*", callerMiddleware(keys, publicPaths, options.tenant));

  const names = [...queries.keys()];
  const mcpEnabled = options.mcp !== false;
  if (mcpEnabled && queries.has(MCP_PATH.slice(1))) {
    throw new Error(`a query named "${MCP_PATH.slice(1)}" collides with the MCP endpoint ${MCP_PATH}; rename it or set mcp = false`);
  }
  const metrics = options.metrics ?? null;
  // Every embed call (queries' Embed(..), /mcp's search_vector_text) is counted in /metrics.
  const given = options.embedders ?? null;
  const embedders = given === null || metrics === null ? given : observedEmbedders(given, metrics.observeEmbedding);
  const runner = new QueryRunner(options.store, embedders, {
    labels: options.schema.vectors.map((v) => v.name),
    data: options.vectorDataInAnswers,
  });
  const commits = replication === undefined ? undefined : commitView(replication);
  const service = mcpEnabled ? new McpService({ ...options, embedders, connections: options.mcpConnections, runner, commits }) : null;
  const mcp = mcpHandler(service, bodyLimitBytes);
  const memory = memoryHandler(options.memory ?? null, bodyLimitBytes);
  const langgraph = langGraphHandler(options.langgraph ?? null, bodyLimitBytes);
  if (options.adhoc !== undefined && queries.has(ADHOC_PATH.slice(1))) {
    throw new Error(`a query named "${ADHOC_PATH.slice(1)}" collides with the ad-hoc endpoint POST ${ADHOC_PATH}; rename it`);
  }
  const tenants = tenantsHandler(options.tenants ?? null);
  const adhoc = adHocHandler(
    options.adhoc === undefined
      ? null
      : {
          compiler: options.adhoc,
          runner,
          bodyLimitBytes,
          answerLimitBytes: options.answerLimitBytes ?? DEFAULT_ANSWER_LIMIT_BYTES,
          keyed: keys.keyed,
          planStats: planStatsOf(options.store, options.schema),
        },
  );
  const getPaths: ReadonlySet<string> = new Set([
    ...GET_PATHS,
    ...(metrics !== null ? ["/metrics"] : []),
    ...(options.backup !== undefined ? [BACKUP_PATH] : []),
    ...(replication !== undefined ? REPLICATION_PATHS : []),
  ]);
  if (metrics !== null && service !== null) {
    const registry = service.env.connections;
    metrics.trackMcp(
      () => registry.size,
      () => registry.heldItems,
    );
  }
  const explorerCalls = explorer
    ? explorerApi({ store: options.store, schema: options.schema, bodyLimitBytes })
    : new Map<string, (c: Context) => Promise<Response>>();
  /** Every request no route answers: /mcp, the explorer's API, 405 on known paths with the wrong method, else 404. */
  const unrouted = (c: Context): Response | Promise<Response> => {
    const { method, path } = c.req;
    if (isMcpPath(path)) return mcp(c);
    if (isLangGraphPath(path)) return langgraph(c);
    if (path === ADHOC_PATH && (options.adhoc !== undefined || method === "POST")) return adhoc(c);
    if (options.tenant === undefined && (isTenantsPath(path) || path.startsWith("/t/"))) return tenants(c);
    if (isMemoryPath(path)) return memory(c);
    const explorerCall = method === "POST" ? explorerCalls.get(path) : undefined;
    if (explorerCall !== undefined) return explorerCall(c);
    // A tenant's app sees its path without `/t/<tenant>`: messages name the path as the client sent it.
    const sent = options.tenant === undefined ? path : `/t/${options.tenant}${path}`;
    if (getPaths.has(path)) return methodNotAllowed(method, sent, "GET");
    const name = path.slice(1);
    if (queries.has(name)) return methodNotAllowed(method, sent, "POST");
    if (method === "POST" && name !== "" && !name.includes("/")) return jsonErrorResponse(unknownQuery(name, names));
    return notFound(method, sent);
  };

  // GET routes with static paths and `POST /:name` as the only POST route: Hono's default
  // SmartRouter can then compile them into its RegExpRouter, the fast one, for queries. Another POST
  // route (a static path beside `/:name`) sends every request to its TrieRouter instead; such
  // endpoints (/mcp, the explorer's API) are answered by `unrouted` (test/http-router.test.ts).
  app.get("/health", () => new Response(HEALTH_BODY, { headers: JSON_HEADERS }));
  app.get("/introspect", () => new Response(introspection, { headers: JSON_HEADERS }));
  if (metrics !== null) {
    app.get("/metrics", async () => new Response(await metrics.render(), { headers: { "content-type": metrics.contentType } }));
  }
  if (explorer) addExplorerAssets(app);
  if (options.backup !== undefined) app.get(BACKUP_PATH, backupRoute(options.backup, backupAccess(keys)));
  if (replication !== undefined) addReplicationRoutes(app, replication, keys);
  const answerLimitBytes = options.answerLimitBytes ?? DEFAULT_ANSWER_LIMIT_BYTES;
  const idempotencyWindowMs = options.idempotencyWindowMs ?? DEFAULT_IDEMPOTENCY_WINDOW_MS;
  app.post("/:name", queryRoute({ runner, queries, bodyLimitBytes, answerLimitBytes, idempotencyWindowMs, notAQuery: unrouted }));
  app.notFound(unrouted);
  app.onError((error) => errorToResponse(error));
  return app;
}

/** The ring of keys the server checks: the one given, or one of `apiKey` alone. */
export function keyRingOf(options: Pick<AppOptions, "apiKey" | "keys">): KeyRing {
  return options.keys ?? fixedKeyRing({ apiKey: options.apiKey });
}

/** The names requests are counted and logged under (observe/route-label.ts). */
export function appRouteNames(options: Pick<AppOptions, "queries">): RouteNames {
  return {
    queries: new Set(options.queries.map((q) => q.name)),
    mcpTools: new Set([...BUILTIN_TOOL_NAMES, ...options.queries.filter((q) => q.mcp).map(queryToolName)]),
  };
}

function indexQueries(list: readonly QueryModule[]): ReadonlyMap<string, QueryModule> {
  const byName = new Map<string, QueryModule>();
  for (const q of list) {
    if (byName.has(q.name)) throw new Error(`duplicate query name "${q.name}"`);
    byName.set(q.name, q);
  }
  return byName;
}

function methodNotAllowed(method: string, path: string, allow: string): Response {
  return jsonErrorResponse(new StrandError("METHOD_NOT_ALLOWED", `method ${method} is not allowed on ${path}; use ${allow}`), { allow });
}

function notFound(method: string, path: string): Response {
  return jsonErrorResponse(new StrandError("NOT_FOUND", `no route for ${method} ${path}`));
}
