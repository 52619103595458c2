// Identifies the caller of every request by its key (`x-api-key`, or `Authorization: Bearer <key>`)
// and refuses requests without a known key on a keyed server, except the public paths (`GET`
// /health and the explorer's assets). The caller is kept on the context (`callerOf`), and a
// read-only caller's request runs in readOnlyScope, so that code deep in a tool or a service can
// refuse a write without each path carrying the caller along.
import { AsyncLocalStorage } from "node:async_hooks";
import type { Context, MiddlewareHandler } from "hono";
import { StrandError } from "../../core/errors.js";
import { DEFAULT_TENANT } from "../../core/tenant-name.js";
import { jsonErrorResponse } from "./error-response.js";
import { incomingOf, requestHeader } from "./request-header.js";
import { ANONYMOUS, type Caller, type KeyEntry, type KeyRing, type Role, roleAllows } from "../access/key-ring.js";

declare module "hono" {
  interface ContextVariableMap {
    caller: Caller;
  }
}

const readOnlyScope = new AsyncLocalStorage<Caller>();

/** The key of an `Authorization: Bearer <key>` header. */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  return match === null ? undefined : match[1];
}

/** The key a request presents, if any. */
export function presentedKey(c: Context): string | undefined {
  const incoming = incomingOf(c);
  return requestHeader(c, incoming, "x-api-key") ?? bearerToken(requestHeader(c, incoming, "authorization"));
}

/** `tenant`: the tenant this app serves; a key bound to another is 403 TENANT_FORBIDDEN. */
export function callerMiddleware(ring: KeyRing, publicPaths: ReadonlySet<string>, tenant: string = DEFAULT_TENANT): MiddlewareHandler {
  return async (c, next) => {
    if (!ring.keyed) return next();
    // HEAD is GET without the body: a load balancer's HEAD /health must not need the key either.
    if ((c.req.method === "GET" || c.req.method === "HEAD") && publicPaths.has(c.req.path)) return next();
    const entry = keyFor(ring, presentedKey(c), tenant);
    if (entry instanceof StrandError) return jsonErrorResponse(entry);
    const caller: Caller =
      entry.tenant === undefined ? { name: entry.name, role: entry.role } : { name: entry.name, role: entry.role, tenant: entry.tenant };
    c.set("caller", caller);
    if (caller.role === "read") return readOnlyScope.run(caller, next);
    return next();
  };
}

/** The entry of the key `presented` when it may reach `tenant`; else 401 UNAUTHORIZED or 403 TENANT_FORBIDDEN. */
export function keyFor(ring: KeyRing, presented: string | undefined, tenant: string): KeyEntry | StrandError {
  const entry = presented === undefined ? undefined : ring.find(presented);
  if (entry === undefined) return new StrandError("UNAUTHORIZED", presented === undefined ? "missing x-api-key header" : "invalid api key");
  if (entry.tenant !== undefined && entry.tenant !== tenant)
    return new StrandError("TENANT_FORBIDDEN", `the key "${entry.name}" is for the tenant "${entry.tenant}", not "${tenant}"`);
  return entry;
}

/** The request's caller: ANONYMOUS on a server without keys (or on a public path). */
export function callerOf(c: Context): Caller {
  return c.get("caller") ?? ANONYMOUS;
}

/** ROLE_FORBIDDEN: `caller` may not do `what`, which needs `needed`. */
export function roleForbidden(caller: Caller, what: string, needed: Role): StrandError {
  const roles = needed === "admin" ? "admin" : "write or admin";
  return new StrandError(
    "ROLE_FORBIDDEN",
    `the key "${caller.name}" has the role ${caller.role}; ${what} needs a key with the role ${roles}`,
  );
}

/** Throws ROLE_FORBIDDEN when `caller` lacks `needed`. */
export function requireRole(caller: Caller, needed: Role, what: string): void {
  if (!roleAllows(caller.role, needed)) throw roleForbidden(caller, what, needed);
}

/** Throws ROLE_FORBIDDEN when the current request's caller is read-only: for writes found deep in a call. */
export function requireWriteScope(what: string): void {
  const caller = readOnlyScope.getStore();
  if (caller !== undefined) throw roleForbidden(caller, what, "write");
}
