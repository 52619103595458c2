// Serves a Strand app over HTTP/1.1. The engine (the store, the runtime, the Hono app,
// replication) stays on this, the main thread; a front-door thread (front-door/) owns the sockets,
// answering GET/HEAD /health itself (so a request that keeps the engine busy never delays it) and
// forwarding every other request here, or, with --front-door engine, the engine serves HTTP itself
// and that thread takes new connections only while one request holds it. `close()`
// stops accepting connections, lets in-flight requests finish (so acknowledged writes are
// acknowledged), closes kept-alive connections as they fall idle (http/graceful-close.ts), then
// resolves; the caller closes the store afterwards. Requests Node's parser refuses get JSON
// errors too (http/client-error.ts).
import { appRouteNames, createApp, DEFAULT_BODY_LIMIT_BYTES, keyRingOf, type AppOptions } from "./app.js";
import { DEFAULT_ANSWER_MEMORY_LIMIT_BYTES, DEFAULT_BODY_MEMORY_LIMIT_BYTES } from "./front-door/byte-budget.js";
import type { LeaseGate } from "./front-door/lease-gate.js";
import { startFrontDoor } from "./front-door/start.js";
import type { FrontDoor } from "./front-door/front-doors.js";
import { DEFAULT_STALL_LIMIT_MS, MAX_STALL_LIMIT_MS } from "./front-door/stall-limit.js";
import { DEFAULT_MAX_CONNECTIONS_PER_CLIENT, MAX_MAX_CONNECTIONS_PER_CLIENT } from "./front-door/connection-guard.js";
import { type Logger, silentLogger } from "./observe/logger.js";
import { LOG_LEVELS, type LogLevel } from "./observe/log-level.js";
import { ServerMetrics } from "./observe/metrics.js";
import { requestRecorder } from "./observe/request-observer.js";
import { ReloadableApp } from "./reloadable-app.js";
import { serveTenants, type TenantReplication, type TenantStores } from "./tenants/tenant-server.js";

/** The front door's limits (strand serve: the frontDoor section of its settings); each has a default. */
export interface FrontDoorLimits {
  /** Which thread serves HTTP (front-door/front-doors.ts; default "thread"). */
  door?: FrontDoor | undefined;
  /** /health answers 503 ENGINE_STALLED once the engine has not answered for longer (default 30 s). */
  stallLimitMs?: number | undefined;
  /**
   * The most bytes of request bodies held at once for requests not yet answered; past it a
   * request is refused with 503 SERVER_BUSY (front-door/byte-budget.ts). At least the body limit;
   * default 512 MiB, or the body limit when that is larger.
   */
  bodyMemoryLimitBytes?: number | undefined;
  /** The most bytes of answers clients have not read yet; past it an answer is 503 SERVER_BUSY (default 1 GiB; one answer always passes alone). */
  answerMemoryLimitBytes?: number | undefined;
  /** Connections one client (peer address) may hold open; past it a new one gets 429 TOO_MANY_CONNECTIONS (default 1000). */
  maxConnectionsPerClient?: number | undefined;
}

export interface ServerOptions extends AppOptions {
  /** 0 picks a free port. */
  port: number;
  /** Default 127.0.0.1 (local only); use 0.0.0.0 to listen on every interface. */
  host?: string | undefined;
  /** One line per request and the server's events (default: silent). */
  logger?: Logger | undefined;
  /** Keep request and store metrics and serve them at GET /metrics (default true). */
  keepMetrics?: boolean | undefined;
  frontDoor?: FrontDoorLimits | undefined;
  /** A failover group's node: answers given as leader leave only within the lease (front-door/lease-gate.ts). */
  leaseGate?: LeaseGate | undefined;
  /** Whether `reload` may replace the app while serving (strand serve --watch; default false). */
  reloadable?: boolean | undefined;
  /** Serve tenants (server/tenants/), each a store in its own folder under `root`; absent: one graph. */
  tenantStores?: TenantStores | undefined;
}

export type { TenantStores };

export interface RunningServer {
  port: number;
  host: string;
  /** Whether /explorer is served. */
  explorer: boolean;
  close(): Promise<void>;
  /** What a node with replication does with its tenants as its role changes; null without tenants or replication. */
  tenants: TenantReplication | null;
  /**
   * Answers later requests with these queries (and schema); with `change`, first holds new
   * requests, waits for those in flight and runs it (it swaps the store for the new schema), and
   * swaps only if it returns true. Resolves to whether the server now serves `next`. Only on a
   * server started `reloadable`.
   */
  reload(next: Pick<AppOptions, "schema" | "queries" | "adhoc">, change?: () => Promise<boolean>): Promise<boolean>;
}

export const DEFAULT_HOST = "127.0.0.1";

