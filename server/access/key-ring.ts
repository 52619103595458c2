// Who may call, and with what role. A server's keys come from flags (fixed for its life) and from a
// keys file (replaced whole on reload, see keys-file.ts). Keys are held as SHA-256 digests only and
// compared in constant time against every key, so neither which key matched nor a key's length
// leaks through timing. A fast hash suffices: keys are random secrets, not passwords.
import { createHash, timingSafeEqual } from "node:crypto";

/** read: queries that only read. write: also writes. admin: also /backup and replication. */
export type Role = "read" | "write" | "admin";
export const ROLES: readonly Role[] = ["read", "write", "admin"];

export interface KeyEntry {
  name: string;
  role: Role;
  digest: Buffer;
  /** The one tenant the key is for (server/tenants/); absent: every tenant. */
  tenant?: string;
}

/** The caller a request's key names; `anonymous` on a server without keys. */
export interface Caller {
  name: string;
  role: Role;
  tenant?: string;
}

export const ANONYMOUS: Caller = { name: "anonymous", role: "admin" };

export function keyDigest(key: string): Buffer {
  return createHash("sha256").update(key, "utf8").digest();
}

export function roleAllows(role: Role, needed: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(needed);
}

export class KeyRing {
  private loaded: readonly KeyEntry[] = [];

  /**
   * `fromFile`: whether a keys file feeds this ring. Such a server stays keyed when the file is
   * emptied: an empty file refuses everyone rather than opening the server to anyone.
   */
  constructor(
    private readonly fixed: readonly KeyEntry[],
    private readonly fromFile = false,
  ) {}

  /** Whether requests must carry a key (false: everyone is ANONYMOUS). */
  get keyed(): boolean {
    return this.fromFile || this.fixed.length > 0;
  }

  get size(): number {
    return this.fixed.length + this.loaded.length;
  }

  /** Replaces the keys read from the keys file. */
  replaceLoaded(entries: readonly KeyEntry[]): void {
    this.loaded = entries;
  }

  /** The entry whose key this is; every entry is compared, whichever matches. */
  find(presented: string): KeyEntry | undefined {
    const digest = keyDigest(presented);
    let found: KeyEntry | undefined;
    for (const entry of this.fixed) if (timingSafeEqual(digest, entry.digest) && found === undefined) found = entry;
    for (const entry of this.loaded) if (timingSafeEqual(digest, entry.digest) && found === undefined) found = entry;
    return found;
  }

  /** Counts by role, for the log line of a reload. */
  counts(): Record<Role, number> {
    const counts: Record<Role, number> = { read: 0, write: 0, admin: 0 };
    for (const entry of [...this.fixed, ...this.loaded]) counts[entry.role]++;
    return counts;
  }
}

/** A ring of the keys given as flags: the api key (admin) and the read key. */
export function fixedKeyRing(keys: { apiKey?: string | undefined; readKey?: string | undefined }, fromFile = false): KeyRing {
  const fixed: KeyEntry[] = [];
  if (keys.apiKey !== undefined && keys.apiKey !== "") fixed.push({ name: "api-key", role: "admin", digest: keyDigest(keys.apiKey) });
  if (keys.readKey !== undefined && keys.readKey !== "") fixed.push({ name: "read-key", role: "read", digest: keyDigest(keys.readKey) });
  return new KeyRing(fixed, fromFile);
}
