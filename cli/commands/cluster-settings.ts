// A node's failover settings: the serve flags (--etcd, --group, …) over strand.toml [cluster] over
// the defaults, and the combinations that make no sense refused with a message naming them.
import type { ProjectConfig } from "../config/project-config.js";
import { DEFAULT_LEASE_TTL_SECONDS, DEFAULT_SYNC_TIMEOUT_MS, parseEndpoints } from "../config/cluster-values.js";

export interface ClusterFlags {
  etcd: string[] | undefined;
  group: string | undefined;
  advertise: string | undefined;
  syncReplicas: number | undefined;
  leaseTtlSeconds: number | undefined;
  syncTimeoutMs: number | undefined;
}

export interface ClusterSettings {
  endpoints: string[];
  group: string;
  /** undefined: http://<host>:<port> once listening (a loopback or named host only). */
  advertise: string | undefined;
  syncReplicas: number;
  leaseTtlSeconds: number;
  syncTimeoutMs: number;
}

/** null: no etcd (a plain leader, or a --follow replica); else the settings, or why they cannot be. */
export function clusterSettings(
  flags: ClusterFlags | undefined,
  config: ProjectConfig,
  follow: string | undefined,
  host: string,
): ClusterSettings | null | { error: string } {
  const fromFile = config.cluster ?? {};
  const etcdText = fromFile.etcd;
  const endpoints = flags?.etcd ?? (etcdText === undefined ? undefined : (parseEndpoints(etcdText) ?? undefined));
  const syncReplicas = flags?.syncReplicas ?? fromFile.syncReplicas;
  if (endpoints === undefined) {
    const without = (
      [
        ["--group", flags?.group],
        ["--advertise", flags?.advertise],
        ["--sync-replicas", flags?.syncReplicas],
        ["--lease-ttl", flags?.leaseTtlSeconds],
        ["--sync-timeout", flags?.syncTimeoutMs],
      ] as const
    ).filter(([, value]) => value !== undefined);
    if (without.length > 0)
      return {
        error: `${without.map(([flag]) => flag).join(", ")} ${without.length === 1 ? "goes" : "go"} with --etcd (or strand.toml [cluster] etcd): they configure failover on etcd`,
      };
    if (syncReplicas !== undefined && syncReplicas > 0)
      return {
        error: "strand.toml [cluster] sync_replicas needs etcd (--etcd or [cluster] etcd): synchronous replicas are a failover group's",
      };
    return null;
  }
  if (follow !== undefined)
    return {
      error:
        "--follow and etcd ([cluster] etcd in strand.toml, or --etcd) exclude each other: with etcd the group decides whom a node follows",
    };
  const group = flags?.group ?? fromFile.group;
  if (group === undefined) return { error: "a failover group needs a name: --group NAME (or strand.toml [cluster] group)" };
  const advertise = flags?.advertise;
  if (advertise === undefined && (host === "0.0.0.0" || host === "::"))
    return { error: `--advertise is needed when listening on ${host}: the URL the other nodes reach this one at` };
  return {
    endpoints,
    group,
    advertise,
    syncReplicas: syncReplicas ?? 0,
    leaseTtlSeconds: flags?.leaseTtlSeconds ?? fromFile.leaseTtlSeconds ?? DEFAULT_LEASE_TTL_SECONDS,
    syncTimeoutMs: flags?.syncTimeoutMs ?? fromFile.syncTimeoutMs ?? DEFAULT_SYNC_TIMEOUT_MS,
  };
}
