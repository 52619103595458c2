// Tenant log positions kept on disk. A closed tenant's (sequence and commit time) in
// `<tenant>/closed-seq`, written when it closes, so a leader and its replicas compare tenants without opening the idle ones
// (tenant-feed.ts, tenant-sync.ts). The marker is removed, durably, before the store's first write
// after it opens (or a replica applies entries to it, or a seed replaces it): a marker present
// always names what the store holds, even after a crash. Reads leave it, so the first request to
// an idle tenant pays no fsync.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fsyncPath } from "../../runtime/backup/files.js";
import type { LogPosition } from "../../runtime/replication/protocol.js";

const MARKER = "closed-seq";

/** The position in a tenant folder's marker; null when there is none (open, or it crashed after a write) or it does not parse. */
export function readClosedPosition(dir: string): LogPosition | null {
  try {
    const match = /^(\d{1,15}) (\d{1,15}|-)\n$/.exec(readFileSync(join(dir, MARKER), "utf8"));
    return match === null ? null : { seq: Number(match[1]), time: match[2] === "-" ? null : Number(match[2]) };
  } catch {
    return null;
  }
}

/** Records the position of a store just closed. */
export function writeClosedPosition(dir: string, at: LogPosition): void {
  writeFileSync(join(dir, MARKER), `${at.seq} ${at.time ?? "-"}\n`);
}

/** Removes the marker, durably (before the store changes). */
export function forgetClosedPosition(dir: string): void {
  const marker = join(dir, MARKER);
  if (!existsSync(marker)) return;
  rmSync(marker, { force: true });
  fsyncPath(dir);
}

/** Removes a tenant's marker once, before the first change of its store since it opened. */
export class ClosedMarker {
  private forgotten = false;

  constructor(private readonly dir: string) {}

  beforeChange(): void {
    if (this.forgotten) return;
    forgetClosedPosition(this.dir);
    this.forgotten = true;
  }
}

/**
 * The last sequence of each tenant dropped here, in `<data>/tenants-dropped/<name>`: a tenant
 * created again under that name continues its log after it (GraphStore.continueLogAfter), so its
 * sequences, and the Strand-After bookmarks clients hold, never go backward while a replica may
 * still hold the dropped one's records at a higher sequence.
 */
const DROPPED_DIR = "tenants-dropped";

export function readDroppedSeq(dataDir: string, name: string): number | null {
  try {
    const text = readFileSync(join(dataDir, DROPPED_DIR, name), "utf8");
    return /^\d{1,15}\n$/.test(text) ? Number(text) : null;
  } catch {
    return null;
  }
}

/** Records a dropped tenant's last sequence (the highest seen under its name). */
export function writeDroppedSeq(dataDir: string, name: string, seq: number): void {
  if (seq === 0) return; // nothing to continue after
  const before = readDroppedSeq(dataDir, name) ?? 0;
  mkdirSync(join(dataDir, DROPPED_DIR), { recursive: true });
  writeFileSync(join(dataDir, DROPPED_DIR, name), `${Math.max(before, seq)}\n`);
}
