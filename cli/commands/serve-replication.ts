// `strand serve` as a leader (every server: its commit log and the /replication endpoints) or, with
// --follow, as a read replica: an empty --data is seeded from the leader's backup before the store
// opens, then a Follower applies the leader's log; writes answer 421 NOT_LEADER; when the leader
// no longer keeps the entries the replica needs, it re-seeds (download while serving, then swap).
import type { ProjectConfig } from "../config/project-config.js";
import type { GraphStore } from "../../runtime/graph-store.js";
import type { LogRetention } from "../../runtime/commit-log/commit-log.js";
import { Follower } from "../../runtime/replication/follower.js";
import { identityMismatch, storeIdentity } from "../../runtime/replication/identity.js";
import { leaderFetch, type LeaderAccess } from "../../runtime/replication/leader-fetch.js";
import { STATUS_PATH, type ReplicationStatus, type StoreIdentity } from "../../runtime/replication/protocol.js";
import { downloadSeed, installSeed, keptNote, needsSeed } from "../../runtime/replication/seed.js";
import { DEFAULT_AFTER_TIMEOUT_MS, type ReplicationNode } from "../../server/replication/node.js";
import { ReplicaStore } from "../../server/replication/replica-store.js";
import type { StoreAccess } from "../../server/http/store-access.js";
import type { BackupSource } from "../../server/http/backup-route.js";
import type { OpenedProject, OpenHooks } from "../project/open-project.js";
import { strandVersion } from "../project/version.js";

export interface ReplicationFlags {
  /** --follow: the leader's URL (normalised by args.ts); undefined: this server leads. */
  follow: string | undefined;
  /** --replication-key: a leader accepts it from replicas; a replica sends it. */
  key: string | undefined;
  logRetentionEntries: number | undefined;
  logRetentionBytes: number | undefined;
  afterTimeoutMs: number | undefined;
}

type Project = OpenedProject["project"];

export function identityOf(config: ProjectConfig, project: Project): StoreIdentity {
  return storeIdentity(project.schema, config, strandVersion());
}

/** The retention: flags over strand.toml [replication] over the defaults. */
export function retentionOf(flags: ReplicationFlags | undefined, config: ProjectConfig | null): Partial<LogRetention> {
  const entries = flags?.logRetentionEntries ?? config?.replication?.logRetentionEntries;
  const bytes = flags?.logRetentionBytes ?? config?.replication?.logRetentionBytes;
  return { ...(entries === undefined ? {} : { entries }), ...(bytes === undefined ? {} : { bytes }) };
}

/** How long a request with Strand-After waits: the flag over strand.toml over the default. */
export function afterTimeoutOf(flags: ReplicationFlags | undefined, config: ProjectConfig): number {
  return flags?.afterTimeoutMs ?? config.replication?.afterTimeoutMs ?? DEFAULT_AFTER_TIMEOUT_MS;
}

/** The open's hooks: a replica checks its leader's identity and seeds an empty store first. */
export function replicationHooks(flags: ReplicationFlags | undefined, dataDir: string, say: (line: string) => void): OpenHooks {
  const follow = flags?.follow;
  if (follow === undefined) return {};
  const leader: LeaderAccess = { url: follow, key: flags?.key };
  return {
    beforeStoreOpen: async (config, project) => {
      const identity = identityOf(config, project);
      const seeding = needsSeed(dataDir);
      // Before the open, which would migrate the store to this project: another schema than the
      // leader's must not touch it. A leader out of reach stops only a replica with nothing to serve.
      let leaderIdentity: StoreIdentity;
      try {
        const res = await leaderFetch(leader, STATUS_PATH, 10_000);
        if (!res.ok) throw new Error(`${res.status} ${await res.text()}`);
        leaderIdentity = ((await res.json()) as ReplicationStatus).identity;
      } catch (error) {
        if (!seeding) return true; // it serves what it has; the follower keeps trying
        say(`strand: cannot seed from the leader ${follow}: ${(error as Error).message}`);
        return false;
      }
      const mismatch = identityMismatch(identity, leaderIdentity);
      if (mismatch !== null) {
        say(`strand: cannot follow ${follow}: ${mismatch}`);
        return false;
      }
      if (!seeding) return true;
      try {
        say(`strand: seeding ${dataDir} from the backup of ${follow}`);
        installSeed(await downloadSeed(leader, dataDir), dataDir);
        return true;
      } catch (error) {
        say(`strand: cannot seed from the leader ${follow}: ${(error as Error).message}`);
        return false;
      }
    },
  };
}

export interface ServedNode {
  /** What the app serves queries from. */
  store: StoreAccess & BackupSource;
  node: ReplicationNode;
  start(): void;
  /** Stops following (a replica); the caller then closes the server and `current()`. */
  stop(): Promise<void>;
  /** The store open now (a re-seed replaces it). */
  current(): GraphStore;
}

export function servedNode(
  opened: OpenedProject,
  dataDir: string,
  flags: ReplicationFlags | undefined,
  events: { warn: (line: string) => void; fatal: (line: string) => void },
): ServedNode {
  const identity = identityOf(opened.config, opened.project);
  const afterTimeoutMs = afterTimeoutOf(flags, opened.config);
  const follow = flags?.follow;
  if (follow === undefined) {
    const store = opened.store;
    const node: ReplicationNode = {
      log: () => store.log,
      backup: (out) => store.backup(out),
      identity,
      following: () => null,
      key: flags?.key,
      afterTimeoutMs,
    };
    return { store, node, start: () => {}, stop: async () => {}, current: () => store };
  }
  const replica = new ReplicaStore(opened.store, follow);
  // The newest store opened: its log answers while a re-seed has none open.
  let latest = opened.store;
  const leader: LeaderAccess = { url: follow, key: flags?.key };
  const follower = new Follower({
    leader,
    identity,
    target: () => latest,
    reseed: async () => {
      const seed = await downloadSeed(leader, dataDir); // while the old store still serves
      replica.current = null;
      let kept: string | null;
      try {
        await latest.close();
        kept = installSeed(seed, dataDir);
        latest = opened.reopenStore();
      } catch (error) {
        // No store to serve any more: stop the server rather than answer 503 for ever.
        events.fatal(`strand: re-seeding from ${follow} failed: ${(error as Error).message}`);
        throw error;
      }
      replica.current = latest;
      events.warn(`strand: re-seeded from ${follow} at sequence ${latest.log.committed}${keptNote(kept)}`);
    },
    fatal: (message) => events.fatal(`strand: stopped following ${follow}: ${message}`),
    warn: (message) => events.warn(`strand: ${message}`),
  });
  const node: ReplicationNode = {
    log: () => latest.log,
    backup: (out) => replica.backup(out),
    identity,
    following: () => follower.status(),
    key: flags?.key,
    afterTimeoutMs,
  };
  return { store: replica, node, start: () => follower.start(), stop: () => follower.stop(), current: () => latest };
}