/** Whether a listen address reaches only this machine. */
export function isLoopbackAddress(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
const FORCE_CLOSE_AFTER_MS = 10_000;

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const host = options.host ?? DEFAULT_HOST;
  const keys = keyRingOf(options);
  const keyless = !keys.keyed;
  const store = options.store;
  const metrics =
    options.keepMetrics === false ? null : new ServerMetrics({ storeStats: store.stats?.bind(store), replication: options.replication });
  const loopbackHostsOnly = options.loopbackHostsOnly ?? (keyless && isLoopbackAddress(host));
  const explorer = options.explorer ?? isLoopbackAddress(host);
  // A tenant's app: the project's queries over its store, and its own memory; the explorer and
  // LangGraph's store belong to the project's own graph.
  const tenants =
    options.reloadable === true
      ? null
      : serveTenants(options, keys, (name, handle, replication) =>
          createApp({
            ...options,
            store: handle.graph,
            backup: handle.graph,
            keys,
            loopbackHostsOnly,
            tenant: name,
            explorer: false,
            memory: handle.memorySource() ?? undefined,
            langgraph: undefined,
            replication,
            metrics: null,
          }),
        );
  const appOptions: AppOptions = { ...options, keys, loopbackHostsOnly, metrics, explorer, tenants: tenants?.registry };
  const first = createApp(appOptions);
  // Only a server that may reload pays for the wrapper (an await per request).
  const app = options.reloadable === true ? new ReloadableApp(first) : tenants === null ? first : tenants.dispatch(first, metrics);
  const initial = appRouteNames(options);
  // Mutable: a reload names its queries for the request log and metrics.
  const names = { queries: new Set(initial.queries), mcpTools: new Set(initial.mcpTools) };
  const limits = options.frontDoor ?? {};
  const stallLimitMs = limits.stallLimitMs ?? DEFAULT_STALL_LIMIT_MS;
  if (!Number.isInteger(stallLimitMs) || stallLimitMs < 1 || stallLimitMs > MAX_STALL_LIMIT_MS) {
    throw new RangeError(`stallLimitMs must be an integer from 1 to ${MAX_STALL_LIMIT_MS}, got ${stallLimitMs}`);
  }
  const bodyLimitBytes = options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  const answerMemoryLimitBytes = limits.answerMemoryLimitBytes ?? DEFAULT_ANSWER_MEMORY_LIMIT_BYTES;
  if (!Number.isInteger(answerMemoryLimitBytes) || answerMemoryLimitBytes < 1) {
    throw new RangeError(`answerMemoryLimitBytes must be a positive integer, got ${answerMemoryLimitBytes}`);
  }
  const bodyMemoryLimitBytes = limits.bodyMemoryLimitBytes ?? Math.max(DEFAULT_BODY_MEMORY_LIMIT_BYTES, bodyLimitBytes);
  if (!Number.isInteger(bodyMemoryLimitBytes) || bodyMemoryLimitBytes < bodyLimitBytes) {
    throw new RangeError(
      `the body memory limit (${bodyMemoryLimitBytes} bytes) must be an integer of at least the body limit (${bodyLimitBytes} bytes): a body the server takes must fit in it`,
    );
  }
  const maxConnectionsPerClient = limits.maxConnectionsPerClient ?? DEFAULT_MAX_CONNECTIONS_PER_CLIENT;
  if (
    !Number.isInteger(maxConnectionsPerClient) ||
    maxConnectionsPerClient < 1 ||
    maxConnectionsPerClient > MAX_MAX_CONNECTIONS_PER_CLIENT
  ) {
    throw new RangeError(
      `maxConnectionsPerClient must be an integer from 1 to ${MAX_MAX_CONNECTIONS_PER_CLIENT}, got ${maxConnectionsPerClient}`,
    );
  }
  const replication = options.replication;
  const frontDoor = await startFrontDoor({
    settings: {
      port: options.port,
      host,
      bodyLimitBytes,
      bodyMemoryLimitBytes,
      answerMemoryLimitBytes,
      stallLimitMs,
      maxConnectionsPerClient,
      loopbackHostsOnly,
      forceCloseAfterMs: FORCE_CLOSE_AFTER_MS,
      logLevel: logLevelOf(options.logger),
      // createLogger's default form for stderr, which is where the front door writes.
      logPretty: process.stderr.isTTY === true,
      leaseGate: options.leaseGate?.buffer ?? null,
    },
    app,
    door: limits.door ?? "thread",
    logger: options.logger ?? silentLogger(),
    record: requestRecorder({ logger: options.logger ?? silentLogger(), metrics, names }),
    commit: replication === undefined ? () => null : () => replication.log().committed,
  });
  const port = frontDoor.port;
  // Only where there is a standby: through the thread the count would always read 0.
  if (frontDoor.engineDoor) metrics?.trackStandby(() => frontDoor.standbyHolds());
  let closing: Promise<void> | null = null;
  return {
    port,
    host,
    explorer,
    tenants: tenants?.replication ?? null,
    close(): Promise<void> {
      closing ??= frontDoor.close().then(() => tenants?.close());
      return closing;
    },
    async reload(next, change) {
      if (!(app instanceof ReloadableApp)) throw new Error("this server was not started reloadable");
      const options = { ...appOptions, ...next };
      const replaced = createApp(options);
      const swap = (): void => {
        appOptions.schema = options.schema;
        appOptions.queries = options.queries;
        appOptions.adhoc = options.adhoc;
        const fresh = appRouteNames(options);
        for (const key of ["queries", "mcpTools"] as const) {
          names[key].clear();
          for (const name of fresh[key]) names[key].add(name);
        }
      };
      if (change === undefined) {
        app.swap(replaced);
        swap();
        return true;
      }
      return app.exclusively(async () => {
        const changed = await change();
        if (changed) swap();
        return { app: changed ? replaced : null, value: changed };
      });
    },
  };
}

/** The level the front door logs at: the server's logger's, silent without one. */
function logLevelOf(logger: Logger | undefined): LogLevel {
  if (logger === undefined) return "silent";
  const level = LOG_LEVELS.find((l) => l === logger.level);
  if (level === undefined)
    throw new RangeError(`the logger's level ${JSON.stringify(logger.level)} is not one of ${LOG_LEVELS.join(", ")}`);
  return level;
}
