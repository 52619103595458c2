// The leader's replication endpoints (runtime/replication/protocol.ts): status, the log (a long
// poll) and the seed backup. They need the replication key in x-replication-key, or an admin key;
// a node with neither refuses them, since the log and the backup are every record at once. The
// log records a failover member's position (`?member=`) only after its divergence check, so a
// replica with another history never counts as holding a write.
import { timingSafeEqual } from "node:crypto";
import type { Context, Hono } from "hono";
import { StrandError } from "../../core/errors.js";
import {
  COMMIT_HEADER,
  encodeFrames,
  EPOCH_HEADER,
  LOG_BATCH_BYTES,
  LOG_BATCH_ENTRIES,
  LOG_FIRST_HEADER,
  LOG_PATH,
  MAX_LOG_WAIT_MS,
  MEMBER_KEY_HEADER,
  REPLICATION_KEY_HEADER,
  SCHEMA_HEADER,
  SEED_PATH,
  STATUS_PATH,
  TENANTS_FEED_PATH,
  type ReplicationStatus,
} from "../../runtime/replication/protocol.js";
import { presentedKey, roleForbidden } from "../http/caller.js";
import { type KeyRing, keyDigest } from "../access/key-ring.js";
import { backupRoute } from "../http/backup-route.js";
import { jsonErrorResponse } from "../http/error-response.js";
import { incomingOf, requestHeader } from "../http/request-header.js";
import type { ReplicationNode } from "./node.js";

export function addReplicationRoutes(app: Hono, node: ReplicationNode, keys: KeyRing): void {
  const allowed = authorizer(node.key, keys);
  const guard =
    (handler: (c: Context) => Response | Promise<Response>) =>
    (c: Context): Response | Promise<Response> => {
      const refused = allowed(c);
      return refused === null ? handler(c) : jsonErrorResponse(refused);
    };
  app.get(
    STATUS_PATH,
    guard((c) => {
      // A replica of a keyed node must be keyed too, or it serves the same data to anyone.
      const status = keys.keyed ? { ...statusOf(node), keyed: true as const } : statusOf(node);
      return c.json(status as unknown as Record<string, never>);
    }),
  );
  app.get(
    LOG_PATH,
    guard((c) => logAnswer(c, node)),
  );
  app.get(
    TENANTS_FEED_PATH,
    guard((c) => tenantFeedAnswer(c, node)),
  );
  const seed = backupRoute(node, () => null);
  app.get(
    SEED_PATH,
    guard(async (c) => {
      // Everything committed before the backup is in it: sent to the member that asked (replica-acks.ts).
      const before = node.log().committed;
      // The replica this backup makes asks for the entries after it: they are recorded and kept.
      node.log().seeded?.(before);
      const answer = await seed(c);
      const member = c.req.query("member");
      if (answer.ok && member !== undefined && MEMBER_ID.test(member))
        node.cluster?.logSent(member, before, requestHeader(c, incomingOf(c), MEMBER_KEY_HEADER));
      return answer;
    }),
  );
}

export function statusOf(node: ReplicationNode): ReplicationStatus {
  const log = node.log();
  const following = node.following();
  const cluster = node.cluster;
  const role = cluster?.role() ?? (following === null ? "leader" : "replica");
  const status: ReplicationStatus = { role, seq: log.committed, oldest: log.oldest(), identity: node.identity, following };
  if (cluster !== undefined) status.cluster = cluster.status();
  return status;
}

const MEMBER_ID = /^[A-Za-z0-9._-]{1,64}$/;

