// Before a replica's store opens: its leader's identity must match this project's (the open would
// migrate the store to this project: another schema than the leader's must not touch it), and an
// empty data directory is seeded from the leader's backup. A failover group's node asks etcd who
// leads first; with no leader, it starts on what it has. Every refusal is said, one line each.
import { leaderFetch, type LeaderAccess } from "../../runtime/replication/leader-fetch.js";
import { identityMismatch } from "../../runtime/replication/identity.js";
import { STATUS_PATH, type ReplicationStatus, type StoreIdentity } from "../../runtime/replication/protocol.js";
import { downloadSeed, installSeed, needsSeed } from "../../runtime/replication/seed.js";
import { EtcdGroup } from "../cluster/etcd-group.js";

/** What the node about to open knows of itself: the project's identity and whether it has an api key. */
export interface ReplicaSelf {
  readonly identity: StoreIdentity;
  readonly keyed: boolean;
}

/** false: the node must not start (it said why). */
export async function seedFromLeader(
  leader: LeaderAccess,
  dataDir: string,
  self: ReplicaSelf,
  say: (line: string) => void,
): Promise<boolean> {
  const seeding = needsSeed(dataDir);
  let leaderIdentity: StoreIdentity;
  try {
    const res = await leaderFetch(leader, STATUS_PATH, 10_000);
    if (!res.ok) throw new Error(`${res.status} ${await res.text()}`);
    const status = (await res.json()) as ReplicationStatus;
    leaderIdentity = status.identity;
    // The leader guards its data with an api key: a replica without one would serve it to anyone.
    if (status.keyed === true && !self.keyed) {
      say(
        `strand: cannot follow ${leader.url}: it requires an api key of its clients, and this replica has none, so it would serve the same data to anyone; start it with --api-key-file FILE (or STRAND_API_KEY)`,
      );
      return false;
    }
  } catch (error) {
    // A leader out of reach stops only a replica with nothing to serve; the follower keeps trying.
    if (!seeding) return true;
    say(`strand: cannot seed from the leader ${leader.url}: ${(error as Error).message}`);
    return false;
  }
  const mismatch = identityMismatch(self.identity, leaderIdentity);
  if (mismatch !== null) {
    say(`strand: cannot follow ${leader.url}: ${mismatch}`);
    return false;
  }
  if (!seeding) return true;
  try {
    say(`strand: seeding ${dataDir} from the backup of ${leader.url}`);
    // An empty directory: nothing is replaced, so the history's name is never used.
    installSeed(await downloadSeed(leader, dataDir), dataDir, "none");
    return true;
  } catch (error) {
    say(`strand: cannot seed from the leader ${leader.url}: ${(error as Error).message}`);
    return false;
  }
}

/** A failover group's node: seeded from (and checked against) the group's leader, if there is one. */
export async function seedFromGroupLeader(
  group: { endpoints: readonly string[]; group: string },
  key: string | undefined,
  dataDir: string,
  self: ReplicaSelf,
  say: (line: string) => void,
): Promise<boolean> {
  let leader: string | null;
  try {
    leader = (await EtcdGroup.peek(group.endpoints, group.group)).leader?.url ?? null;
  } catch (error) {
    say(`strand: cannot reach etcd at ${group.endpoints.join(",")}: ${(error as Error).message}`);
    return false;
  }
  if (leader === null) {
    if (needsSeed(dataDir)) say(`strand: group ${group.group} has no leader: starting with an empty store`);
    return true;
  }
  return seedFromLeader({ url: leader, key }, dataDir, self, say);
}
