// The tenants as one server serves them: the registry of their stores (each within its limits, and
// refusing writes while this node is a replica), each tenant's app (the project's queries over its
// store, its own memory, and on a node with replication its own Strand-Commit, log and backup at
// /t/<tenant>/replication/…), the dispatch in front of them, and what replication needs: the feed
// of changes a leader's replicas poll and, on a replica, the sync that follows the leader's tenants.
import { basename } from "node:path";
import type { KeyRing } from "../access/key-ring.js";
import type { EngineApp } from "../front-door/engine.js";
import type { ServerMetrics } from "../observe/metrics.js";
import type { ClusterView, ReplicationNode } from "../replication/node.js";
import { replicationRefusal } from "../replication/routes.js";
import type { GraphStore } from "../../runtime/graph-store.js";
import type { SharedLogReaders } from "../../runtime/commit-log/log-readers.js";
import type { LeaderAccess } from "../../runtime/replication/leader-fetch.js";
import type { LogPosition } from "../../runtime/replication/protocol.js";
import type { UnconfirmedChange } from "../cluster/in-sync.js";
import { LimitedStore, NO_LIMITS, type TenantLimits } from "./limited-store.js";
import { TenantDispatch } from "./tenant-dispatch.js";
import { TenantFeed } from "./tenant-feed.js";
import { ClosedMarker } from "./kept-positions.js";
import { type OpenTenantMemory, TenantHandle } from "./tenant-handle.js";
import { TenantRegistry } from "./tenant-registry.js";
import { TenantSync } from "./tenant-sync.js";
import { IdleRelease } from "./idle-release.js";
import { type MemoryReleased, releaseMemoryOrWarn } from "./release-memory.js";

export interface TenantStores {
  /** `<data>/tenants` */
  root: string;
  /** Opens (creating when absent) a tenant's store in its folder, as the project's own is opened; `readers`: its log's shared readers. */
  open: (dir: string, readers?: SharedLogReaders) => GraphStore;
  /** Close a tenant unused this long (default 60 s). */
  idleMs?: number;
  /** Tenants open at once at most (default 256). */
  maxOpen?: number;
  /** What one tenant may hold and ask (default: no limits). */
  limits?: TenantLimits;
  /** Opens a tenant's memory (/t/<tenant>/memory/mcp); absent: the memory is the project's only. */
  memory?: OpenTenantMemory;
  /** Why this node takes no write now (a replica: 421 to its leader); absent: it always does. */
  writeRefusal?: () => Error | null;
  /**
   * Leading with synchronous replicas: the wait until the in-sync replicas hold the tenants'
   * changes up to a feed version (throws NOT_REPLICATED or FENCED, saying what the change was, when
   * they do not); null where a change is acknowledged once committed.
   */
  confirmation?: () => ((version: number, change: UnconfirmedChange) => Promise<void>) | null;
  /** On a replica: resolves once a tenant holds a sequence (true), false after the Strand-After wait; null where the node follows nobody. */
  awaitPosition?: (name: string, seq: number) => Promise<boolean | null>;
  /** Lines worth an operator's attention (a tenant re-seeded, the leader away). */
  warn?: (line: string) => void;
  /** Gives back what closed tenants freed, once they closed and the server is quiet (default: release-memory.ts; null: never). */
  releaseMemory?: (() => MemoryReleased) | null;
}

/** What a replica node (server/node/served-node.ts) does with the tenants as its role changes. */
export interface TenantReplication {
  /** Follows the leader's tenants (not started yet); in a failover group as `member`, whose polls acknowledge what it holds. */
  follow(leader: LeaderAccess, member?: string): TenantFollowing;
  /** The version of this node's feed now: a replica that holds it holds every tenant as this node does. */
  feedVersion(): number;
  /** This node leads now, in `epoch` (0: no group): new ids of its open tenants sort after the ones they hold. */
  lead(epoch: number): void;
}

export interface TenantFollowing {
  start(): void;
  stop(): Promise<void>;
  waitForPosition(name: string, seq: number, ms: number): Promise<boolean>;
}

export interface ServedTenants {
  registry: TenantRegistry<TenantHandle>;
  /** Present on a node with replication. */
  replication: TenantReplication | null;
  /** The dispatch in front of the project's own app and the tenants' apps. */
  dispatch(defaultApp: EngineApp, metrics: ServerMetrics | null): EngineApp;
  close(): Promise<void>;
}

/** How the server makes a tenant's app: the project's queries over `handle`, with the tenant's replication view. */
export type TenantAppMaker = (name: string, handle: TenantHandle, replication: ReplicationNode | undefined) => EngineApp;

