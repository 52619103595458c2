// Real etcd for the failover tests and the failover campaign: a cluster of local `etcd` processes
// (Debian's etcd-server, which .ci/run installs) on free loopback ports, each with its own temp
// data dir, stopped by pid. A member can be killed and started again on its data (the campaign's
// etcd faults). `ETCD_BINARY` is null when no etcd is installed; tests then fail saying so.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../bench/etcd.js";

export const ETCD_BINARY: string | null =
  [process.env.STRAND_ETCD_BINARY, "/usr/bin/etcd", "/usr/local/bin/etcd"].find(
    (p): p is string => p !== undefined && p !== "" && existsSync(p),
  ) ?? null;

export interface EtcdCluster {
  /** The client URLs, one per member. */
  readonly endpoints: string[];
  /** SIGKILL one member (by index) and wait for it to exit. */
  killMember(index: number): Promise<void>;
  /** Starts a killed member again on its data dir (it rejoins the cluster); resolves once it answers /health. */
  restartMember(index: number): Promise<void>;
  stop(): Promise<void>;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => child.once("exit", () => done()));
}

/** Starts `size` etcd members forming one cluster and resolves once every member answers /health. */
export async function startEtcdCluster(size = 3): Promise<EtcdCluster> {
  if (ETCD_BINARY === null)
    throw new Error(
      "no etcd binary: install Debian's etcd-server (or set STRAND_ETCD_BINARY); .ci/run installs it, and CI must run this test",
    );
  // A port found free can be taken by another test's server before etcd binds it (a CI run failed
  // so): the cluster is then started again on other ports.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnFreePorts(ETCD_BINARY, size);
    } catch (error) {
      if (attempt === 3 || (error as { portTaken?: boolean }).portTaken !== true) throw error;
    }
  }
}

async function startOnFreePorts(binary: string, size: number): Promise<EtcdCluster> {
  const dir = mkdtempSync(join(tmpdir(), "strand-etcd-"));
  const members: { name: string; client: number; peer: number }[] = [];
  for (let i = 0; i < size; i++) members.push({ name: `m${i}`, client: await freePort(), peer: await freePort() });
  const initialCluster = members.map((m) => `${m.name}=http://127.0.0.1:${m.peer}`).join(",");
  const logs: string[] = members.map(() => "");
  const spawnMember = (i: number): ChildProcess => {
    const m = members[i]!;
    const child = spawn(
      binary,
      [
        "--name",
        m.name,
        "--data-dir",
        join(dir, m.name),
        "--listen-client-urls",
        `http://127.0.0.1:${m.client}`,
        "--advertise-client-urls",
        `http://127.0.0.1:${m.client}`,
        "--listen-peer-urls",
        `http://127.0.0.1:${m.peer}`,
        "--initial-advertise-peer-urls",
        `http://127.0.0.1:${m.peer}`,
        // ignored by a member whose data dir already holds the cluster (a restart)
        "--initial-cluster",
        initialCluster,
        "--initial-cluster-state",
        "new",
        "--initial-cluster-token",
        `strand-test-${process.pid}`,
        // short timeouts: a test cluster on one machine elects within a second
        "--heartbeat-interval",
        "50",
        "--election-timeout",
        "500",
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    const keep = (d: string): void => {
      logs[i] = (logs[i]! + d).slice(-20_000);
    };
    child.stdout!.setEncoding("utf8").on("data", keep);
    child.stderr!.setEncoding("utf8").on("data", keep);
    return child;
  };
  const children = members.map((_, i) => spawnMember(i));
  const endpoints = members.map((m) => `http://127.0.0.1:${m.client}`);
  const stop = async (): Promise<void> => {
    for (const child of children) child.kill("SIGKILL");
    await Promise.all(children.map(exited));
    rmSync(dir, { recursive: true, force: true });
  };
  let exitedEarly = false;
  for (const child of children) child.once("exit", () => (exitedEarly = true));
  const deadline = Date.now() + 30_000;
  for (const endpoint of endpoints) {
    for (;;) {
      if (await healthy(endpoint)) break;
      // A member that exited (a port taken, say) will not come up: no need to wait out the deadline.
      if (exitedEarly || Date.now() > deadline) {
        await stop();
        const portTaken = logs.some((log) => log.includes("address already in use"));
        throw Object.assign(new Error(`etcd cluster did not become healthy:\n${logs.join("\n---\n").slice(-4000)}`), { portTaken });
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    endpoints,
    async killMember(index: number) {
      children[index]!.kill("SIGKILL");
      await exited(children[index]!);
    },
    async restartMember(index: number) {
      const child = spawnMember(index);
      children[index] = child;
      const until = Date.now() + 30_000;
      // A lone restarted member answers /health false until it reaches a quorum: wait for its port only.
      while (!(await answers(endpoints[index]!))) {
        if (child.exitCode !== null || child.signalCode !== null || Date.now() > until)
          throw new Error(`etcd member ${index} did not start again:\n${logs[index]!.slice(-4000)}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    stop,
  };
}

async function healthy(endpoint: string): Promise<boolean> {
  try {
    const res = await fetch(`${endpoint}/health`);
    return res.ok && ((await res.json()) as { health?: string }).health === "true";
  } catch {
    return false; // not up yet
  }
}

/** Whether the member's client port answers at all (its /health says false without a quorum). */
async function answers(endpoint: string): Promise<boolean> {
  try {
    await (await fetch(`${endpoint}/health`)).text();
    return true;
  } catch {
    return false;
  }
}
