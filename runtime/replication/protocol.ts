// What a leader and its followers say to each other over HTTP (served by server/replication/,
// spoken by follower.ts and seed.ts), in one place.
//
//   GET /replication/status  → ReplicationStatus (JSON)
//   GET /replication/log?after=N[&time=T][&wait=MS][&member=ID][&follower=ID]
//        → 200 application/octet-stream: the entries N+1, N+2, .. as frames (a 4-byte big-endian
//          length, then the entry's bytes as the leader's LMDB holds them); header
//          `strand-log-first: N+1`, `strand-commit: <leader's sequence>`, `strand-schema: <fingerprint>`,
//          `strand-epoch: <the epoch the node leads in; 0 without etcd>` (a follower told to follow
//          epoch E refuses answers of a lower one: they come from a deposed leader).
//          `member` (a failover group's replica) says the replica with that id holds N on disk:
//          its acknowledgement for synchronous replication (server/cluster/in-sync.ts).
//          `follower` names a follower (random, per process): a leader whose log is on demand
//          (runtime/commit-log/log-readers.ts) keeps the entries after N while that follower asks.
//          No entry after N: waits up to `wait` ms for one, then answers with none.
//        → 410 LOG_GONE: entry N+1 is no longer kept, or the follower's entry N is not the
//          leader's (its commit time T differs, or N is past the leader): start again from a backup.
//   GET /replication/backup → the store's online backup (server/http/backup-route.ts): the body is
//        data.mdb, header x-strand-backup-manifest its manifest; its log's newest entry is the
//        sequence the copy is consistent at.
//   GET /replication/tenants?since=V[&feed=ID][&wait=MS] → TenantFeedAnswer (JSON): the tenants
//        changed since version V of feed ID, each with its newest sequence (server/tenants/tenant-feed.ts);
//        the whole list when ID is not the node's feed (it restarted) or absent. Nothing changed:
//        waits up to `wait` ms for a change. Each tenant's own log and backup are the two routes
//        above under its prefix: /t/<tenant>/replication/log, /t/<tenant>/replication/backup.
// Every one needs the replication key (`x-replication-key`) or the api key (`x-api-key`).

export const STATUS_PATH = "/replication/status";
export const LOG_PATH = "/replication/log";
export const SEED_PATH = "/replication/backup";
export const TENANTS_FEED_PATH = "/replication/tenants";
export const REPLICATION_PATHS: readonly string[] = [STATUS_PATH, LOG_PATH, SEED_PATH, TENANTS_FEED_PATH];

export const REPLICATION_KEY_HEADER = "x-replication-key";
/** A failover group's member proves itself with its own key on its log requests (server/node/member-identity.ts). */
export const MEMBER_KEY_HEADER = "x-strand-member-key";
export const LOG_FIRST_HEADER = "strand-log-first";
export const COMMIT_HEADER = "strand-commit";
export const AFTER_HEADER = "strand-after";
export const SCHEMA_HEADER = "strand-schema";
export const EPOCH_HEADER = "strand-epoch";
export const BACKUP_MANIFEST_HEADER = "x-strand-backup-manifest";

/** The longest a log request waits for a new entry (ms). */
export const MAX_LOG_WAIT_MS = 25_000;
/** Entries and bytes one log answer carries at most (a single larger entry still goes whole). */
export const LOG_BATCH_ENTRIES = 1_000;
export const LOG_BATCH_BYTES = 4 * 1024 * 1024;

/** What must be equal on a leader and its replicas for the replicas' stores to mean the same. */
export interface StoreIdentity {
  /** The store's on-disk format (runtime/store/keys.ts FORMAT_VERSION). */
  format: number;
  /** The project's `schema::N` (null: an unversioned schema). */
  schemaVersion: number | null;
  /** SHA-256 (first 16 hex digits) of the schema descriptor and the store settings (BM25, vectors). */
  fingerprint: string;
  /** The Strand version that serves it. */
  strand: string;
}

export interface ReplicationStatus {
  /** Without etcd, "leader" or "replica"; in a failover group also "starting" (no role yet) or "fenced". */
  role: "leader" | "replica" | "starting" | "fenced";
  /** The sequence number this node has committed (a leader) or applied (a replica). */
  seq: number;
  /** The oldest log entry kept (null: none). */
  oldest: number | null;
  identity: StoreIdentity;
  /** A replica's leader and how far behind it is; null on a leader. */
  following: { leader: string; leaderSeq: number; lagMs: number; state: string } | null;
  /** In a failover group (strand serve --etcd): the group, this member and the epoch it knows. */
  cluster?: ClusterStatus;
  /** true when the node requires an api key of its clients: its replicas must too (absent: it does not). */
  keyed?: true;
}

export interface ClusterStatus {
  group: string;
  member: string;
  /** The epoch this node leads or follows in (0: none yet). */
  epoch: number;
  /** A leader with synchronous replicas: the in-sync set it acknowledges through. */
  inSync: string[];
  syncReplicas: number;
}

/** Where a store's log stands: its newest sequence and that entry's commit time (null: none kept). */
export interface LogPosition {
  seq: number;
  time: number | null;
}

export interface TenantChange {
  name: string;
  /** The tenant's log position; null when the leader does not know it without opening the tenant. */
  at: LogPosition | null;
}

export interface TenantFeedAnswer {
  /** The feed's id (one per leader process): another one than a replica saw means a full listing. */
  feed: string;
  version: number;
  /** true: `tenants` lists every tenant, and a tenant a replica holds that is not listed was dropped. */
  full: boolean;
  tenants: TenantChange[];
  /** Tenants dropped since the version asked from (empty on a full listing). */
  dropped: string[];
}

/** One line naming a store identity, for messages: "schema::3 (fingerprint 1a2b…, Strand 0.1.0)". */
export function describeIdentity(identity: StoreIdentity): string {
  const version = identity.schemaVersion === null ? "an unversioned schema" : `schema::${identity.schemaVersion}`;
  return `${version} (schema fingerprint ${identity.fingerprint}, store format ${identity.format}, Strand ${identity.strand})`;
}

/** Frames of a log answer: each entry as a 4-byte big-endian length and its bytes. */
export function encodeFrames(frames: readonly Uint8Array[]): Buffer {
  const total = frames.reduce((n, f) => n + 4 + f.length, 0);
  const out = Buffer.allocUnsafe(total);
  let at = 0;
  for (const f of frames) {
    out.writeUInt32BE(f.length, at);
    out.set(f, at + 4);
    at += 4 + f.length;
  }
  return out;
}

export function decodeFrames(body: Uint8Array): Uint8Array[] {
  const view = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const frames: Uint8Array[] = [];
  let at = 0;
  while (at < view.length) {
    if (at + 4 > view.length) throw new Error("a log answer ends inside a frame header");
    const length = view.readUInt32BE(at);
    if (at + 4 + length > view.length) throw new Error("a log answer ends inside a frame");
    frames.push(view.subarray(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return frames;
}
