// `strand serve [dir]`: compile in process, open the store, serve until SIGINT/SIGTERM; then stop
// accepting requests, finish the ones in flight, and close the store.
import { readFileSync } from "node:fs";
import { isLoopbackAddress, startServer, type RunningServer } from "../../server/server.js";
import { DEFAULT_BODY_LIMIT_BYTES } from "../../server/app.js";
import { createLogger, type Logger, type LogLevel } from "../../server/observe/logger.js";
import type { GraphStore } from "../../runtime/graph-store.js";
import { DEFAULT_QUERY_TIMEOUT_MS } from "../../runtime/query/query-deadline.js";
import { mcpConnectionOptions, mcpLimitOptions, type OpenHooks, openProject } from "../project/open-project.js";
import { displayPath } from "../project/sources.js";
import { afterTimeoutOf, replicationHooks, retentionOf, servedNode, type ReplicationFlags } from "./serve-replication.js";
import { clusterBeforeOpen, clusterNode } from "./serve-cluster.js";
import { type ClusterFlags, type ClusterSettings, clusterSettings } from "./cluster-settings.js";
import type { ProjectConfig } from "../config/project-config.js";

export interface ServeOptions {
  dir: string;
  port: number;
  host: string;
  dataDir: string;
  apiKey: string | undefined;
  /** --api-key-file / STRAND_API_KEY_FILE: the key's file (its first line), kept out of `ps`. */
  apiKeyFile?: string | undefined;
  bodyLimitBytes: number | undefined;
  /** --body-memory-limit / STRAND_BODY_MEMORY_LIMIT: request bodies held at once, not yet answered. */
  bodyMemoryLimitBytes?: number | undefined;
  /** --answer-memory-limit / STRAND_ANSWER_MEMORY_LIMIT: answers held at once that clients have not read yet. */
  answerMemoryLimitBytes?: number | undefined;
  /** --stall-limit / STRAND_STALL_LIMIT: ms without an answer from the engine before /health is 503 ENGINE_STALLED. */
  stallLimitMs?: number | undefined;
  /** --max-connections-per-client / STRAND_MAX_CONNECTIONS_PER_CLIENT: connections one peer address may hold open. */
  maxConnectionsPerClient?: number | undefined;
  /** --query-timeout / STRAND_QUERY_TIMEOUT: ms one query may run (0: no limit). */
  queryTimeoutMs?: number | undefined;
  cacheEntries: number | undefined;
  /** --cache-size: the read cache's budget in estimated bytes; undefined: the store's default. */
  cacheBytes: number | undefined;
  /** Browser origins allowed to call (--cors / STRAND_CORS); others are refused. */
  corsOrigins: readonly string[];
  /** --explorer / STRAND_EXPLORER: serve /explorer (default: when bound to a loopback address). */
  explorer: boolean | undefined;
  /** --log-level / STRAND_LOG_LEVEL (default info: one line per request). */
  logLevel: LogLevel;
  /** --follow, --replication-key, --log-retention-entries/-bytes, --after-timeout (serve-replication.ts). */
  replication?: ReplicationFlags | undefined;
  /** --etcd, --group, --advertise, --sync-replicas, --lease-ttl, --sync-timeout (cluster-settings.ts). */
  cluster?: ClusterFlags | undefined;
}

