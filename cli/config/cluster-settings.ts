// A node's failover settings, from the [cluster] section as settings.ts resolved it (flag over
// strand.toml over default), and the combinations that make no sense, refused with a message
// naming them: a flag by its name when the flag gave it.
import type { GivenSettings, KnobSettings } from "./knobs.js";

export interface ClusterSettings {
  endpoints: string[];
  group: string;
  /** undefined: http://<host>:<port> once listening (a loopback or named host only). */
  advertise: string | undefined;
  syncReplicas: number;
  leaseTtlSeconds: number;
  syncTimeoutMs: number;
}

/**
 * null: no etcd (a plain leader, or a --follow replica); else the settings, or why they cannot be.
 * `resolved`: the section, flag over file over default; `flags`: what the command line gave.
 */
export function clusterSettings(
  resolved: KnobSettings["cluster"],
  flags: GivenSettings["cluster"],
  follow: string | undefined,
  host: string,
): ClusterSettings | null | { error: string } {
  const { etcd: endpoints, syncReplicas } = resolved;
  if (endpoints === undefined) {
    const without = (
      [
        ["--group", flags.group],
        ["--advertise", flags.advertise],
        ["--sync-replicas", flags.syncReplicas],
        ["--lease-ttl", flags.leaseTtlSeconds],
        ["--sync-timeout", flags.syncTimeoutMs],
      ] as const
    ).filter(([, value]) => value !== undefined);
    if (without.length > 0)
      return {
        error: `${without.map(([flag]) => flag).join(", ")} ${without.length === 1 ? "goes" : "go"} with --etcd (or strand.toml [cluster] etcd): they configure failover on etcd`,
      };
    if (syncReplicas > 0)
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
  const group = resolved.group;
  if (group === undefined) return { error: "a failover group needs a name: --group NAME (or strand.toml [cluster] group)" };
  const advertise = resolved.advertise;
  if (advertise === undefined && (host === "0.0.0.0" || host === "::"))
    return { error: `--advertise is needed when listening on ${host}: the URL the other nodes reach this one at` };
  return {
    endpoints,
    group,
    advertise,
    syncReplicas,
    leaseTtlSeconds: resolved.leaseTtlSeconds,
    syncTimeoutMs: resolved.syncTimeoutMs,
  };
}
