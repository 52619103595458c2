// The arguments of `strand keys` (the keys file a server reads) and `strand tenant` (a running
// server's tenants), parsed into their commands' options.
import { resolve } from "node:path";
import { isTenantName } from "../../core/tenant-name.js";
import { leaderUrl } from "../../runtime/replication/leader-fetch.js";
import { isKeyName, isRole } from "../../server/access/keys-file.js";
import type { KeysOptions } from "./keys.js";
import { nonEmpty, parse } from "./parse-flags.js";
import type { TenantOptions } from "./tenant.js";
import { UsageError } from "./usage.js";

const HELP = { help: { type: "boolean", short: "h" } } as const;
const KEYS_FLAGS = { ...HELP, file: { type: "string" }, role: { type: "string" }, tenant: { type: "string" } } as const;
const TENANT_FLAGS = { ...HELP, key: { type: "string" } } as const;

export type AccessCommand =
  | { kind: "help"; command: string }
  | { kind: "keys"; keys: KeysOptions }
  | { kind: "tenant"; tenant: TenantOptions };

export /** `strand keys add <name> --role R | list | remove <name>`, each with --file (or STRAND_KEYS_FILE). */
function keysCommand(rest: string[], env: NodeJS.ProcessEnv): AccessCommand {
  const { values, positionals } = parse("keys", rest, KEYS_FLAGS);
  if (values.help === true) return { kind: "help", command: "keys" };
  const [action, keyName, ...extra] = positionals;
  const given = nonEmpty("--file", values.file) ?? (env.STRAND_KEYS_FILE === "" ? undefined : env.STRAND_KEYS_FILE);
  if (given === undefined) throw new UsageError("strand keys needs --file <keys file> (or STRAND_KEYS_FILE)");
  const file = resolve(given);
  if (extra.length > 0) throw new UsageError(`strand keys: unexpected ${extra.join(" ")}`);
  if (action === "list") {
    if (keyName !== undefined) throw new UsageError("strand keys list takes no name");
    return { kind: "keys", keys: { action, file } };
  }
  if (action !== "add" && action !== "remove")
    throw new UsageError(`strand keys: expected add, list or remove, got ${action === undefined ? "nothing" : `"${action}"`}`);
  if (keyName === undefined || !isKeyName(keyName)) {
    throw new UsageError(
      `strand keys ${action} needs a name of 1-64 of A-Z a-z 0-9 . _ -${keyName === undefined ? "" : `, got "${keyName}"`}`,
    );
  }
  if (action === "remove") {
    if (values.role !== undefined || values.tenant !== undefined) throw new UsageError("strand keys remove takes no --role or --tenant");
    return { kind: "keys", keys: { action, file, name: keyName } };
  }
  const role = values.role;
  if (role === undefined || !isRole(role))
    throw new UsageError(`--role must be read, write or admin${role === undefined ? "" : `, got "${role}"`}`);
  const tenant = values.tenant;
  if (tenant !== undefined && !isTenantName(tenant))
    throw new UsageError(`--tenant must be 1-63 of a-z 0-9 - _, starting with a letter or digit, got "${tenant}"`);
  return { kind: "keys", keys: { action, file, name: keyName, role, ...(tenant === undefined ? {} : { tenant }) } };
}

export /** `strand tenant list|create|drop|stats <url> [name]`: the admin routes of a running server. */
function tenantCommand(rest: string[], env: NodeJS.ProcessEnv): AccessCommand {
  const { values, positionals } = parse("tenant", rest, TENANT_FLAGS);
  if (values.help === true) return { kind: "help", command: "tenant" };
  const [action, target, name, ...extra] = positionals;
  if (action !== "list" && action !== "create" && action !== "drop" && action !== "stats")
    throw new UsageError(`strand tenant: expected list, create, drop or stats, got ${action === undefined ? "nothing" : `"${action}"`}`);
  const url = target === undefined ? null : leaderUrl(target);
  if (url === null)
    throw new UsageError(`strand tenant ${action} needs a server's http(s) URL${target === undefined ? "" : `, got "${target}"`}`);
  if (extra.length > 0) throw new UsageError(`strand tenant: unexpected ${extra.join(" ")}`);
  const key = nonEmpty("--key", values.key) ?? (env.STRAND_API_KEY === "" ? undefined : env.STRAND_API_KEY);
  if (action === "list") {
    if (name !== undefined) throw new UsageError("strand tenant list takes no name");
    return { kind: "tenant", tenant: { action, url, key } };
  }
  if (name === undefined || !isTenantName(name))
    throw new UsageError(
      `strand tenant ${action} needs a tenant's name (1-63 of a-z 0-9 - _)${name === undefined ? "" : `, got "${name}"`}`,
    );
  return { kind: "tenant", tenant: { action, url, key, name } };
}
