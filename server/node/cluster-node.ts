// A failover group's node (`strand serve --etcd …`): etcd decides its role (server/cluster/
// failover.ts, the controller), and this is the FailoverNode the controller tells — lead, follow
// or fence — carried out on the served node (served-node.ts). It keeps the epoch it has been in
// (known-epoch.ts) and its member id and key (member-identity.ts) in the data directory, joins the group once
// the server listens (to advertise its URL), and on stop takes no new writes, lets the ones
// waiting for their replicas finish and leaves the group, so a replica takes over at once.
import { EtcdGroup } from "../cluster/etcd-group.js";
import { FailoverController, type FailoverNode } from "../cluster/failover.js";
import { readKnownEpoch, writeKnownEpoch } from "./known-epoch.js";
import { type MemberIdentity, memberIdentity } from "./member-identity.js";
import type { ServedNode } from "./served-node.js";

export interface ClusterNodeSettings {
  endpoints: string[];
  group: string;
  syncReplicas: number;
  leaseTtlSeconds: number;
  syncTimeoutMs: number;
}

export class ClusterNode implements FailoverNode {
  private controller: FailoverController | null = null;
  private readonly member: MemberIdentity;
  /** The highest epoch this data directory's node has led or followed (known-epoch.ts). */
  private known: number;

  constructor(
    private readonly served: ServedNode,
    private readonly dataDir: string,
    private readonly settings: ClusterNodeSettings,
    /** The replication key this node sends to the leader it follows. */
    private readonly key: string | undefined,
    private readonly warn: (line: string) => void,
  ) {
    this.member = memberIdentity(dataDir);
    this.known = readKnownEpoch(dataDir);
    const store = served.store;
    served.setCluster({
      role: () => (store.role.kind === "starting" && this.controller?.role === "stopped" ? "fenced" : store.role.kind),
      leaderEpoch: () => (store.role.kind === "leader" ? store.role.epoch : 0),
      replicaApplied: (member, seq, key) => this.controller?.replicaApplied(member, seq, key),
      logSent: (member, seq, key) => this.controller?.logSent(member, seq, key),
      tenantsApplied: (member, version, key) => this.controller?.tenantsApplied(member, version, key),
      tenantsSent: (member, version, key) => this.controller?.tenantsSent(member, version, key),
      replicaPositions: () => this.controller?.replicaPositions ?? [],
      status: () => ({
        group: settings.group,
        member: this.member.id,
        epoch: this.controller?.leaderEpoch ?? 0,
        inSync: [...(this.controller?.inSync ?? [])],
        syncReplicas: settings.syncReplicas,
      }),
    });
  }

  /**
   * Joins the group, advertising `url`; rejects when etcd cannot be reached. `leadUntil` is told
   * until when its answers as leader may leave (the front door's lease gate).
   */
  async join(url: string, leadUntil?: (ms: number) => void): Promise<void> {
    const ttl = this.settings.leaseTtlSeconds;
    const join = () =>
      EtcdGroup.join({
        endpoints: this.settings.endpoints,
        group: this.settings.group,
        member: { id: this.member.id, url, keyDigest: this.member.keyDigest },
        leaseTtlSeconds: ttl,
      });
    const leaseTtlMs = ttl * 1000;
    this.controller = new FailoverController(await join(), this, {
      syncReplicas: this.settings.syncReplicas,
      lagTimeoutMs: clamp(this.settings.syncTimeoutMs / 4, 500, 3_000),
      checkEveryMs: clamp(leaseTtlMs / 10, 100, 1_000),
      leaseTtlMs,
      rejoin: join,
      log: (line) => this.warn(`strand: ${line}`),
      ...(leadUntil === undefined ? {} : { leadUntil }),
    });
    this.warn(`strand: joining group ${this.settings.group} as ${this.member.id} (${url})`);
    await this.controller.start();
  }

  async stop(): Promise<void> {
    const store = this.served.store;
    if (store.role.kind === "leader") {
      store.role = { kind: "fenced", reason: "it is shutting down" };
      await store.drained(Math.min(this.settings.syncTimeoutMs, 5_000));
    }
    await this.controller?.stop();
    await this.served.stop();
  }

  // FailoverNode: what the controller tells this node.

  appliedSeq(): number {
    return this.served.appliedSeq();
  }

  knownEpoch(): number {
    return this.known;
  }

  lagMs(): number {
    return this.served.lagMs();
  }

  tenantFeedVersion(): number | null {
    return this.served.tenantFeedVersion();
  }

  async lead(epoch: number): Promise<void> {
    this.enter(epoch);
    const controller = this.controller;
    const timeoutMs = this.settings.syncTimeoutMs;
    await this.served.lead(
      epoch,
      (seq) => (controller === null ? Promise.resolve("fenced") : controller.waitAcked(seq, timeoutMs)),
      (version) => (controller === null ? Promise.resolve("fenced") : controller.waitTenantsAcked(version, timeoutMs)),
    );
  }

  async follow(url: string, epoch: number): Promise<void> {
    this.enter(epoch);
    await this.served.follow({ url, key: this.key, memberKey: this.member.key }, { member: this.member.id, epoch });
  }

  fence(reason: string): void {
    this.served.fence(reason);
  }

  /** Keeps `epoch` as known before the node acts in it. */
  private enter(epoch: number): void {
    if (epoch <= this.known) return;
    writeKnownEpoch(this.dataDir, epoch);
    this.known = epoch;
  }
}

function clamp(value: number, min: number, max: number): number {
  return Math.round(Math.min(max, Math.max(min, value)));
}
