// Which graph a request is for: `/t/<tenant>/<path>` (so an unchanged HelixDB client works with
// its base URL at http://host:6969/t/acme), else the `Strand-Tenant` header, else the project's
// own graph (the default tenant: single-graph projects change nothing). The request goes on to
// that tenant's app at `<path>`. A tenant with no store yet is created by its first named query
// that writes, for a caller whose key may write to it; anything else sent to it is 404.
import { echo } from "../../core/echo.js";
import { StrandError } from "../../core/errors.js";
import { type KeyEntry, type KeyRing, roleAllows } from "../access/key-ring.js";
import type { EngineApp } from "../front-door/engine.js";
import { relocatedRequest } from "../front-door/lazy-request.js";
import { bearerToken, keyFor, roleForbidden } from "../http/caller.js";
import { errorToResponse, jsonErrorResponse } from "../http/error-response.js";
import { AFTER_HEADER, REPLICATION_KEY_HEADER } from "../../runtime/replication/protocol.js";
import { parseSeq } from "../replication/commit-headers.js";
import { DEFAULT_TENANT, tenantNameProblem } from "../../core/tenant-name.js";
import type { TenantRegistry, TenantStore } from "./tenant-registry.js";

export const TENANT_HEADER = "strand-tenant";
const PREFIX = "/t/";
const REPLICATION_PREFIX = "/replication/";

export interface TenantDispatchOptions<S extends TenantStore> {
  registry: TenantRegistry<S>;
  defaultApp: EngineApp;
  keys: KeyRing;
  /** Whether the named query writes (its first call creates the tenant). */
  writes: (query: string) => boolean;
  /** Requests per second one tenant may make (0: no limit); the project's own graph has none. */
  maxRequestsPerSecond?: number;
  /** On a node with replication: who may read a tenant's log and backup (/t/<tenant>/replication/…), by the keys presented. */
  replicationAccess?: (presented: readonly (string | undefined)[]) => StrandError | null;
  /**
   * On a replica: resolves once the tenant holds sequence `seq` (true), or after the Strand-After
   * wait without it (false); null where this node follows no leader (the app checks as usual).
   */
  awaitPosition?: (name: string, seq: number) => Promise<boolean | null>;
  /** Where the tenant's log stands here (for the message of a read that waited in vain). */
  positionOf?: (name: string) => number | null;
  /** Whether a tenant's store holds nothing: a tenant created by a request that then failed is removed again. */
  isEmpty?: (store: S) => boolean;
  now?: () => number;
}

/** A token bucket: `rate` tokens a second, at most `rate` held. */
interface Bucket {
  tokens: number;
  at: number;
}

type Env = Parameters<EngineApp["fetch"]>[1];

export class TenantDispatch<S extends TenantStore> implements EngineApp {
  private readonly buckets = new Map<string, Bucket>();
  /** Requests answered per tenant since start, the project's own graph as "default" (observe/metrics.ts). */
  readonly requests = new Map<string, number>();

  constructor(private readonly options: TenantDispatchOptions<S>) {}

  async fetch(request: Request, env: Env): Promise<Response> {
    const url = request.url;
    const pathStart = url.indexOf("/", url.indexOf("//") + 2);
    const path = pathStart < 0 ? "/" : url.slice(pathStart);
    let tenant: string;
    let rest: string;
    if (path.startsWith(PREFIX)) {
      const end = path.indexOf("/", PREFIX.length);
      tenant = decodeSegment(path.slice(PREFIX.length, end < 0 ? undefined : end));
      rest = end < 0 ? "/" : path.slice(end);
      const header = headerOf(env, TENANT_HEADER);
      if (header !== undefined && header !== tenant)
        return refuse(
          new StrandError("INVALID_TENANT", `the path names the tenant "${echo(tenant)}" and ${TENANT_HEADER} "${echo(header)}"; name one`),
        );
    } else {
      const header = headerOf(env, TENANT_HEADER);
      if (header === undefined) {
        this.count(DEFAULT_TENANT);
        return this.options.defaultApp.fetch(request, env);
      }
      tenant = header;
      rest = path;
    }
    const problem = tenantNameProblem(tenant);
    if (problem !== null) return refuse(problem);
    const relocated = pathStart < 0 || rest === path ? request : relocatedRequest(request, url.slice(0, pathStart) + rest);
    if (tenant === DEFAULT_TENANT) {
      this.count(DEFAULT_TENANT);
      return this.options.defaultApp.fetch(relocated, env);
    }

    // The key first: whether a tenant exists is not told to a caller without a key for it. A
    // replica following the tenants has the replication key (the tenant app's replication routes check it again).
    const replicating = rest.startsWith(REPLICATION_PREFIX) && this.options.replicationAccess !== undefined;
    const caller = replicating ? this.replicationCaller(env) : this.authenticate(env, tenant);
    if (caller instanceof StrandError) return refuse(caller);
    const { registry } = this.options;
    // On a replica, a request that must see a write (Strand-After) waits for it here, before it
    // holds the tenant: a re-seed of the tenant waits for the requests that hold it.
    const behind = await this.awaitAfter(env, tenant);
    if (behind !== null) return jsonErrorResponse(behind, { "retry-after": "1" });
    // A named query that writes creates the tenant; so does a memory call (its writes are in the body).
    const creates =
      request.method === "POST" && (this.options.writes(queryName(rest)) || rest.startsWith("/memory/")) && !registry.exists(tenant);
    if (creates && caller !== null && !roleAllows(caller.role, "write"))
      return refuse(roleForbidden(caller, `creating the tenant "${tenant}"`, "write"));
    // A replica creates no tenant: its leader does, and replication brings it here.
    const refused = creates ? registry.writeRefusal() : null;
    if (refused !== null) return errorToResponse(refused);
    let opened: Awaited<ReturnType<TenantRegistry<S>["acquire"]>>;
    try {
      opened = await registry.acquire(tenant, creates);
    } catch (error) {
      // Its folder held by another process (strand verify, a shell), or a store that does not open.
      return refuse(new StrandError("SERVER_BUSY", `the tenant "${tenant}" cannot be opened: ${(error as Error).message}`));
    }
    if (opened === null) {
      return refuse(
        new StrandError(
          "UNKNOWN_TENANT",
          `no tenant "${tenant}": a query that writes creates it (POST /t/${tenant}/<Query>), or POST /tenants/${tenant}`,
        ),
      );
    }
    // Only a tenant that exists has a bucket: names nobody created cost no memory.
    const limited = this.rateLimited(tenant);
    if (limited !== null) {
      registry.release(opened);
      return jsonErrorResponse(limited, { "retry-after": "1" });
    }
    this.count(tenant);
    let response: Response;
    try {
      response = await opened.app.fetch(relocated, env);
    } finally {
      registry.release(opened);
    }
    // A request that created the tenant and then failed (a bad parameter, say) leaves no tenant.
    const isEmpty = this.options.isEmpty;
    if (creates && !response.ok && isEmpty !== undefined) await registry.drop(tenant, (store) => !isEmpty(store)).catch(() => false);
    return response;
  }