/** The tenants of a server with `tenantStores`, or null when it serves one graph. */
export function serveTenants(
  options: {
    queries: readonly { name: string; writes: boolean }[];
    replication?: ReplicationNode | undefined;
    tenantStores?: TenantStores | undefined;
  },
  keys: KeyRing,
  appFor: TenantAppMaker,
): ServedTenants | null {
  const given = options.tenantStores;
  if (given === undefined) return null;
  const writing = new Set(options.queries.filter((q) => q.writes).map((q) => q.name));
  const idleMs = given.idleMs ?? 60_000;
  const limits = given.limits ?? NO_LIMITS;
  const node = options.replication;
  const feed = node === undefined ? null : new TenantFeed();
  const refusal = given.writeRefusal ?? (() => null);
  // The role's wait for the replicas, read at each change; null without one (or without a feed to number changes by).
  const confirmationNow = (): ReturnType<NonNullable<TenantStores["confirmation"]>> =>
    feed === null ? null : (given.confirmation?.() ?? null);
  const warn = given.warn ?? ((line: string) => process.stderr.write(`${line}\n`));
  const idle = new IdleRelease({
    requests: () => registry.acquisitions,
    busy: () => registry.busy,
    release: given.releaseMemory === undefined ? releaseMemoryOrWarn(warn) : given.releaseMemory,
  });
  const registry: TenantRegistry<TenantHandle> = new TenantRegistry({
    root: given.root,
    open: (dir) => {
      const store = given.open(dir, feed?.readers);
      // A group's leader: the tenant's new ids sort after the ones its old leader wrote (records/newest-id.ts).
      if ((node?.cluster?.leaderEpoch() ?? 0) > 0) store.keepNewIdsAfterStored();
      const marker = new ClosedMarker(dir);
      const name = basename(dir);
      const confirmation = (): ((at: LogPosition) => Promise<void>) | null => {
        const confirm = confirmationNow();
        if (confirm === null) return null;
        return (at) => confirm(feed!.committed(name, at), { subject: `the write to the tenant "${name}"`, seq: at.seq });
      };
      const graph = new LimitedStore(store, name, dir, limits, refusal, () => marker.beforeChange(), confirmation);
      return new TenantHandle(graph, dir, given.memory ?? null, marker);
    },
    idleMs,
    closed: () => idle.closed(),
    ...(given.maxOpen === undefined ? {} : { maxOpen: given.maxOpen }),
    ...(feed === null
      ? {}
      : { changed: (name: string, at: LogPosition | null) => (at === null ? feed.dropped(name) : feed.committed(name, at)) }),
    writeRefusal: refusal,
    confirmed: (change) => {
      const confirm = confirmationNow();
      return confirm === null ? Promise.resolve() : confirm(feed!.current, change);
    },
    appFor: (name, handle) => appFor(name, handle, node === undefined ? undefined : tenantNode(node, handle.graph.store)),
  });
  if (node !== undefined && feed !== null) {
    node.tenants = {
      id: feed.id,
      answer: (id, since) => feed.answer(id, since, () => registry.names().map((name) => ({ name, at: registry.positionOf(name) }))),
      version: () => feed.current,
      waitPast: (since, ms) => feed.waitPast(since, ms),
    };
  }
  // A sweep still closing when the next is due is left to finish: two ticks close together would
  // shorten the quiet interval a release waits for.
  let sweeping = false;
  const sweeper = setInterval(
    () => {
      if (sweeping) return;
      sweeping = true;
      void registry
        .sweep()
        .then(() => idle.tick())
        .finally(() => {
          sweeping = false;
        });
    },
    Math.max(1000, idleMs / 2),
  );
  sweeper.unref();
  return {
    registry,
    replication:
      node === undefined
        ? null
        : {
            follow: (leader, member) =>
              new TenantSync({
                leader,
                tenants: registry,
                fingerprint: node.identity.fingerprint,
                warn,
                ...(member === undefined ? {} : { member }),
              }),
            feedVersion: () => feed?.current ?? 0,
            lead: (epoch) => {
              if (epoch > 0) for (const store of registry.openStores()) store.graph.store.keepNewIdsAfterStored();
            },
          },
    dispatch: (defaultApp, metrics) => {
      const dispatch = new TenantDispatch({
        registry,
        defaultApp,
        keys,
        writes: (query) => writing.has(query),
        maxRequestsPerSecond: limits.maxRequestsPerSecond,
        isEmpty: (handle) => handle.stats().records.every((r) => r.count === 0),
        ...(given.awaitPosition === undefined
          ? {}
          : { awaitPosition: given.awaitPosition, positionOf: (name: string) => registry.positionOf(name)?.seq ?? null }),
        ...(node === undefined ? {} : { replicationAccess: replicationRefusal(node.key, keys) }),
      });
      metrics?.trackTenants(
        () => dispatch.requests,
        () => registry.openCount,
        () => idle.releases,
        () => idle.last,
      );
      return dispatch;
    },
    close: async () => {
      clearInterval(sweeper);
      feed?.close();
      await registry.closeAll();
    },
  };
}

/**
 * A tenant's replication as its app serves it: Strand-Commit and Strand-After by the tenant's own
 * sequence, its log and its backup; the group's role and epoch are the node's. A replica's
 * acknowledgements (`member`) count only on the project's own log, so the tenant's view takes none.
 */
function tenantNode(node: ReplicationNode, store: GraphStore): ReplicationNode {
  return {
    log: () => store.log,
    backup: (out) => store.backup(out),
    identity: node.identity,
    following: () => null,
    key: node.key,
    afterTimeoutMs: node.afterTimeoutMs,
    get cluster(): ClusterView | undefined {
      const cluster = node.cluster;
      if (cluster === undefined) return undefined;
      return {
        role: () => cluster.role(),
        status: () => cluster.status(),
        leaderEpoch: () => cluster.leaderEpoch(),
        replicaApplied: () => {},
        logSent: () => {},
      };
    },
  };
}
