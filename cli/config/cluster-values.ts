// The values `strand serve --etcd …` and strand.toml [cluster] share: their checks and limits,
// so a flag and a key with the same meaning refuse the same input with the same words.
import { leaderUrl } from "../../runtime/replication/leader-fetch.js";

/** More would need that many replicas up for every write: far past any sensible group. */
export const MAX_SYNC_REPLICAS = 16;
/** etcd refuses shorter leases than its election timeout allows; 2 s suits a local test cluster. */
export const MIN_LEASE_TTL_SECONDS = 2;
export const MAX_LEASE_TTL_SECONDS = 300;
export const DEFAULT_LEASE_TTL_SECONDS = 10;
export const DEFAULT_SYNC_TIMEOUT_MS = 10_000;

/** The endpoints of a comma-separated list of http(s) URLs; null when one is not such a URL. */
export function parseEndpoints(text: string): string[] | null {
  const endpoints = text.split(",").map((e) => e.trim());
  const urls = endpoints.map((e) => leaderUrl(e));
  if (urls.some((u) => u === null || u === "")) return null;
  return urls as string[];
}

export function checkEndpoints(text: string): string | null {
  return parseEndpoints(text) === null
    ? `expected etcd endpoints as comma-separated http(s) URLs (http://10.0.0.1:2379,http://10.0.0.2:2379), got ${JSON.stringify(text)}`
    : null;
}

export function checkGroupName(text: string): string | null {
  return /^[A-Za-z0-9._-]{1,64}$/.test(text)
    ? null
    : `expected a group name of 1 to 64 letters, digits, '.', '_' or '-', got ${JSON.stringify(text)}`;
}