async function logAnswer(c: Context, node: ReplicationNode): Promise<Response> {
  const after = intParam(c.req.query("after"), "after", 0, Number.MAX_SAFE_INTEGER);
  const wait = intParam(c.req.query("wait") ?? "0", "wait", 0, Number.MAX_SAFE_INTEGER);
  const timeText = c.req.query("time");
  const time = timeText === undefined ? null : intParam(timeText, "time", 0, Number.MAX_SAFE_INTEGER);
  if (typeof after !== "number") return jsonErrorResponse(after);
  if (typeof wait !== "number") return jsonErrorResponse(wait);
  if (time !== null && typeof time !== "number") return jsonErrorResponse(time);
  const member = idParam(c, "member");
  if (member instanceof StrandError) return jsonErrorResponse(member);
  const follower = idParam(c, "follower");
  if (follower instanceof StrandError) return jsonErrorResponse(follower);
  let log = node.log();
  const gone = divergence(log, after, time);
  if (gone !== null) return jsonErrorResponse(new StrandError("LOG_GONE", gone));
  // Past the divergence check: the replica's entry `after` is this node's, so it holds 1..after
  // (counted only if the request proves it is that member, and up to what it was sent).
  const memberKey = member === undefined ? undefined : requestHeader(c, incomingOf(c), MEMBER_KEY_HEADER);
  if (member !== undefined) node.cluster?.replicaApplied(member, after, memberKey);
  // What it will ask for next is recorded and kept while it keeps asking (runtime/commit-log/log-readers.ts).
  log.askedBy?.(member !== undefined ? `member:${member}` : follower !== undefined ? `follower:${follower}` : "anonymous", after);
  if (log.committed <= after && wait > 0) {
    await log.waitFor(after + 1, Math.min(wait, MAX_LOG_WAIT_MS));
    log = node.log();
  }
  const read = log.read(after, LOG_BATCH_ENTRIES, LOG_BATCH_BYTES);
  if (read === "gone")
    return jsonErrorResponse(
      new StrandError("LOG_GONE", `entry ${after + 1} is past this node's log retention; seed again from its backup`),
    );
  if (member !== undefined && read.frames.length > 0) node.cluster?.logSent(member, read.first + read.frames.length - 1, memberKey);
  return new Response(encodeFrames(read.frames), {
    headers: {
      "content-type": "application/octet-stream",
      [LOG_FIRST_HEADER]: String(read.first),
      [COMMIT_HEADER]: String(log.committed),
      [SCHEMA_HEADER]: node.identity.fingerprint,
      [EPOCH_HEADER]: String(node.cluster?.leaderEpoch() ?? 0),
    },
  });
}

/** The tenants changed since `?since=` of `?feed=` (a long poll of `?wait=` ms when none has). */
async function tenantFeedAnswer(c: Context, node: ReplicationNode): Promise<Response> {
  const tenants = node.tenants;
  if (tenants === undefined)
    return jsonErrorResponse(new StrandError("NOT_FOUND", `${TENANTS_FEED_PATH}: this node serves no tenants (--tenants false)`));
  const since = intParam(c.req.query("since") ?? "0", "since", 0, Number.MAX_SAFE_INTEGER);
  const wait = intParam(c.req.query("wait") ?? "0", "wait", 0, Number.MAX_SAFE_INTEGER);
  if (typeof since !== "number") return jsonErrorResponse(since);
  if (typeof wait !== "number") return jsonErrorResponse(wait);
  const feed = c.req.query("feed");
  const member = idParam(c, "member");
  if (member instanceof StrandError) return jsonErrorResponse(member);
  const memberKey = member === undefined ? undefined : requestHeader(c, incomingOf(c), MEMBER_KEY_HEADER);
  // A replica asks from a version of this feed only once it has applied every change up to it
  // (tenant-sync.ts): its acknowledgement of the tenants' writes, counted as the log's are.
  if (member !== undefined && feed === tenants.id) node.cluster?.tenantsApplied?.(member, since, memberKey);
  let answer = tenants.answer(feed, since);
  if (!answer.full && answer.tenants.length === 0 && answer.dropped.length === 0 && wait > 0) {
    await tenants.waitPast(since, Math.min(wait, MAX_LOG_WAIT_MS));
    answer = tenants.answer(feed, since);
  }
  if (member !== undefined) node.cluster?.tenantsSent?.(member, answer.version, memberKey);
  return c.json(answer as unknown as Record<string, never>);
}

