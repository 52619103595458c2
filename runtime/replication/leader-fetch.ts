// A request to the leader's replication endpoints, with the key and a deadline.
import { MEMBER_KEY_HEADER, REPLICATION_KEY_HEADER } from "./protocol.js";

export interface LeaderAccess {
  /** The leader's base URL, e.g. http://10.0.0.1:6969 (no trailing slash). */
  url: string;
  /** Sent as x-replication-key (the leader's --replication-key, or its api key). */
  key: string | undefined;
  /** A failover group's member sends its own key too, so the leader can tell it is that member. */
  memberKey?: string | undefined;
}

/** GET `path` of the leader; `timeoutMs` 0: no deadline (a backup download). */
export function leaderFetch(leader: LeaderAccess, path: string, timeoutMs: number, signal?: AbortSignal): Promise<Response> {
  const signals = [...(signal ? [signal] : []), ...(timeoutMs > 0 ? [AbortSignal.timeout(timeoutMs)] : [])];
  const headers: Record<string, string> = {};
  if (leader.key !== undefined) headers[REPLICATION_KEY_HEADER] = leader.key;
  if (leader.memberKey !== undefined) headers[MEMBER_KEY_HEADER] = leader.memberKey;
  return fetch(`${leader.url}${path}`, {
    headers,
    ...(signals.length > 0 ? { signal: AbortSignal.any(signals) } : {}),
  });
}

/** The leader URL as given, without trailing slashes; null when it is not an http(s) URL. */
export function leaderUrl(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, "")}`;
}
