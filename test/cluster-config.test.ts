// The failover settings of `strand serve` (issue 15 item 4): --etcd, --group, --advertise,
// --sync-replicas, --lease-ttl and --sync-timeout, their STRAND_* variables, strand.toml [cluster],
// which wins, and the combinations refused with a message naming the flags.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseCommand } from "../cli/commands/args.js";
import type { ClusterSettings } from "../cli/config/cluster-settings.js";
import { resolveSettings } from "../cli/config/settings.js";
import { DEFAULT_CONFIG, loadProjectConfig, type ProjectConfig } from "../cli/config/load-config.js";
import { CLI, SOCIAL_EXAMPLE } from "./support/server.js";

type Serve = Extract<ReturnType<typeof parseCommand>, { kind: "serve" }>;
const serve = (args: string[], env: NodeJS.ProcessEnv = {}): Serve => parseCommand(["serve", ...args], env) as Serve;

/** The failover settings serve resolves from these flags and this file (with a replication key, which a group needs). */
function clusterOf(args: string[], config: ProjectConfig, follow?: string, host = "127.0.0.1"): ClusterSettings | null | { error: string } {
  const flags = serve([...args, "--replication-key", "k", "--host", host]).flags;
  if (follow !== undefined) flags.replication.follow = follow;
  const resolved = resolveSettings(flags, config, true);
  return "error" in resolved ? resolved : resolved.cluster;
}

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function projectWith(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), "strand-cluster-config-"));
  made.push(dir);
  writeFileSync(join(dir, "strand.toml"), text);
  return dir;
}

function toml(text: string): ProjectConfig {
  const dir = projectWith(text);
  const result = loadProjectConfig(dir, (f) => f.replace(dir, "<dir>"));
  if (!result.ok) throw new Error(result.errors.join("\n"));
  return result.config;
}

function tomlErrors(text: string): string[] {
  const dir = projectWith(text);
  const result = loadProjectConfig(dir, (f) => f.replace(dir, "<dir>"));
  return result.ok ? [] : result.errors;
}

describe("serve's failover flags", () => {
  it("parse, normalised, from flags or their environment variables", () => {
    expect(
      serve([
        "--etcd",
        "http://127.0.0.1:2379/, http://10.0.0.2:2379",
        "--group",
        "prod",
        "--advertise",
        "http://node-1:6969/",
        "--sync-replicas",
        "1",
      ]).flags.cluster,
    ).toEqual({
      etcd: ["http://127.0.0.1:2379", "http://10.0.0.2:2379"],
      group: "prod",
      advertise: "http://node-1:6969",
      syncReplicas: 1,
      leaseTtlSeconds: undefined,
      syncTimeoutMs: undefined,
    });
    expect(
      serve([], {
        STRAND_ETCD: "http://e:2379",
        STRAND_GROUP: "g",
        STRAND_SYNC_REPLICAS: "2",
        STRAND_LEASE_TTL: "5",
        STRAND_SYNC_TIMEOUT: "3000",
      }).flags.cluster,
    ).toEqual({ etcd: ["http://e:2379"], group: "g", advertise: undefined, syncReplicas: 2, leaseTtlSeconds: 5, syncTimeoutMs: 3000 });
  });

  it("refuse bad values and --follow with --etcd", () => {
    const refused = (args: string[]): string => {
      try {
        serve(args);
      } catch (error) {
        return (error as Error).message;
      }
      return "accepted";
    };
    expect(refused(["--etcd", "etcd:2379"])).toBe(
      '--etcd takes etcd endpoints as comma-separated http(s) URLs (http://10.0.0.1:2379,…), got "etcd:2379"',
    );
    expect(refused(["--etcd", "http://e:2379", "--follow", "http://leader:6969"])).toBe(
      "--follow and --etcd exclude each other: with etcd the group decides whom a node follows",
    );
    expect(refused(["--group", "a/b"])).toBe(`--group: expected a group name of 1 to 64 letters, digits, '.', '_' or '-', got "a/b"`);
    expect(refused(["--advertise", "node-1:6969"])).toBe(
      '--advertise must be the http(s) URL other nodes reach this one at, got "node-1:6969"',
    );
    expect(refused(["--sync-replicas", "17"])).toBe('--sync-replicas must be an integer from 0 to 16, got "17"');
    expect(refused(["--lease-ttl", "1"])).toBe('--lease-ttl must be an integer from 2 to 300, got "1"');
  });
});

