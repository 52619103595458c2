// The tenants, managed over HTTP by an admin key (or anyone, on a server without keys):
//   GET    /tenants         → {"tenants": [{"name", "open"}]}
//   GET    /tenants/<name>  → {"name", "open", "records": {<type>: n}, "bytes"}
//   POST   /tenants/<name>  → {"name", "created": true|false}   (false: it existed)
//   DELETE /tenants/<name>  → {"name", "dropped": true}          (404 UNKNOWN_TENANT: none)
// Not a Hono route, for the reason server/mcp/routes.ts gives.
import type { Context, MiddlewareHandler } from "hono";
import { incomingOf, requestHeader } from "../http/request-header.js";
import { TENANT_HEADER } from "./tenant-dispatch.js";
import { StrandError } from "../../core/errors.js";
import { DEFAULT_TENANT, tenantNameProblem } from "../../core/tenant-name.js";
import { callerOf, requireRole } from "../http/caller.js";
import { errorToResponse, jsonErrorResponse } from "../http/error-response.js";
import type { StoreStats } from "../../runtime/records/store-stats.js";
import type { UnconfirmedChange } from "../cluster/in-sync.js";

export const TENANTS_PATH = "/tenants";

export function isTenantsPath(path: string): boolean {
  return path === TENANTS_PATH || path.startsWith(`${TENANTS_PATH}/`);
}

interface HeldTenant {
  readonly store: { stats(): StoreStats };
}

/** What the routes need of the tenants: TenantRegistry over GraphStores satisfies it. */
export interface TenantAdmin {
  names(): string[];
  isOpen(name: string): boolean;
  exists(name: string): boolean;
  acquire(name: string, create: boolean): Promise<HeldTenant | null>;
  release(tenant: HeldTenant): void;
  drop(name: string): Promise<boolean>;
  /** Why tenants cannot be created or dropped here now (a replica: 421 to its leader), or null. */
  writeRefusal(): Error | null;
  /** Resolves once the creations and drops so far are held by the in-sync replicas; throws NOT_REPLICATED when not. */
  confirmed(change: UnconfirmedChange): Promise<void>;
}

const JSON_HEADERS = { "content-type": "application/json" } as const;
const json = (body: unknown, status = 200): Response => new Response(JSON.stringify(body), { status, headers: JSON_HEADERS });

/** NOT_FOUND for a request that names a tenant (a path, or the header) on a server without tenants. */
function tenantsOff(method: string, what: string): StrandError {
  return new StrandError(
    "NOT_FOUND",
    `no route for ${method} ${what}: this server serves one graph, not tenants (--tenants false, or --watch)`,
  );
}

/** On a server without tenants: a request with a Strand-Tenant header other than "default" is 404, not served from the project's graph. */
export function tenantsOffGuard(): MiddlewareHandler {
  return async (c, next) => {
    const named = requestHeader(c, incomingOf(c), TENANT_HEADER);
    if (named === undefined || named === DEFAULT_TENANT) return next();
    return jsonErrorResponse(tenantsOff(c.req.method, `${c.req.path} (${TENANT_HEADER}: ${named})`));
  };
}

export function tenantsHandler(admin: TenantAdmin | null): (c: Context) => Promise<Response> {
  return async (c) => {
    const { method, path } = c.req;
    if (admin === null) return jsonErrorResponse(tenantsOff(method, path));
    try {
      requireRole(callerOf(c), "admin", "managing tenants");
      if (path === TENANTS_PATH) {
        if (method !== "GET") return methodNotAllowed(method, path, "GET");
        return json({ tenants: admin.names().map((name) => ({ name, open: admin.isOpen(name) })) });
      }
      const name = decodeURIComponent(path.slice(TENANTS_PATH.length + 1));
      const problem = tenantNameProblem(name);
      if (problem !== null) throw problem;
      if (name === DEFAULT_TENANT)
        throw new StrandError(
          "INVALID_TENANT",
          `"${DEFAULT_TENANT}" is the project's own graph: it cannot be created, dropped or listed here`,
        );
      switch (method) {
        case "GET":
          return json(await statsOf(admin, name));
        case "POST": {
          // A replica creates no tenant, and says so even for one it holds: creation is the leader's.
          const refused = admin.writeRefusal();
          if (refused !== null) throw refused;
          const existed = admin.exists(name);
          const opened = await admin.acquire(name, true);
          if (opened !== null) admin.release(opened);
          await admin.confirmed({
            subject: `the creation of the tenant "${name}"`,
            seq: null,
            retry: `check it (GET ${TENANTS_PATH}/${name}) before creating it again`,
          });
          return json({ name, created: !existed }, existed ? 200 : 201);
        }
        case "DELETE": {
          const refused = admin.writeRefusal();
          if (refused !== null) throw refused;
          if (!(await admin.drop(name))) throw unknownTenant(name);
          await admin.confirmed({
            subject: `the drop of the tenant "${name}"`,
            seq: null,
            retry: `check it (GET ${TENANTS_PATH}/${name}) before dropping it again`,
          });
          return json({ name, dropped: true });
        }
        default:
          return methodNotAllowed(method, path, "GET, POST, DELETE");
      }
    } catch (error) {
      return errorToResponse(error);
    }
  };
}

async function statsOf(admin: TenantAdmin, name: string): Promise<unknown> {
  const open = admin.isOpen(name);
  const opened = await admin.acquire(name, false);
  if (opened === null) throw unknownTenant(name);
  try {
    const stats = opened.store.stats();
    return { name, open, records: Object.fromEntries(stats.records.map((r) => [r.type, r.count])), bytes: stats.fileBytes };
  } finally {
    admin.release(opened);
  }
}

function unknownTenant(name: string): StrandError {
  return new StrandError("UNKNOWN_TENANT", `no tenant "${name}"`);
}

function methodNotAllowed(method: string, path: string, allow: string): Response {
  return jsonErrorResponse(new StrandError("METHOD_NOT_ALLOWED", `method ${method} is not allowed on ${path}; use ${allow}`), { allow });
}
