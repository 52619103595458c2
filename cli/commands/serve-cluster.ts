// `strand serve --etcd …`: a node of a failover group (issue 15 item 4). etcd decides its role
// (server/cluster/failover.ts); this file carries the decisions out on the store and the HTTP
// side: as leader it takes writes (each waiting for its in-sync replicas with --sync-replicas),
// as replica it follows the leader's log like `--follow` does (re-seeding when its history is not
// the leader's, e.g. an old leader's unacknowledged writes), fenced it takes none.
//
// Before the store opens, an empty --data is seeded from the group's leader (if there is one);
// the node joins etcd only once it listens, so that it can advertise its address.
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { GraphStore } from "../../runtime/graph-store.js";
import { Follower } from "../../runtime/replication/follower.js";
import type { LeaderAccess } from "../../runtime/replication/leader-fetch.js";
import { downloadSeed, installSeed, keptNote, needsSeed } from "../../runtime/replication/seed.js";
import { EtcdGroup } from "../../server/cluster/etcd-group.js";
import { FailoverController, type FailoverNode } from "../../server/cluster/failover.js";
import { RoleStore } from "../../server/cluster/role-store.js";
import type { ReplicationNode } from "../../server/replication/node.js";
import type { OpenedProject, OpenHooks } from "../project/open-project.js";
import type { ClusterSettings } from "./cluster-settings.js";
import { identityOf, replicationHooks, type ServedNode } from "./serve-replication.js";
import { makeDirs } from "../../runtime/store/make-dirs.js";
import { readKnownEpoch, writeKnownEpoch } from "./cluster-epoch.js";

/** The file in the data directory naming this node in its group; a new directory is a new member. */
const MEMBER_FILE = "cluster-member";

type Events = { warn: (line: string) => void; fatal: (line: string) => void };

/** Before the open: an empty store is seeded from the group's leader, a kept one checked against it. */
export function clusterBeforeOpen(
  settings: ClusterSettings,
  key: string | undefined,
  dataDir: string,
  say: (line: string) => void,
): NonNullable<OpenHooks["beforeStoreOpen"]> {
  return async (config, project) => {
    let leader: string | null;
    try {
      leader = (await EtcdGroup.peek(settings.endpoints, settings.group)).leader?.url ?? null;
    } catch (error) {
      say(`strand: cannot reach etcd at ${settings.endpoints.join(",")}: ${(error as Error).message}`);
      return false;
    }
    if (leader === null) {
      if (needsSeed(dataDir)) say(`strand: group ${settings.group} has no leader: starting with an empty store`);
      return true;
    }
    const check = replicationHooks({ follow: leader, key, ...NO_RETENTION }, dataDir, say).beforeStoreOpen;
    return check === undefined ? true : check(config, project);
  };
}

const NO_RETENTION = { logRetentionEntries: undefined, logRetentionBytes: undefined, afterTimeoutMs: undefined } as const;

export interface ClusterServedNode extends ServedNode {
  /** Joins the group, advertising `url`; rejects when etcd cannot be reached. */
  join(url: string): Promise<void>;
}

export function clusterNode(
  opened: OpenedProject,
  dataDir: string,
  settings: ClusterSettings,
  options: { key: string | undefined; afterTimeoutMs: number },
  events: Events,
): ClusterServedNode {
  return new ClusterNode(opened, dataDir, settings, options, events);
}

class ClusterNode implements ClusterServedNode, FailoverNode {
  readonly store: RoleStore;
  readonly node: ReplicationNode;
  private latest: GraphStore;
  private follower: Follower | null = null;
  private controller: FailoverController | null = null;
  private readonly member: string;
  /** The highest epoch this data directory's node has led or followed (cluster-epoch.ts). */
  private known: number;

  constructor(
    private readonly opened: OpenedProject,
    private readonly dataDir: string,
    private readonly settings: ClusterSettings,
    private readonly options: { key: string | undefined; afterTimeoutMs: number },
    private readonly events: Events,
  ) {
    this.latest = opened.store;
    this.member = memberId(dataDir);
    this.known = readKnownEpoch(dataDir);
    this.store = new RoleStore(opened.store, { replicas: settings.syncReplicas, timeoutMs: settings.syncTimeoutMs });
    this.node = {
      log: () => this.latest.log,
      backup: (out) => this.store.backup(out),
      identity: identityOf(opened.config, opened.project),
      following: () => (this.store.role.kind === "replica" ? (this.follower?.status() ?? null) : null),
      key: options.key,
      afterTimeoutMs: options.afterTimeoutMs,
      cluster: {
        role: () => (this.store.role.kind === "starting" && this.controller?.role === "stopped" ? "fenced" : this.store.role.kind),
        leaderEpoch: () => (this.store.role.kind === "leader" ? this.store.role.epoch : 0),
        replicaApplied: (member, seq) => this.controller?.replicaApplied(member, seq),
        status: () => ({
          group: settings.group,
          member: this.member,
          epoch: this.controller?.leaderEpoch ?? 0,
          inSync: [...(this.controller?.inSync ?? [])],
          syncReplicas: settings.syncReplicas,
        }),
      },
    };
  }