describe("strand.toml [cluster]", () => {
  it("reads every key, checked like the others", () => {
    expect(
      toml(
        '[cluster]\netcd = "http://e1:2379,http://e2:2379"\ngroup = "prod"\nsync_replicas = 1\nlease_ttl_seconds = 5\nsync_timeout_ms = 2000\n',
      ).given?.cluster,
    ).toEqual({ etcd: ["http://e1:2379", "http://e2:2379"], group: "prod", syncReplicas: 1, leaseTtlSeconds: 5, syncTimeoutMs: 2000 });
    expect(tomlErrors('[cluster]\netcd = "e1"\ngroup = "a b"\nsync_replicas = -1\nleader = "x"\n')).toEqual([
      '<dir>/strand.toml: cluster.etcd: expected etcd endpoints as comma-separated http(s) URLs (http://10.0.0.1:2379,http://10.0.0.2:2379), got "e1"',
      `<dir>/strand.toml: cluster.group: expected a group name of 1 to 64 letters, digits, '.', '_' or '-', got "a b"`,
      "<dir>/strand.toml: cluster.sync_replicas: expected an integer from 0 to 16, got -1",
      "<dir>/strand.toml: cluster.leader: unknown key (known: etcd, group, sync_replicas, lease_ttl_seconds, sync_timeout_ms)",
    ]);
  });

  it("flags win over the file, the file over the defaults; nonsense combinations are named", () => {
    const file = toml('[cluster]\netcd = "http://e1:2379"\ngroup = "prod"\nsync_replicas = 1\n');
    expect(clusterOf(["--group", "other", "--sync-replicas", "2", "--advertise", "http://me:1"], file)).toEqual({
      endpoints: ["http://e1:2379"],
      group: "other",
      advertise: "http://me:1",
      syncReplicas: 2,
      leaseTtlSeconds: 10,
      syncTimeoutMs: 10_000,
    });
    expect(clusterOf([], DEFAULT_CONFIG)).toBeNull();
    expect(clusterOf(["--sync-replicas", "1", "--group", "g"], DEFAULT_CONFIG)).toEqual({
      error: "--group, --sync-replicas go with --etcd (or strand.toml [cluster] etcd): they configure failover on etcd",
    });
    expect(clusterOf([], toml("[cluster]\nsync_replicas = 1\n"))).toEqual({
      error: "strand.toml [cluster] sync_replicas needs etcd (--etcd or [cluster] etcd): synchronous replicas are a failover group's",
    });
    expect(clusterOf([], file, "http://leader:6969")).toEqual({
      error:
        "--follow and etcd ([cluster] etcd in strand.toml, or --etcd) exclude each other: with etcd the group decides whom a node follows",
    });
    expect(clusterOf(["--etcd", "http://e:2379"], DEFAULT_CONFIG)).toEqual({
      error: "a failover group needs a name: --group NAME (or strand.toml [cluster] group)",
    });
    expect(clusterOf([], file, undefined, "0.0.0.0")).toEqual({
      error: "--advertise is needed when listening on 0.0.0.0: the URL the other nodes reach this one at",
    });
  });
});

describe("strand serve with failover settings it cannot use", () => {
  const serveCli = (...args: string[]) => {
    const data = mkdtempSync(join(tmpdir(), "strand-cluster-serve-"));
    made.push(data);
    const r = spawnSync(process.execPath, [CLI, "serve", SOCIAL_EXAMPLE, "--port", "0", "--data", data, ...args], {
      encoding: "utf8",
      timeout: 60_000,
    });
    return { status: r.status, stderr: r.stderr };
  };

  it("stops, naming the flag without etcd, a group node without a replication key, or the etcd it cannot reach", () => {
    expect(serveCli("--sync-replicas", "1")).toEqual({
      status: 1,
      stderr: "strand: --sync-replicas goes with --etcd (or strand.toml [cluster] etcd): they configure failover on etcd\n",
    });
    expect(serveCli("--etcd", "http://127.0.0.1:1", "--group", "g")).toEqual({
      status: 1,
      stderr:
        "strand: a failover group needs --replication-key KEY (or STRAND_REPLICATION_KEY), the same on every node: its nodes read each other's commit logs with it\n",
    });
    const unreachable = serveCli("--etcd", "http://127.0.0.1:1", "--group", "g", "--replication-key", "k");
    expect(unreachable.status).toBe(1);
    expect(unreachable.stderr).toMatch(/^strand: cannot reach etcd at http:\/\/127\.0\.0\.1:1: /);
  }, 60_000);
});