/** Why a follower at `after` (its entry there committed at `time`) cannot go on from this log, or null. */
function divergence(log: ReturnType<ReplicationNode["log"]>, after: number, time: number | null): string | null {
  if (after > log.committed)
    return `the follower is at sequence ${after}, past this node's ${log.committed}: it holds writes this node does not (most often an old leader's writes that were never acknowledged, after a failover; or this node was restored from an older backup); seed again`;
  const oldest = log.oldest();
  if (after < log.committed && (oldest === null || after + 1 < oldest))
    return `entry ${after + 1} is past this node's log retention (the oldest kept is ${oldest ?? "none"}); seed again from its backup`;
  if (time !== null && after > 0) {
    const mine = log.timeOf(after);
    // Entry `after` trimmed while `after + 1` is kept: the follower's history cannot be checked,
    // and entries of another history (a tenant dropped and created again) must not be applied on it.
    if (mine === null)
      return `entry ${after} is no longer kept here, so the follower's history cannot be checked against this node's; seed again from its backup`;
    if (mine !== time) return `the follower's entry ${after} is not this node's: its data has another history; seed again`;
  }
  return null;
}

/** A member's or follower's id from `?<name>=`: undefined when absent, an error when not an id. */
function idParam(c: Context, name: "member" | "follower"): string | undefined | StrandError {
  const id = c.req.query(name);
  if (id === undefined || MEMBER_ID.test(id)) return id;
  return new StrandError("BAD_REQUEST", `${name} must be 1 to 64 letters, digits, '.', '_' or '-', got "${id.slice(0, 40)}"`);
}

function intParam(text: string | undefined, name: string, min: number, max: number): number | StrandError {
  if (text === undefined) return new StrandError("BAD_REQUEST", `${LOG_PATH} needs ?${name}=<integer>`);
  const n = /^\d{1,16}$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max)
    return new StrandError("BAD_REQUEST", `${name} must be an integer ${min}..${max}, got "${text.slice(0, 40)}"`);
  return n;
}

/** Null when the request carries the replication key or an admin key; else the refusal. */
function authorizer(replicationKey: string | undefined, keys: KeyRing): (c: Context) => StrandError | null {
  const refusal = replicationRefusal(replicationKey, keys);
  return (c) => refusal([requestHeader(c, incomingOf(c), REPLICATION_KEY_HEADER), presentedKey(c)]);
}

/**
 * Null when one of the keys presented (the replication key header, the api key) is the
 * replication key or an admin key of every tenant; else the refusal. The log and the backup are
 * every record at once: a node with neither key refuses them, and a key bound to one tenant never
 * opens them (not even its own tenant's: its backup route is /t/<tenant>/backup).
 */
export function replicationRefusal(
  replicationKey: string | undefined,
  keys: KeyRing,
): (presented: readonly (string | undefined)[]) => StrandError | null {
  const replication = replicationKey === undefined || replicationKey === "" ? null : keyDigest(replicationKey);
  return (presented) => {
    if (replication === null && !keys.keyed)
      return new StrandError(
        "UNAUTHORIZED",
        "replication is served only by a node with a replication key or an api key (strand serve --replication-key KEY)",
      );
    for (const key of presented) {
      if (key === undefined) continue;
      if (replication !== null && timingSafeEqual(keyDigest(key), replication)) return null;
      const entry = keys.find(key);
      if (entry !== undefined) {
        if (entry.tenant !== undefined)
          return new StrandError(
            "TENANT_FORBIDDEN",
            `the key "${entry.name}" is for the tenant "${entry.tenant}"; replication needs a key of every tenant`,
          );
        return entry.role === "admin" ? null : roleForbidden(entry, "replication", "admin");
      }
    }
    return new StrandError("UNAUTHORIZED", `missing or invalid replication key (${REPLICATION_KEY_HEADER}) or api key`);
  };
}