  start(): void {}

  async join(url: string): Promise<void> {
    const ttl = this.settings.leaseTtlSeconds;
    const join = () =>
      EtcdGroup.join({
        endpoints: this.settings.endpoints,
        group: this.settings.group,
        member: { id: this.member, url },
        leaseTtlSeconds: ttl,
      });
    const leaseTtlMs = ttl * 1000;
    this.controller = new FailoverController(await join(), this, {
      syncReplicas: this.settings.syncReplicas,
      lagTimeoutMs: clamp(this.settings.syncTimeoutMs / 4, 500, 3_000),
      checkEveryMs: clamp(leaseTtlMs / 10, 100, 1_000),
      leaseTtlMs,
      rejoin: join,
      log: (line) => this.events.warn(`strand: ${line}`),
    });
    this.events.warn(`strand: joining group ${this.settings.group} as ${this.member} (${url})`);
    await this.controller.start();
  }

  /**
   * Takes no new writes, lets the ones waiting for their replicas finish (the replicas still
   * poll: the server closes after this), then leaves the group: its lease goes at once, so a
   * replica takes over without waiting for it to expire.
   */
  async stop(): Promise<void> {
    if (this.store.role.kind === "leader") {
      this.store.role = { kind: "fenced", reason: "it is shutting down" };
      await this.store.drained(Math.min(this.settings.syncTimeoutMs, 5_000));
    }
    await this.controller?.stop();
    await this.stopFollowing();
  }

  current(): GraphStore {
    return this.latest;
  }

  // FailoverNode: what the controller tells this node.

  appliedSeq(): number {
    return this.latest.log.committed;
  }

  knownEpoch(): number {
    return this.known;
  }

  /** Keeps `epoch` as known before the node acts in it. */
  private enter(epoch: number): void {
    if (epoch <= this.known) return;
    writeKnownEpoch(this.dataDir, epoch);
    this.known = epoch;
  }

  lagMs(): number {
    return this.follower?.lag().ms ?? 0;
  }

  async lead(epoch: number): Promise<void> {
    this.enter(epoch);
    await this.stopFollowing();
    // Its first write's ids must sort after the ones its old leader wrote (newest-id.ts).
    this.latest.keepNewIdsAfterStored();
    const controller = this.controller;
    this.store.role = {
      kind: "leader",
      epoch,
      acked: (seq) => (controller === null ? Promise.resolve("fenced") : controller.waitAcked(seq, this.settings.syncTimeoutMs)),
    };
  }

  async follow(url: string, epoch: number): Promise<void> {
    this.enter(epoch);
    await this.stopFollowing();
    this.store.role = { kind: "replica", leader: url, epoch };
    const leader: LeaderAccess = { url, key: this.options.key };
    this.follower = new Follower({
      leader,
      identity: this.node.identity,
      target: () => this.latest,
      reseed: () => this.reseed(leader),
      fatal: (message) => this.events.fatal(`strand: stopped following ${url}: ${message}`),
      warn: (message) => this.events.warn(`strand: ${message}`),
      member: this.member,
      epoch,
    });
    this.follower.start();
  }

  fence(reason: string): void {
    this.store.role = { kind: "fenced", reason };
  }

  private async stopFollowing(): Promise<void> {
    const follower = this.follower;
    this.follower = null;
    await follower?.stop();
  }

  /** Replaces the store by the leader's backup: downloaded while the old one serves, then swapped. */
  private async reseed(leader: LeaderAccess): Promise<void> {
    const seed = await downloadSeed(leader, this.dataDir);
    this.store.current = null;
    let kept: string | null;
    try {
      await this.latest.close();
      kept = installSeed(seed, this.dataDir);
      this.latest = this.opened.reopenStore();
    } catch (error) {
      this.events.fatal(`strand: re-seeding from ${leader.url} failed: ${(error as Error).message}`);
      throw error;
    }
    this.store.current = this.latest;
    this.events.warn(`strand: re-seeded from ${leader.url} at sequence ${this.latest.log.committed}${keptNote(kept)}`);
  }
}

function clamp(value: number, min: number, max: number): number {
  return Math.round(Math.min(max, Math.max(min, value)));
}

/** This data directory's member id: made once (random), then read at every start. */
function memberId(dataDir: string): string {
  const file = join(dataDir, MEMBER_FILE);
  if (existsSync(file)) {
    const id = readFileSync(file, "utf8").trim();
    if (/^[A-Za-z0-9._-]{1,64}$/.test(id)) return id;
  }
  const id = `n${randomBytes(4).toString("hex")}`;
  makeDirs(dataDir);
  writeFileSync(file, `${id}\n`);
  return id;
}
