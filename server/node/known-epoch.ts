// The highest epoch a data directory's node has led or followed, kept in `<data>/cluster-epoch`
// so that it outlives etcd's keys (server/cluster/failover.ts: a node does not follow a leader of
// a lower epoch). Written to a temporary file, fsynced and renamed into place before the node
// acts in the new epoch, so a crash leaves the old value or the new one.
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import { join } from "node:path";

export const EPOCH_FILE = "cluster-epoch";

/** The epoch kept in `dataDir`, 0 when none is (a node that never joined a group) or the file is unreadable. */
export function readKnownEpoch(dataDir: string): number {
  let text: string;
  try {
    text = readFileSync(join(dataDir, EPOCH_FILE), "utf8").trim();
  } catch {
    return 0;
  }
  return /^\d{1,15}$/.test(text) ? Number(text) : 0;
}

/** Keeps `epoch` as the data directory's known epoch, durably. */
export function writeKnownEpoch(dataDir: string, epoch: number): void {
  const file = join(dataDir, EPOCH_FILE);
  const temporary = `${file}.tmp`;
  const fd = openSync(temporary, "w");
  try {
    writeSync(fd, `${epoch}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, file);
  const dir = openSync(dataDir, "r");
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}
