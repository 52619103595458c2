// `strand serve [dir]`: compile in process, open the store, serve until SIGINT/SIGTERM; then stop
// accepting requests, finish the ones in flight, and close the store (which saves the HNSW files
// and releases the lock); a second SIGINT/SIGTERM exits at once. This file reads the
// settings (config/settings.ts) and wires the parts: the node and its role (server/node/), the
// server (server/server.ts).
import { join } from "node:path";
import { listenProblem } from "./listen-problem.js";
import { isLoopbackAddress, startServer, type RunningServer } from "../../server/server.js";
import { createLogger, type Logger } from "../../server/observe/logger.js";
import type { GraphStore } from "../../runtime/graph-store.js";
import { storeIdentity } from "../../runtime/replication/identity.js";
import type { StoreIdentity } from "../../runtime/replication/protocol.js";
import { LeaseGate } from "../../server/front-door/lease-gate.js";
import { ClusterNode } from "../../server/node/cluster-node.js";
import { seedFromGroupLeader, seedFromLeader } from "../../server/node/seed-before-open.js";
import { ServedNode } from "../../server/node/served-node.js";
import { writeRefusal } from "../../server/node/role-store.js";
import type { Settings } from "../config/settings.js";
import type { ProjectConfig } from "../config/load-config.js";
import type { GivenSettings } from "../config/knobs.js";
import { openServedLangGraph } from "./langgraph-store.js";
import { type ServedKeys, servedKeys } from "./serve-keys.js";
import { watchProject } from "./serve-watch.js";
import { adHocCompiler } from "../project/adhoc-compiler.js";
import { embedderNotice } from "../project/embedder-notice.js";
import { type OpenedProject, openProject } from "../project/open-project.js";
import { displayPath } from "../project/sources.js";
import { openServedMemory, servedMemoryProblem, tenantMemoryOpener } from "./memory-store.js";
import { strandVersion } from "../project/version.js";

export interface ServeOptions {
  dir: string;
  /** The settings the command line gave (flags and their STRAND_* variables). */
  flags: GivenSettings;
  /** Recompile and serve again on a change to the project's files (serve-watch.ts). */
  watch?: boolean;
}

