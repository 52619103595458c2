// This data directory's identity in its failover group: a member id, made once (random) and kept
// in `<data>/cluster-member`, and a member key, kept in `<data>/cluster-member-key` (readable by
// the owner only). The member publishes the key's SHA-256 in its etcd record and sends the key
// with every log request it makes of its leader: the leader counts a replica's acknowledgement only
// from a request that carries that member's key, so whoever holds the group's replication key
// alone cannot acknowledge writes in a replica's name. A new directory is a new member.
import { createHash, randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeDirs } from "../../runtime/store/make-dirs.js";

export const MEMBER_FILE = "cluster-member";
export const MEMBER_KEY_FILE = "cluster-member-key";

export interface MemberIdentity {
  readonly id: string;
  /** The secret this member proves itself with (never leaves the node but in its own log requests). */
  readonly key: string;
  /** SHA-256 of the key, hex: what the group holds of it. */
  readonly keyDigest: string;
}

export function memberIdentity(dataDir: string): MemberIdentity {
  const id = kept(join(dataDir, MEMBER_FILE), /^[A-Za-z0-9._-]{1,64}$/, () => `n${randomBytes(4).toString("hex")}`, dataDir);
  const key = kept(join(dataDir, MEMBER_KEY_FILE), /^[0-9a-f]{64}$/, () => randomBytes(32).toString("hex"), dataDir);
  return { id, key, keyDigest: memberKeyDigest(key) };
}

export function memberKeyDigest(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/** The file's value when it holds a valid one; else a new value, written (owner-only). */
function kept(file: string, valid: RegExp, make: () => string, dataDir: string): string {
  if (existsSync(file)) {
    const value = readFileSync(file, "utf8").trim();
    if (valid.test(value)) return value;
  }
  const value = make();
  makeDirs(dataDir);
  writeFileSync(file, `${value}\n`, { mode: 0o600 });
  return value;
}