  /** REPLICA_BEHIND when the request's Strand-After names a sequence this replica's tenant has not reached in time; else null. */
  private async awaitAfter(env: Env, tenant: string): Promise<StrandError | null> {
    const wait = this.options.awaitPosition;
    const after = headerOf(env, AFTER_HEADER);
    // A value that is not a sequence is the app's to refuse (400).
    const seq = wait === undefined || after === undefined ? null : parseSeq(after);
    if (wait === undefined || seq === null) return null;
    if ((await wait(tenant, seq)) !== false) return null;
    const at = this.options.positionOf?.(tenant) ?? null;
    return new StrandError(
      "REPLICA_BEHIND",
      at === null
        ? `this replica holds no tenant "${tenant}" yet, so not its sequence ${seq} (${AFTER_HEADER}); retry, or read from the leader`
        : `this node has applied sequence ${at} of the tenant "${tenant}", not yet ${seq} (${AFTER_HEADER}); retry, or read from the leader`,
    );
  }

  /** Null when the request may read the tenant's replication (the replication key, or an admin key), else why not. */
  private replicationCaller(env: Env): null | StrandError {
    const access = this.options.replicationAccess;
    if (access === undefined) return null;
    return access([headerOf(env, REPLICATION_KEY_HEADER), headerOf(env, "x-api-key") ?? bearerToken(headerOf(env, "authorization"))]);
  }

  /** The key that may reach `tenant` (null on a server without keys), or the 401 or 403 why not. */
  private authenticate(env: Env, tenant: string): KeyEntry | null | StrandError {
    const { keys } = this.options;
    if (!keys.keyed) return null;
    return keyFor(keys, headerOf(env, "x-api-key") ?? bearerToken(headerOf(env, "authorization")), tenant);
  }

  private count(tenant: string): void {
    this.requests.set(tenant, (this.requests.get(tenant) ?? 0) + 1);
  }

  /** TENANT_RATE_LIMITED when the tenant has spent its requests of this second, else null (one is taken). */
  private rateLimited(tenant: string): StrandError | null {
    const rate = this.options.maxRequestsPerSecond ?? 0;
    if (rate <= 0) return null;
    const now = (this.options.now ?? Date.now)();
    const bucket = this.buckets.get(tenant) ?? { tokens: rate, at: now };
    bucket.tokens = Math.min(rate, bucket.tokens + ((now - bucket.at) / 1000) * rate);
    bucket.at = now;
    this.buckets.set(tenant, bucket);
    if (bucket.tokens < 1)
      return new StrandError(
        "TENANT_RATE_LIMITED",
        `the tenant "${tenant}" is past its limit of ${rate} requests per second (tenant_max_rps); retry shortly`,
      );
    bucket.tokens -= 1;
    return null;
  }
}

function refuse(error: StrandError): Response {
  return jsonErrorResponse(error);
}

/** `/AddUser?x` → "AddUser"; "" for a path of more than one segment. */
function queryName(path: string): string {
  const end = path.search(/[?#]/);
  const clean = end < 0 ? path : path.slice(0, end);
  return clean.lastIndexOf("/") === 0 ? clean.slice(1) : "";
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function headerOf(env: Env, name: string): string | undefined {
  const value = env.forwarded.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
