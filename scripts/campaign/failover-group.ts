// The failover campaign's group: three `strand serve --etcd` nodes on the campaign project, each
// on its own data dir, that the faults kill, pause and start again. A poller reads every running
// node's /replication/status ten times a second; the writers send to the leader it last saw.
import { join } from "node:path";
import { serve, sleep, type ServeChild } from "./strand-child.js";

export const REPLICATION_KEY = "failover-campaign-key";

export interface GroupSettings {
  endpoints: readonly string[];
  group: string;
  syncReplicas: 0 | 1;
  leaseTtlS: number;
  syncTimeoutMs: number;
  /** Where the nodes' data dirs go (`<root>/n0` …). */
  root: string;
}

/** What a node's /replication/status says (the fields the campaign reads). */
export interface NodeStatus {
  role: string;
  seq: number;
  following: { leader: string; state: string } | null;
  cluster: { member: string; epoch: number; inSync: string[] };
}

export interface GroupNode {
  readonly name: string;
  readonly dataDir: string;
  server: ServeChild | null;
  paused: boolean;
  /** Its last status (null: not running, paused, or no answer at the last poll). */
  status: NodeStatus | null;
  /** "strand: re-seeded from" lines over all its processes. */
  reseeds: number;
  /** "strand: re-seeded the tenant" lines over all its processes. */
  tenantReseeds: number;
}

export class FailoverGroup {
  readonly nodes: GroupNode[];
  /** Every URL a node served on (a restart takes a new port) → the node's name. */
  private readonly urls = new Map<string, string>();
  private polling = false;
  private poller: Promise<void> | null = null;

  constructor(private readonly settings: GroupSettings) {
    this.nodes = ["n0", "n1", "n2"].map((name) => ({
      name,
      dataDir: join(settings.root, name),
      server: null,
      paused: false,
      status: null,
      reseeds: 0,
      tenantReseeds: 0,
    }));
  }

  /** Starts the nodes one after another (the first leads) and the status poller. */
  async start(): Promise<void> {
    for (const node of this.nodes) await this.startNode(node);
    this.polling = true;
    this.poller = this.poll();
  }

