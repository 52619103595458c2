// The keys file: one key per line, `<name> <role> sha256:<hex digest> [tenant=<tenant>]` (a key
// for one tenant only, server/tenants/), `#` comments and blank lines ignored. Only digests are kept at rest; `strand keys add` makes a key, prints it once and appends
// its line. A file that does not parse is refused whole, naming the line, so a bad edit never
// drops or weakens keys silently (the server keeps the keys it had).
import { randomBytes } from "node:crypto";
import { isTenantName } from "../../core/tenant-name.js";
import { type KeyEntry, keyDigest, ROLES, type Role } from "./key-ring.js";

export type KeysFileParse = { ok: true; entries: KeyEntry[] } | { ok: false; problem: string };

const NAME = /^[A-Za-z0-9._-]{1,64}$/;
const DIGEST = /^sha256:([0-9a-f]{64})$/;

export function parseKeysFile(text: string): KeysFileParse {
  const entries: KeyEntry[] = [];
  const names = new Set<string>();
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === "" || line.startsWith("#")) continue;
    const at = `line ${i + 1}`;
    const fields = line.split(/\s+/);
    if (fields.length !== 3 && fields.length !== 4)
      return { ok: false, problem: `${at}: expected "<name> <role> sha256:<digest> [tenant=<tenant>]", got ${fields.length} fields` };
    const [name, role, digest, bound] = fields as [string, string, string, string | undefined];
    if (!NAME.test(name)) return { ok: false, problem: `${at}: the name "${name}" must be 1-64 of A-Z a-z 0-9 . _ -` };
    if (names.has(name)) return { ok: false, problem: `${at}: the name "${name}" is used twice` };
    if (!isRole(role)) return { ok: false, problem: `${at}: the role "${role}" is not one of ${ROLES.join(", ")}` };
    const hex = DIGEST.exec(digest)?.[1];
    if (hex === undefined) return { ok: false, problem: `${at}: the digest must be sha256: and 64 lower-case hex digits` };
    let tenant: string | undefined;
    if (bound !== undefined) {
      tenant = /^tenant=(.*)$/.exec(bound)?.[1];
      if (tenant === undefined || !isTenantName(tenant))
        return { ok: false, problem: `${at}: the fourth field must be tenant=<tenant> (1-63 of a-z 0-9 - _), got "${bound}"` };
    }
    names.add(name);
    entries.push({ name, role, digest: Buffer.from(hex, "hex"), ...(tenant === undefined ? {} : { tenant }) });
  }
  return { ok: true, entries };
}

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

export function isKeyName(value: string): boolean {
  return NAME.test(value);
}

/** A new random key (256 bits, base64url, prefixed so it is recognisable in a leak scan). */
export function newKey(): string {
  return `strand_${randomBytes(32).toString("base64url")}`;
}

/** The line a key is kept as. */
export function keysFileLine(name: string, role: Role, key: string, tenant?: string): string {
  return `${name} ${role} sha256:${keyDigest(key).toString("hex")}${tenant === undefined ? "" : ` tenant=${tenant}`}`;
}
