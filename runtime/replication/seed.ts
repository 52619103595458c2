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

/** Downloads the leader's backup to `<dir>/data.mdb.seed`; the file's path, once checked. Throws with the reason. */
export async function downloadSeed(leader: LeaderAccess, dir: string, member?: string): Promise<string> {
  makeDirs(dir);
  // A group's member names itself, so its leader counts what the backup holds as sent to it.
  const res = await leaderFetch(leader, member === undefined ? SEED_PATH : `${SEED_PATH}?member=${encodeURIComponent(member)}`, 0);
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

/** Where installSeed keeps the data file a re-seed replaced (one: each re-seed replaces it). */
export const REPLACED_DATA_FILE = `${BACKUP_DATA_FILE}.replaced`;

/**
 * Puts a downloaded seed in place as `<dir>/data.mdb`, replacing the store files there (the
 * store must be closed): the LMDB lock file and the HNSW checkpoints, which the next open
 * rebuilds from the seed. The data file it replaces is kept as REPLACED_DATA_FILE, whose path
 * it returns (null when there was none): a re-seed also follows a mistake (a store with writes
 * of its own started with --follow, a leader of another history), and deleting that store's data
 * would be the one loss no one could undo.
 */
export function installSeed(seed: string, dir: string): string | null {
  fs.rmSync(path.join(dir, "lock.mdb"), { force: true });
  fs.rmSync(path.join(dir, "vectors"), { recursive: true, force: true });
  const data = path.join(dir, BACKUP_DATA_FILE);
  const kept = fs.existsSync(data) ? path.join(dir, REPLACED_DATA_FILE) : null;
  if (kept !== null) fs.renameSync(data, kept);
  fs.renameSync(seed, data);
  fsyncPath(dir);
  return kept;
}

/** The log line's tail naming the kept data file, or "" when nothing was replaced. */
export function keptNote(kept: string | null): string {
  return kept === null ? "" : `; the store it replaced is kept as ${kept} until the next re-seed (delete it once not needed)`;
}

/** Whether `dir` holds no store yet (a replica seeds it first). */
export function needsSeed(dir: string): boolean {
  return !fs.existsSync(path.join(dir, BACKUP_DATA_FILE));
}