export async function runServe(options: ServeOptions): Promise<number> {
  const apiKey = options.apiKeyFile === undefined ? options.apiKey : readApiKeyFile(options.apiKeyFile);
  if (apiKey === null) return 1;
  if (apiKey === undefined && !isLoopbackAddress(options.host)) {
    process.stderr.write(
      `strand: warning: listening on ${options.host} without an api key: anyone who can reach this address can read and write; set --api-key-file or STRAND_API_KEY\n`,
    );
  }
  // strand.toml (or helix.toml), the embedding provider, the project, the store: a bad setting stops startup.
  const say = (line: string): void => void process.stderr.write(`${line}\n`);
  // With etcd (a flag, or strand.toml [cluster]) the node's role comes from its group: known once
  // strand.toml is read, before the store opens (an empty one is seeded from the group's leader).
  let cluster: ClusterSettings | null = null;
  const plain = replicationHooks(options.replication, options.dataDir, say);
  const hooks: OpenHooks = {
    beforeStoreOpen: async (config, project) => {
      const limits = bodyLimitsError(options, config);
      if (limits !== null) {
        say(`strand: ${limits}`);
        return false;
      }
      const settings = clusterSettings(options.cluster, config, options.replication?.follow, options.host);
      if (settings !== null && "error" in settings) {
        say(`strand: ${settings.error}`);
        return false;
      }
      // The group's nodes read each other's commit logs with the replication key (a replica sends
      // only that key): without it every replica is refused and every synchronous write times out.
      if (settings !== null && options.replication?.key === undefined) {
        say(
          "strand: a failover group needs --replication-key KEY (or STRAND_REPLICATION_KEY), the same on every node: its nodes read each other's commit logs with it",
        );
        return false;
      }
      cluster = settings;
      if (settings !== null) return clusterBeforeOpen(settings, options.replication?.key, options.dataDir, say)(config, project);
      return plain.beforeStoreOpen === undefined ? true : plain.beforeStoreOpen(config, project);
    },
    logRetention: (config: ProjectConfig) => retentionOf(options.replication, config),
    queryTimeoutMs: (config: ProjectConfig) => options.queryTimeoutMs ?? config.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS,
  };
  const opened = await openProject(
    options.dir,
    options.dataDir,
    { entries: options.cacheEntries, bytes: options.cacheBytes },
    "serving",
    hooks,
  );
  if (opened === null) return 1;
  const { config, project, embedders } = opened;
  const logger = createLogger({ level: options.logLevel });
  logOpenedStore(logger, opened.store, options.dataDir);
  let stopWith: ((code: number) => void) | null = null;
  let fatal: string | null = null;
  const events = {
    warn: say,
    fatal: (line: string) => {
      fatal = line;
      say(line);
      stopWith?.(1);
    },
  };
  const settings = cluster as ClusterSettings | null;
  const grouped =
    settings === null
      ? null
      : clusterNode(
          opened,
          options.dataDir,
          settings,
          { key: options.replication?.key, afterTimeoutMs: afterTimeoutOf(options.replication, config) },
          events,
        );
  const served = grouped ?? servedNode(opened, options.dataDir, options.replication, events);
  const store = { close: () => served.current().close() };
  let server: RunningServer;
  try {
    server = await startServer({
      store: served.store,
      replication: served.node,
      schema: project.schema,
      queries: project.queries,
      apiKey,
      bodyLimitBytes: options.bodyLimitBytes ?? config.bodyLimitBytes,
      bodyMemoryLimitBytes: options.bodyMemoryLimitBytes ?? config.bodyMemoryLimitBytes,
      answerMemoryLimitBytes: options.answerMemoryLimitBytes ?? config.answerMemoryLimitBytes,
      stallLimitMs: options.stallLimitMs ?? config.stallLimitMs,
      maxConnectionsPerClient: options.maxConnectionsPerClient ?? config.maxConnectionsPerClient,
      embedders,
      mcp: config.mcp,
      mcpConnections: { ...mcpConnectionOptions(config), ...mcpLimitOptions(config) },
      bm25: config.bm25,
      vectorMetric: config.vector.metric,
      corsOrigins: options.corsOrigins,
      explorer: options.explorer,
      logger,
      backup: served.store,
      port: options.port,
      host: options.host,
    });
  } catch (error) {
    await store.close();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE" || code === "EACCES" || code === "EADDRNOTAVAIL") {
      process.stderr.write(`strand: cannot listen on ${options.host}:${options.port}: ${(error as Error).message}\n`);
      return 1;
    }
    throw error;
  }

  const n = project.queries.length;
  process.stdout.write(
    `strand listening on http://${options.host}:${server.port} ` +
      `(${n} ${n === 1 ? "query" : "queries"}, data in ${displayPath(options.dataDir)})\n`,
  );

  logger.info({ host: options.host, port: server.port, queries: n }, "listening");
  if (server.explorer) process.stdout.write(`explorer: http://${explorerHost(options.host)}:${server.port}/explorer\n`);
  if (options.replication?.follow !== undefined) process.stdout.write(`following ${options.replication.follow}\n`);
  served.start();
  if (grouped !== null && settings !== null) {
    const url = settings.advertise ?? `http://${explorerHost(options.host)}:${server.port}`;
    try {
      await grouped.join(url);
      process.stdout.write(`joined group ${settings.group} at ${settings.endpoints.join(",")} as ${url}\n`);
    } catch (error) {
      fatal = `strand: cannot join group ${settings.group} at ${settings.endpoints.join(",")}: ${(error as Error).message}`;
      say(fatal);
    }
  }

  return new Promise<number>((resolve) => {
    let stopping = false;
    const shutDown = (code: number): void => {
      if (stopping) return;
      stopping = true;
      served
        .stop()
        .then(() => server.close())
        .then(() => store.close())
        .then(
          () => resolve(code),
          (error: unknown) => {
            process.stderr.write(`strand: error while shutting down: ${(error as Error).stack ?? String(error)}\n`);
            resolve(1);
          },
        );
    };
    const stop = (signal: NodeJS.Signals): void => {
      if (stopping) {
        process.stderr.write(`strand: ${signal} again, exiting immediately\n`);
        process.exit(1);
      }
      process.stdout.write(`strand: ${signal}, shutting down\n`);
      shutDown(0);
    };
    stopWith = shutDown;
    if (fatal !== null) shutDown(1);
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}

/** Startup lines: what was opened, what the open migrated or revalidated, how each vector index was obtained. */
function logOpenedStore(logger: Logger, store: GraphStore, dataDir: string): void {
  if (!logger.isLevelEnabled("info")) return;
  const stats = store.stats();
  const records = { nodes: 0, vectors: 0, edges: 0 };
  for (const r of stats.records) records[r.kind === "N" ? "nodes" : r.kind === "V" ? "vectors" : "edges"] += r.count;
  logger.info({ data: displayPath(dataDir), bytes: stats.fileBytes, ...records }, "opened store");
  const format = store.formatMigration;
  if (format !== null) {
    logger.info(
      { from: format.from, to: format.to, entries: format.entries, ms: format.ms, resumed: format.resumed },
      "migrated store format",
    );
  }
  const update = store.schemaUpdate;
  const changed = Object.keys(update.rewritten).length + Object.keys(update.revalidated).length > 0;
  if (update.from !== update.to || changed) {
    logger.info({ from: update.from, to: update.to, rewritten: update.rewritten, revalidated: update.revalidated }, "migrated store");
  }
  for (const v of stats.vectors) {
    const status = store.vectorIndexStatus(v.type);
    logger.info({ type: v.type, source: status.source, reason: status.reason, vectors: status.live }, "vector index");
  }
}

/** A host name a browser on this machine can open for a listen address. */
function explorerHost(host: string): string {
  if (host === "0.0.0.0" || host === "::") return "localhost";
  return host.includes(":") ? `[${host}]` : host;
}

/** The key in `file` (its first line, trimmed); null after printing why it cannot be used. */
function readApiKeyFile(file: string): string | null {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    process.stderr.write(`strand: cannot read the api key file ${displayPath(file)}: ${(error as Error).message}\n`);
    return null;
  }
  const key = (text.split(/\r?\n/)[0] ?? "").trim();
  if (key === "") {
    process.stderr.write(`strand: the api key file ${displayPath(file)} is empty (its first line is the key)\n`);
    return null;
  }
  return key;
}

/** Why the body memory limit cannot hold one body of the body limit (flags win over strand.toml), or null. */
function bodyLimitsError(options: ServeOptions, config: ProjectConfig): string | null {
  const memory = options.bodyMemoryLimitBytes ?? config.bodyMemoryLimitBytes;
  const body = options.bodyLimitBytes ?? config.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  if (memory === undefined || memory >= body) return null;
  return `the body memory limit (${memory} bytes: --body-memory-limit, STRAND_BODY_MEMORY_LIMIT or [server] body_memory_limit) is below the body limit (${body} bytes): one body the server takes must fit in it`;
}