export async function runServe(options: ServeOptions): Promise<number> {
  const say = (line: string): void => void process.stderr.write(`${line}\n`);
  let keys = null as ServedKeys | null;
  const opened = await openProject(options.dir, options.flags, "serving", {
    beforeStoreOpen: async (settings, config, project) => {
      const memoryProblem = servedMemoryProblem(settings);
      if (memoryProblem !== null) {
        say(`strand: ${memoryProblem}`);
        return false;
      }
      keys = servedKeys(settings.server, say);
      if (keys === null) return false;
      if (!keys.keyed && !isLoopbackAddress(settings.server.host)) {
        say(
          `strand: warning: listening on ${settings.server.host} without an api key: anyone who can reach this address can read and write; set --api-key-file or STRAND_API_KEY`,
        );
      }
      // A replica (or a group's node) seeds an empty store from its leader, and checks it is the same project.
      const self = { identity: identityOf(config, project.schema), keyed: keys.keyed };
      const dataDir = settings.store.dataDir;
      const { follow, key: replicationKey } = settings.replication;
      if (settings.cluster !== null) return seedFromGroupLeader(settings.cluster, replicationKey, dataDir, self, say);
      if (follow !== undefined) return seedFromLeader({ url: follow, key: replicationKey }, dataDir, self, say);
      return true;
    },
  });
  if (opened === null || keys === null) return 1;
  const { settings, project, embedders } = opened;
  const memory = settings.server.memory ? await openServedMemory(settings, embedders(null)) : undefined;
  if (memory === null) {
    await opened.store.close();
    return 1;
  }
  const langgraph = settings.server.memory ? await openServedLangGraph(settings, embedders(null)) : undefined;
  if (langgraph === null) {
    await memory?.store.close();
    await opened.store.close();
    return 1;
  }
  const tenantMemory = settings.server.memory && settings.server.tenants ? await tenantMemoryOpener(settings, embedders(null)) : null;
  const logger = createLogger({ level: settings.server.logLevel });
  logOpenedStore(logger, opened.store, settings.store.dataDir);
  const embedding = embedderNotice(opened.config, project.schema, project.models);
  if (embedding !== null) logger.info(embedding, "embedding model");
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
  const { served, cluster } = await nodeOf(opened, events);
  // A group's node: its answers as leader leave only within the lease (server/front-door/lease-gate.ts).
  const leaseGate = cluster === null ? undefined : LeaseGate.open();
  const store = {
    close: () =>
      served
        .current()
        .close()
        .then(() => memory?.store.close())
        .then(() => langgraph?.store.close()),
  };
  const { server: http, frontDoor } = settings;
  const tenantsServed = tenantsAreServed(settings, options.watch === true);
  let server: RunningServer;
  try {
    server = await startServer({
      store: served.store,
      replication: served.node,
      schema: project.schema,
      queries: project.queries,
      keys: keys.ring,
      bodyLimitBytes: http.bodyLimitBytes,
      answerLimitBytes: http.answerLimitBytes,
      idempotencyWindowMs: http.idempotencyWindowS * 1000,
      frontDoor,
      embedders,
      mcp: settings.mcp.enabled,
      mcpConnections: settings.mcp.connections,
      bm25: settings.store.bm25,
      vectorMetric: settings.store.vector.metric,
      corsOrigins: http.corsOrigins,
      explorer: http.explorer,
      vectorDataInAnswers: http.vectorDataInAnswers,
      memory: memory?.service,
      langgraph: langgraph?.service,
      adhoc: adHocCompiler(project.sources, { bm25: settings.store.bm25 }),
      logger,
      backup: served.store,
      leaseGate,
      reloadable: options.watch === true,
      tenantStores: tenantsServed
        ? {
            root: join(settings.store.dataDir, "tenants"),
            open: opened.openStoreIn,
            writeRefusal: () => writeRefusal(served.store.role),
            confirmation: () => served.store.tenantConfirmation(),
            awaitPosition: (name, seq) => served.awaitTenantPosition(name, seq),
            warn: say,
            idleMs: settings.server.tenantIdleS * 1000,
            ...(settings.server.tenantMemoryRelease ? {} : { releaseMemory: null }),
            limits: {
              maxRecords: settings.server.tenantMaxRecords,
              maxBytes: settings.server.tenantMaxBytes,
              maxRequestsPerSecond: settings.server.tenantMaxRps,
            },
            ...(tenantMemory === null ? {} : { memory: tenantMemory }),
          }
        : undefined,
      port: http.port,
      host: http.host,
    });
  } catch (error) {
    await store.close();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE" || code === "EACCES" || code === "EADDRNOTAVAIL") {
      process.stderr.write(`strand: ${listenProblem(error as NodeJS.ErrnoException, http.host, http.port)}\n`);
      return 1;
    }
    throw error;
  }

  const n = project.queries.length;
  process.stdout.write(
    `strand listening on http://${http.host}:${server.port} ` +
      `(${n} ${n === 1 ? "query" : "queries"}, data in ${displayPath(settings.store.dataDir)})\n`,
  );

  logger.info({ host: http.host, port: server.port, queries: n }, "listening");
  if (server.explorer) process.stdout.write(`explorer: http://${explorerHost(http.host)}:${server.port}/explorer\n`);
  if (memory !== undefined) process.stdout.write(`memory: http://${explorerHost(http.host)}:${server.port}/memory/mcp\n`);
  if (settings.replication.follow !== undefined) process.stdout.write(`following ${settings.replication.follow}\n`);
  if (server.tenants !== null) served.attachTenants(server.tenants);
  served.start();
  const unwatchKeys = keys.watch(say);
  const unwatchProject = options.watch === true ? watchProject({ dir: options.dir, opened, served, server, say }) : () => {};
  if (cluster !== null && settings.cluster !== null) {
    const group = settings.cluster;
    const url = group.advertise ?? `http://${explorerHost(http.host)}:${server.port}`;
    try {
      await cluster.join(url, (ms) => leaseGate?.leadUntil(ms));
      process.stdout.write(`joined group ${group.group} at ${group.endpoints.join(",")} as ${url}\n`);
    } catch (error) {
      fatal = `strand: cannot join group ${group.group} at ${group.endpoints.join(",")}: ${(error as Error).message}`;
      say(fatal);
    }
  }

  return new Promise<number>((resolve) => {
    let stopping = false;
    const shutDown = (code: number): void => {
      if (stopping) return;
      stopping = true;
      unwatchKeys();
      unwatchProject();
      // A stop that does not finish (an etcd or a peer that never answers, a handle left open)
      // must not keep the process for ever: past SHUTDOWN_LIMIT_MS it says where it was and exits.
      // Acknowledged writes are durable already; exiting here loses nothing a kill -9 would not.
      // The store's close (saving vector indexes) is not cut short: only what comes before and after it.
      let step = "stopping the node";
      const watchdog = (ms: number): NodeJS.Timeout => {
        const timer = setTimeout(() => {
          process.stderr.write(`strand: shutting down took over ${ms / 1000} s (at: ${step}); exiting\n`);
          process.exit(code === 0 ? 1 : code);
        }, ms);
        timer.unref();
        return timer;
      };
      let timer = watchdog(SHUTDOWN_LIMIT_MS);
      (cluster ?? served)
        .stop()
        .then(() => {
          step = "closing the server";
          return server.close();
        })
        .then(() => {
          clearTimeout(timer);
          return store.close();
        })
        .then(
          () => {
            step = "exiting (something still holds the event loop)";
            timer = watchdog(EXIT_LIMIT_MS);
            resolve(code);
          },
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

/** Whether the server serves tenants: unless turned off, or reloading (--watch). */
function tenantsAreServed(settings: Settings, watch: boolean): boolean {
  return settings.server.tenants && !watch;
}

/** How long stopping the node and the server may take before the process exits anyway (shutDown). */
const SHUTDOWN_LIMIT_MS = 15_000;
/** How long the process may stay after the store closed (a handle left open) before it exits. */
const EXIT_LIMIT_MS = 5_000;

/** The node and the source of its role: a failover group (etcd), --follow, or neither (a leader). */
async function nodeOf(
  opened: OpenedProject,
  events: { warn: (line: string) => void; fatal: (line: string) => void },
): Promise<{ served: ServedNode; cluster: ClusterNode | null }> {
  const { settings } = opened;
  const { cluster: group, replication } = settings;
  const served = new ServedNode({
    store: opened.store,
    reopenStore: opened.reopenStore,
    dataDir: settings.store.dataDir,
    identity: identityOf(opened.config, opened.project.schema),
    key: replication.key,
    afterTimeoutMs: replication.afterTimeoutMs,
    ...(group === null ? {} : { sync: { replicas: group.syncReplicas, timeoutMs: group.syncTimeoutMs } }),
    events,
  });
  if (group !== null) return { served, cluster: new ClusterNode(served, settings.store.dataDir, group, replication.key, events.warn) };
  if (replication.follow !== undefined) await served.follow({ url: replication.follow, key: replication.key }, null);
  else await served.lead(0);
  return { served, cluster: null };
}

function identityOf(config: ProjectConfig, schema: OpenedProject["project"]["schema"]): StoreIdentity {
  return storeIdentity(schema, config, strandVersion());
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