  async startNode(node: GroupNode): Promise<void> {
    const s = this.settings;
    const server = await serve({
      dataDir: node.dataDir,
      extraArgs: [
        "--replication-key",
        REPLICATION_KEY,
        "--etcd",
        s.endpoints.join(","),
        "--group",
        s.group,
        "--sync-replicas",
        String(s.syncReplicas),
        "--lease-ttl",
        String(s.leaseTtlS),
        "--sync-timeout",
        String(s.syncTimeoutMs),
      ],
    });
    let partial = "";
    const count = (chunk: string): void => {
      const lines = (partial + chunk).split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines)
        if (line.includes("strand: re-seeded from")) node.reseeds++;
        else if (line.includes("strand: re-seeded the tenant")) node.tenantReseeds++;
    };
    server.child.stdout!.on("data", count);
    server.child.stderr!.on("data", count);
    node.server = server;
    node.paused = false;
    this.urls.set(server.url, node.name);
  }

  /** The name of the node that served `url` (at any time). */
  nodeOf(url: string): string {
    return this.urls.get(url) ?? url;
  }

  running(): GroupNode[] {
    return this.nodes.filter((n) => n.server?.alive() === true);
  }

  /** The node that reported itself leader at the highest epoch at the last poll. */
  leader(): GroupNode | null {
    let best: GroupNode | null = null;
    for (const node of this.running()) {
      if (node.paused || node.status?.role !== "leader") continue;
      if (best === null || node.status.cluster.epoch > best.status!.cluster.epoch) best = node;
    }
    return best;
  }

  /** The highest epoch any node reported. */
  maxEpoch(): number {
    return Math.max(0, ...this.nodes.map((n) => n.status?.cluster.epoch ?? 0));
  }

  /**
   * One leader, every other node running and following it, all at its epoch; with synchronous
   * replicas, both others in its in-sync set. Null when not so, else the leader.
   */
  stable(): GroupNode | null {
    const leader = this.leader();
    if (leader === null) return null;
    const epoch = leader.status!.cluster.epoch;
    for (const node of this.nodes) {
      if (node === leader) continue;
      const s = node.status;
      if (node.paused || s === null || node.server === null || !node.server.alive()) return null;
      if (s.role !== "replica" || s.cluster.epoch !== epoch) return null;
      if (s.following?.leader !== leader.server!.url || s.following.state !== "following") return null;
    }
    if (this.settings.syncReplicas > 0 && leader.status!.cluster.inSync.length < 2) return null;
    return leader;
  }

  async waitStable(timeoutMs: number): Promise<GroupNode | null> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const leader = this.stable();
      if (leader !== null) return leader;
      if (Date.now() > deadline) return null;
      await sleep(50);
    }
  }

  describe(): string {
    return this.nodes
      .map((n) => {
        const s = n.status;
        const state = n.server === null || !n.server.alive() ? "down" : n.paused ? "paused" : s === null ? "no status" : "";
        // A running node that does not answer: what it last said.
        if (state === "no status") return `${n.name}: no status; its last lines:\n${lastLines(n.server!.output(), 8)}\n`;
        if (state !== "") return `${n.name}: ${state}`;
        return `${n.name}: ${s!.role} epoch ${s!.cluster.epoch} seq ${s!.seq}${s!.following === null ? "" : ` following ${this.nodeOf(s!.following.leader)} (${s!.following.state})`}${s!.role === "leader" ? ` inSync [${s!.cluster.inSync.length}]` : ""}`;
      })
      .join("; ");
  }

  /** SIGTERM to every node; one still running 30 s later is killed. Returns what each such node last printed. */
  /** Each running node's last `count` lines of output. */
  lastLines(count: number): string {
    return this.running()
      .map((n) => `${n.name}:\n${lastLines(n.server!.output(), count)}`)
      .join("\n");
  }

  async stop(): Promise<string[]> {
    this.polling = false;
    await this.poller;
    const hung: string[] = [];
    await Promise.all(
      this.nodes.map(async (node) => {
        const server = node.server;
        if (server === null || !server.alive()) return;
        if (node.paused) server.child.kill("SIGCONT");
        const timer = setTimeout(() => {
          hung.push(`${node.name} did not stop within 30 s of SIGTERM; its last output:\n${server.output().slice(-3000)}`);
          server.child.kill("SIGKILL");
        }, 30_000);
        await server.stop();
        clearTimeout(timer);
      }),
    );
    return hung;
  }

  private async poll(): Promise<void> {
    while (this.polling) {
      await Promise.all(
        this.nodes.map(async (node) => {
          if (node.server === null || !node.server.alive() || node.paused) {
            node.status = null;
            return;
          }
          node.status = await readStatus(node.server.url);
        }),
      );
      await sleep(100);
    }
  }
}

export async function readStatus(url: string): Promise<NodeStatus | null> {
  try {
    const res = await fetch(`${url}/replication/status`, {
      headers: { "x-replication-key": REPLICATION_KEY },
      signal: AbortSignal.timeout(1_000),
    });
    if (res.status !== 200) return null;
    return (await res.json()) as NodeStatus;
  } catch {
    return null;
  }
}

/** What `readItems` read: the item keys, and the answer's Strand-Commit (the graph's sequence there). */
export interface HeldItems {
  keys: string[];
  commit: number;
}

/**
 * The item keys of a graph on a node (`tenant`: that tenant's, else the project's), once the node
 * holds its sequence `after` (Strand-After; null: as it stands); "unknown" when the node has no
 * such tenant (404 UNKNOWN_TENANT, asked without `after`), null when it did not answer 200 within 60 s.
 */
export async function readItems(url: string, tenant: string | undefined, after: number | null): Promise<HeldItems | "unknown" | null> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${url}${tenant === undefined ? "" : `/t/${tenant}`}/AllItems`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-replication-key": REPLICATION_KEY,
          ...(after === null ? {} : { "strand-after": String(after) }),
        },
        body: "{}",
      });
      const commit = Number(res.headers.get("strand-commit") ?? "-1");
      if (res.status === 200) return { keys: ((await res.json()) as { items: { key: string }[] }).items.map((i) => i.key), commit };
      const body = (await res.json().catch(() => ({}))) as { code?: unknown };
      if (res.status === 404 && body.code === "UNKNOWN_TENANT" && after === null) return "unknown";
    } catch {
      // a node still starting: ask again
    }
    await sleep(200);
  }
  return null;
}

function lastLines(text: string, count: number): string {
  return text.trimEnd().split("\n").slice(-count).join("\n");
}
