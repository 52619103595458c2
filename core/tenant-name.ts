// Tenant names: what a request names in `/t/<tenant>/…` or `Strand-Tenant`, and the folder its
// graph lives in (`<data>/tenants/<name>`), so only lower-case letters, digits, `-` and `_`,
// starting with a letter or digit, at most 63 characters: safe in a path on every file system
// (no case folding, no dots). `default` names the project's own graph, served without a prefix.
import { echo } from "./echo.js";
import { StrandError } from "./errors.js";

export const DEFAULT_TENANT = "default";
const NAME = /^[a-z0-9][a-z0-9_-]{0,62}$/;

export function isTenantName(value: string): boolean {
  return NAME.test(value);
}

/** INVALID_TENANT naming the value and the rule, or null for a valid name. */
export function tenantNameProblem(value: string): StrandError | null {
  if (NAME.test(value)) return null;
  return new StrandError("INVALID_TENANT", `invalid tenant name "${echo(value)}": 1 to 63 of a-z 0-9 - _, starting with a letter or digit`);
}
