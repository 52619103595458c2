// What the HTTP layer needs of this node's replication: its commit log (the current store's: a
// replica's re-seed replaces it), its backup, its identity and, on a replica, whom it follows.
import type { BackupOutcome } from "../../runtime/backup/backup.js";
import type { CommitLog } from "../../runtime/commit-log/commit-log.js";
import type { ClusterStatus, ReplicationStatus, StoreIdentity, TenantFeedAnswer } from "../../runtime/replication/protocol.js";

/** `askedBy` and `seeded`: where the log is on demand (runtime/commit-log/log-readers.ts). */
export type LogView = Pick<CommitLog, "committed" | "oldest" | "timeOf" | "waitFor" | "read"> &
  Partial<Pick<CommitLog, "askedBy" | "seeded">>;

export interface ReplicationNode {
  /** The commit log of the store served now. */
  log(): LogView;
  backup(out: string): Promise<BackupOutcome>;
  identity: StoreIdentity;
  /** The replica's leader and lag; null on a leader. */
  following(): ReplicationStatus["following"];
  /** Accepted in `x-replication-key` by the log endpoints (besides the api key); undefined: none. */
  key: string | undefined;
  /** How long a request with `Strand-After` waits for that sequence (ms). */
  afterTimeoutMs: number;
  /** In a failover group (server/cluster/): its role, epoch and in-sync set; absent without etcd. */
  cluster?: ClusterView | undefined;
  /** The node's tenants as its replicas follow them (server/tenants/tenant-feed.ts); absent: it serves none. */
  tenants?: TenantFeedView | undefined;
}

export interface TenantFeedView {
  /** The feed's id (one per process): a poll naming it and a version claims the replica holds that version. */
  readonly id: string;
  /** The changes after version `since` of feed `feed` (the whole list when the feed is another). */
  answer(feed: string | undefined, since: number): TenantFeedAnswer;
  /** The feed's version now. */
  version(): number;
  /** Resolves once the feed's version passes `since` (true) or after `ms` (false). */
  waitPast(since: number, ms: number): Promise<boolean>;
}

export interface ClusterView {
  role(): ReplicationStatus["role"];
  status(): ClusterStatus;
  /** The epoch this node leads in (carried by every log answer); 0 when it does not lead. */
  leaderEpoch(): number;
  /** A replica's log request says it holds `seq` on disk (its acknowledgement), proving it is `member` with its own key. */
  replicaApplied(member: string, seq: number, memberKey: string | undefined): void;
  /** This node answered that member's log request with its entries up to `seq`. */
  logSent(member: string, seq: number, memberKey: string | undefined): void;
  /** A replica's poll of the tenant feed says it holds every tenant change up to `version` (as replicaApplied). */
  tenantsApplied?(member: string, version: number, memberKey: string | undefined): void;
  /** This node answered that member's poll of the tenant feed at `version`. */
  tenantsSent?(member: string, version: number, memberKey: string | undefined): void;
  /** Leading with synchronous replicas: what each replica has proven it holds (for /metrics); empty otherwise. */
  replicaPositions?(): readonly ReplicaPosition[];
}

export interface ReplicaPosition {
  member: string;
  applied: number;
  /** The leader's tenant feed version it has proven it holds (-1 or absent: none). */
  tenants?: number;
}

export const DEFAULT_AFTER_TIMEOUT_MS = 5_000;
