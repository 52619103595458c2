// This node: the store it serves and the role it serves it in. Leader, replica or fenced is one
// value (role-store.ts), changed only here — by `--follow` (a replica from the start) or by a
// failover group's controller (cluster-node.ts) — and every transition carries out what the role
// needs: a replica follows its leader's log (runtime/replication/follower.ts) and, when its
// history is not the leader's or the leader no longer keeps what it needs, re-seeds: the leader's
// backup is downloaded while the old store still serves, then the store is closed, swapped and
// reopened. A leader stops following and makes its new ids sort after every id it applied.
import type { GraphStore } from "../../runtime/graph-store.js";
import { Follower } from "../../runtime/replication/follower.js";
import type { LeaderAccess } from "../../runtime/replication/leader-fetch.js";
import type { StoreIdentity } from "../../runtime/replication/protocol.js";
import { downloadSeed, installSeed, keptNote } from "../../runtime/replication/seed.js";
import type { AckOutcome } from "../cluster/in-sync.js";
import type { ClusterView, ReplicationNode } from "../replication/node.js";
import type { TenantFollowing, TenantReplication } from "../tenants/tenant-server.js";
import { RoleStore } from "./role-store.js";

export interface NodeEvents {
  /** A line worth an operator's attention; the node goes on. */
  warn(line: string): void;
  /** The node cannot go on (no store left to serve): the server should stop. */
  fatal(line: string): void;
}

export interface ServedNodeOptions {
  /** The store as the open left it. */
  store: GraphStore;
  /** Opens the data directory's store again (after a re-seed); throws when it cannot. */
  reopenStore: () => GraphStore;
  dataDir: string;
  identity: StoreIdentity;
  /** The replication key: sent to a leader, accepted from replicas (with the api key). */
  key: string | undefined;
  /** How long a request with Strand-After waits for its sequence (ms). */
  afterTimeoutMs: number;
  /** A failover group's synchronous replicas, for the messages of writes they did not confirm. */
  sync?: { replicas: number; timeoutMs: number };
  events: NodeEvents;
}

export class ServedNode {
  /** What the app serves queries from. */
  readonly store: RoleStore;
  /** What the HTTP layer sees of this node's replication. */
  readonly node: ReplicationNode;
  /** The newest store opened: its log answers while a re-seed has none open. */
  private latest: GraphStore;
  private follower: Follower | null = null;
  /** Followers start once the node serves (start): before that a replica only refuses writes. */
  private started = false;
  /** The server's tenants, once it serves them (attachTenants); on a replica, their sync with the leader's. */
  private tenants: TenantReplication | null = null;
  private tenantSync: TenantFollowing | null = null;
  /** Whom a replica follows, and as which group member, for the tenants' sync attached after it began. */
  private leader: LeaderAccess | null = null;
  private member: string | undefined;

  constructor(private readonly options: ServedNodeOptions) {
    this.latest = options.store;
    this.store = new RoleStore(options.store, options.sync);
    this.node = {
      log: () => this.latest.log,
      backup: (out) => this.store.backup(out),
      identity: options.identity,
      following: () => (this.store.role.kind === "replica" ? (this.follower?.status() ?? null) : null),
      key: options.key,
      afterTimeoutMs: options.afterTimeoutMs,
    };
  }

  /** A failover group's view of this node (its role, epoch and in-sync set), for /replication/status and the log routes. */
  setCluster(view: ClusterView): void {
    this.node.cluster = view;
  }

  /** The store open now (a re-seed replaces it). */
  current(): GraphStore {
    return this.latest;
  }

  /** The last commit sequence this node holds durably (committed or applied). */
  appliedSeq(): number {
    return this.latest.log.committed;
  }

  /** A replica's lag behind its leader in ms (0 when not following). */
  lagMs(): number {
    return this.follower?.lag().ms ?? 0;
  }

  /** Takes writes as the leader of `epoch` (0: no group); `acked`: the wait for synchronous replicas (`tenantsAcked`: for the tenants' changes). */
  async lead(
    epoch: number,
    acked?: (seq: number) => Promise<AckOutcome>,
    tenantsAcked?: (version: number) => Promise<AckOutcome>,
  ): Promise<void> {
    await this.stopFollowing();
    // Its first write's ids must sort after the ones its old leader wrote (records/newest-id.ts).
    if (epoch > 0) this.latest.keepNewIdsAfterStored();
    // With synchronous replicas: an entry of its own, so its replicas' acknowledgements count from
    // the start (GraphStore.markLead); a failure leaves retried writes waiting for the next write.
    if (acked !== undefined)
      await this.latest.markLead().catch((error: unknown) => {
        this.options.events.warn(`strand: the new leader's first log entry failed: ${(error as Error).message}`);
      });
    this.tenants?.lead(epoch);
    this.store.role =
      acked === undefined
        ? { kind: "leader", epoch }
        : { kind: "leader", epoch, acked, ...(tenantsAcked === undefined ? {} : { tenantsAcked }) };
  }

