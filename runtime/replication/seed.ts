// Seeding a replica: the leader's online backup (GET /replication/backup), streamed into
// `<dir>/data.mdb.seed` while its SHA-256 is computed, checked against the manifest that came
// with it, fsynced, and only then renamed to data.mdb. An interrupted or damaged download leaves
// no data.mdb, so the next start seeds again. The copy holds the log up to its sequence: the replica follows
// the log from there.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fsyncPath } from "../backup/files.js";
import type { BackupManifest } from "../backup/manifest.js";
import { BACKUP_DATA_FILE } from "../backup/manifest.js";
import { BACKUP_MANIFEST_HEADER, SEED_PATH } from "./protocol.js";
import { leaderFetch, type LeaderAccess } from "./leader-fetch.js";
import { makeDirs } from "../store/make-dirs.js";

const SEED_SUFFIX = ".seed";

/** How long a seed waits for the leader's turn (it sends one backup at a time) before giving up. */
const MAX_SEED_WAIT_S = 600;

/**
 * Downloads the leader's backup to `<dir>/data.mdb.seed`; the file's path, once checked. Throws
 * with the reason. `prefix`: a tenant's (`/t/<tenant>`), for its store's backup.
 */
export async function downloadSeed(leader: LeaderAccess, dir: string, member?: string, prefix = ""): Promise<string> {
  makeDirs(dir);
  // A group's member names itself, so its leader counts what the backup holds as sent to it.
  const seedPath = prefix + (member === undefined ? SEED_PATH : `${SEED_PATH}?member=${encodeURIComponent(member)}`);
  let res = await leaderFetch(leader, seedPath, 0);
  // The leader sends one backup at a time (server/http/backup-route.ts): wait for its turn, asking
  // again soon at first (a new tenant's backup, which another replica is taking, is sent in a few
  // ms: with synchronous replicas a tenant's first write waits for it), then every second.
  for (let waitedMs = 0, pause = 25; res.status === 503 && waitedMs < MAX_SEED_WAIT_S * 1000; waitedMs += pause) {
    await res.body?.cancel();
    pause = Math.min(pause * 2, 1_000);
    await new Promise((r) => setTimeout(r, pause));
    res = await leaderFetch(leader, seedPath, 0);
  }
  if (!res.ok || res.body === null) throw new Error(`the leader refused its backup: ${res.status} ${await res.text()}`);
  const manifestText = res.headers.get(BACKUP_MANIFEST_HEADER);
  if (manifestText === null) throw new Error(`the leader's backup came without its manifest (${BACKUP_MANIFEST_HEADER})`);
  const manifest = JSON.parse(manifestText) as BackupManifest;
  const expected = manifest.files.find((f) => f.path === BACKUP_DATA_FILE);
  if (expected === undefined) throw new Error(`the leader's backup manifest lists no ${BACKUP_DATA_FILE}`);
  const target = path.join(dir, BACKUP_DATA_FILE + SEED_SUFFIX);
  const hash = createHash("sha256");
  let bytes = 0;
  const fd = fs.openSync(target, "w");
  try {
    for await (const chunk of res.body) {
      const data = chunk as Uint8Array;
      hash.update(data);
      bytes += data.length;
      for (let at = 0; at < data.length; ) at += fs.writeSync(fd, data, at);
    }
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  if (bytes !== expected.bytes || hash.digest("hex") !== expected.sha256) {
    fs.rmSync(target, { force: true });
    throw new Error(`the leader's backup arrived damaged (${bytes} bytes, the manifest says ${expected.bytes})`);
  }
  return target;
}

/** The data files re-seeds replaced are kept as `data.mdb.replaced-<history>`, the newest few. */
export const REPLACED_PREFIX = `${BACKUP_DATA_FILE}.replaced-`;
/** How many replaced data files a directory keeps at most: the oldest go first. */
export const MAX_REPLACED = 3;

/**
 * Puts a downloaded seed in place as `<dir>/data.mdb`, replacing the store files there (the
 * store must be closed): the LMDB lock file and the HNSW checkpoints, which the next open
 * rebuilds from the seed. The data file it replaces is kept as `data.mdb.replaced-<history>`
 * (`history` names it: the sequence it was at, and its epoch in a group), whose path it returns
 * (null when there was none), and only the newest MAX_REPLACED are kept: a re-seed also follows
 * a mistake or a failover (a store with writes of its own started with --follow, an old leader's
 * unacknowledged writes), and deleting that data at once would be the one loss no one could
 * undo; one copy alone was overwritten by the next re-seed within seconds.
 */
export function installSeed(seed: string, dir: string, history: string): string | null {
  fs.rmSync(path.join(dir, "lock.mdb"), { force: true });
  fs.rmSync(path.join(dir, "vectors"), { recursive: true, force: true });
  const data = path.join(dir, BACKUP_DATA_FILE);
  const kept = fs.existsSync(data) ? path.join(dir, `${REPLACED_PREFIX}${history}`) : null;
  if (kept !== null) fs.renameSync(data, kept);
  fs.renameSync(seed, data);
  fsyncPath(dir);
  if (kept !== null) dropOldReplaced(dir, kept);
  return kept;
}

/** Keeps the newest MAX_REPLACED replaced data files (by modification time; `keep` always). */
function dropOldReplaced(dir: string, keep: string): void {
  const replaced = fs
    .readdirSync(dir)
    .filter((name) => name.startsWith(REPLACED_PREFIX))
    .map((name) => path.join(dir, name))
    .filter((file) => file !== keep)
    .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
  for (const old of replaced.slice(MAX_REPLACED - 1)) fs.rmSync(old, { force: true });
}

/** The log line's tail naming the kept data file and how to read it, or "" when nothing was replaced. */
export function keptNote(kept: string | null): string {
  if (kept === null) return "";
  return `; the store it replaced is kept as ${kept} (the newest ${MAX_REPLACED} are kept; to read one: move it into a new directory as data.mdb, then strand export --data that directory)`;
}

/** Whether `dir` holds no store yet (a replica seeds it first). */
export function needsSeed(dir: string): boolean {
  return !fs.existsSync(path.join(dir, BACKUP_DATA_FILE));
}
