// This data directory's member id in its failover group: made once (random), kept in
// `<data>/cluster-member`, read at every start. A new directory is a new member.
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeDirs } from "../../runtime/store/make-dirs.js";

export const MEMBER_FILE = "cluster-member";

export function memberId(dataDir: string): string {
  const file = join(dataDir, MEMBER_FILE);
  if (existsSync(file)) {
    const id = readFileSync(file, "utf8").trim();
    if (/^[A-Za-z0-9._-]{1,64}$/.test(id)) return id;
  }
  const id = `n${randomBytes(4).toString("hex")}`;
  makeDirs(dataDir);
  writeFileSync(file, `${id}\n`);
  return id;
}