  /** Refuses writes and follows the leader at `leader.url`; in a group as `member`, refusing answers of an epoch below `epoch`. */
  async follow(leader: LeaderAccess, group: { member: string; epoch: number } | null): Promise<void> {
    await this.stopFollowing();
    this.store.role = { kind: "replica", leader: leader.url, epoch: group?.epoch ?? 0 };
    const { events } = this.options;
    this.follower = new Follower({
      leader,
      identity: this.options.identity,
      target: () => this.latest,
      reseed: () => this.reseed(leader, group),
      fatal: (message) => events.fatal(`strand: stopped following ${leader.url}: ${message}`),
      warn: (message) => events.warn(`strand: ${message}`),
      ...(group === null ? {} : { member: group.member, epoch: group.epoch }),
    });
    this.leader = leader;
    this.member = group?.member;
    this.tenantSync = this.tenants?.follow(leader, this.member) ?? null;
    if (this.started) {
      this.follower.start();
      this.tenantSync?.start();
    }
  }

  /** The server serves tenants: a replica follows its leader's (and keeps following them through role changes). */
  attachTenants(tenants: TenantReplication): void {
    this.tenants = tenants;
    if (this.store.role.kind === "replica" && this.leader !== null && this.tenantSync === null) {
      this.tenantSync = tenants.follow(this.leader, this.member);
      if (this.started) this.tenantSync.start();
    }
  }

  /** The version of the tenants' feed now (server/tenants/tenant-feed.ts); null when the node serves no tenants. */
  tenantFeedVersion(): number | null {
    return this.tenants?.feedVersion() ?? null;
  }

  /** On a replica: resolves true once the tenant holds `seq`, false when it does not within the Strand-After wait; null on a node that follows nobody. */
  awaitTenantPosition(name: string, seq: number): Promise<boolean | null> {
    return this.tenantSync?.waitForPosition(name, seq, this.options.afterTimeoutMs) ?? Promise.resolve(null);
  }

  /** The server listens: a replica starts following. */
  start(): void {
    this.started = true;
    this.follower?.start();
    this.tenantSync?.start();
  }

  /** Refuses writes until told to lead or follow. */
  fence(reason: string): void {
    this.store.role = { kind: "fenced", reason };
  }

  /** Stops following (the caller then closes the server and `current()`). */
  stop(): Promise<void> {
    return this.stopFollowing();
  }

  private async stopFollowing(): Promise<void> {
    const follower = this.follower;
    const tenantSync = this.tenantSync;
    this.follower = null;
    this.tenantSync = null;
    this.leader = null;
    await Promise.all([follower?.stop(), tenantSync?.stop()]);
  }

  /**
   * Closes the store and opens it again by `open` (`serve --watch`: the project's new schema, with
   * the checks and migrations of any open). When `open` throws, the store is opened by `fallback`
   * (the schema it had) and the error rethrown. The caller holds requests meanwhile.
   */
  async replaceStore(open: () => GraphStore, fallback: () => GraphStore): Promise<void> {
    this.store.current = null;
    await this.latest.close();
    try {
      this.latest = open();
    } catch (error) {
      this.latest = fallback();
      throw error;
    } finally {
      this.store.current = this.latest;
    }
  }

  /** Replaces the store by the leader's backup: downloaded while the old one serves, then swapped. */
  private async reseed(leader: LeaderAccess, group: { member: string; epoch: number } | null): Promise<void> {
    const { dataDir, events } = this.options;
    const seed = await downloadSeed(leader, dataDir, group?.member);
    this.store.current = null;
    let kept: string | null;
    try {
      // Names the replaced file: the sequence it stood at, and the epoch it was replaced in.
      const history = `${group === null ? "" : `epoch-${group.epoch}-`}seq-${this.latest.log.committed}`;
      await this.latest.close();
      kept = installSeed(seed, dataDir, history);
      this.latest = this.options.reopenStore();
    } catch (error) {
      // No store to serve any more: stop the server rather than answer 503 for ever.
      events.fatal(`strand: re-seeding from ${leader.url} failed: ${(error as Error).message}`);
      throw error;
    }
    this.store.current = this.latest;
    events.warn(`strand: re-seeded from ${leader.url} at sequence ${this.latest.log.committed}${keptNote(kept)}`);
  }
}
