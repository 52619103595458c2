// `strand status`: a failover group as etcd holds it (--etcd … --group …: leader, epoch, in-sync
// set, each member's sequence and lag), or one node as it sees itself (--url: its
// /replication/status). Exit 1 when etcd or the node cannot be asked, or etcd holds no such group.
import { EtcdGroup, type GroupView } from "../../server/cluster/etcd-group.js";
import { leaderFetch } from "../../runtime/replication/leader-fetch.js";
import { STATUS_PATH, type ReplicationStatus } from "../../runtime/replication/protocol.js";

export type StatusOptions =
  | { target: "group"; endpoints: string[]; group: string }
  | { target: "node"; url: string; key: string | undefined };

export async function runStatus(options: StatusOptions): Promise<number> {
  if (options.target === "group") {
    let view: GroupView;
    try {
      view = await EtcdGroup.peek(options.endpoints, options.group);
    } catch (error) {
      process.stderr.write(
        `strand: cannot read group ${options.group} from etcd at ${options.endpoints.join(",")}: ${(error as Error).message}\n`,
      );
      return 1;
    }
    // Epoch 0, no keys at all: no node ever joined it (a misspelt --group, most likely), which a
    // script checking the exit code must not take for a group that is merely leaderless.
    if (view.epoch === 0 && view.leader === null && view.inSync === null && view.members.length === 0) {
      process.stderr.write(
        `strand: etcd at ${options.endpoints.join(",")} holds no group ${options.group}: no node has ever joined it (check --group)\n`,
      );
      return 1;
    }
    process.stdout.write(formatGroup(options.group, view));
    return 0;
  }
  let status: ReplicationStatus;
  try {
    const res = await leaderFetch({ url: options.url, key: options.key }, STATUS_PATH, 10_000);
    if (!res.ok) throw new Error(`${res.status} ${await res.text()}`);
    status = (await res.json()) as ReplicationStatus;
  } catch (error) {
    process.stderr.write(`strand: cannot read the status of ${options.url}: ${(error as Error).message}\n`);
    return 1;
  }
  process.stdout.write(formatNode(options.url, status));
  return 0;
}

/** The group: one line for the leader and the epoch, then a table of the members. */
export function formatGroup(group: string, view: GroupView): string {
  const leader = view.leader;
  const inSync = new Set(view.inSync?.ids ?? []);
  const lines = [
    leader === null
      ? `group ${group}: epoch ${view.epoch}, no leader (an election is due: the leader's lease expired, or no in-sync replica is up)`
      : `group ${group}: epoch ${view.epoch}, leader ${leader.id} at ${leader.url}`,
    `in sync: ${view.inSync === null ? "-" : view.inSync.ids.length === 0 ? "none" : view.inSync.ids.join(", ")}`,
  ];
  if (view.members.length === 0) return `${lines.join("\n")}\nmembers: none\n`;
  const leaderSeq = view.members.find((m) => m.id === leader?.id)?.applied ?? null;
  const rows = view.members.map((m) => [
    m.id,
    m.role,
    m.url,
    String(m.applied),
    m.role === "leader" || leaderSeq === null ? "-" : String(Math.max(0, leaderSeq - m.applied)),
    m.role === "leader" ? "-" : String(m.lagMs ?? 0),
    m.role === "leader" ? "-" : inSync.has(m.id) ? "yes" : "no",
  ]);
  return `${lines.join("\n")}\n${table(["member", "role", "url", "seq", "lag seqs", "lag ms", "in sync"], rows)}`;
}

/** One node: its role, sequence, and whom it follows (with the lag) or, leading, its in-sync set. */
export function formatNode(url: string, status: ReplicationStatus): string {
  const cluster = status.cluster;
  const where = cluster === undefined ? "" : ` (group ${cluster.group}, member ${cluster.member}, epoch ${cluster.epoch})`;
  const lines = [`node ${url}: ${status.role} at seq ${status.seq}${where}`];
  const following = status.following;
  if (following !== null)
    lines.push(
      `following ${following.leader} (${following.state}): the leader is at seq ${following.leaderSeq}, lag ${Math.max(0, following.leaderSeq - status.seq)} seqs, ${following.lagMs} ms`,
    );
  if (cluster !== undefined && status.role === "leader")
    lines.push(`sync replicas: ${cluster.syncReplicas}; in sync: ${cluster.inSync.length === 0 ? "none" : cluster.inSync.join(", ")}`);
  return `${lines.join("\n")}\n`;
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]): string =>
    cells
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join("  ")
      .trimEnd();
  return `${[header, ...rows].map(line).join("\n")}\n`;
}
