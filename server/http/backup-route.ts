// `GET /backup`: a backup of the served store, streamed — the body is the backup's data.mdb (a
// consistent LMDB copy of one snapshot, taken while writes go on) and the `x-strand-backup-manifest`
// header its manifest (runtime/backup/manifest.ts), whose size and SHA-256 let the receiver check
// what it got: write the body as data.mdb and the header as manifest.json, and the directory is a
// backup `strand restore` takes. It is served only when the server has keys, to admin keys: a
// backup is every record at once.
//
// The copy is made in a temporary directory (os.tmpdir(), which needs room for one copy of the
// store), opened, and removed at once; the open descriptor keeps the file until the body is sent.
// One backup at a time per process (`GET /backup` and a replica's seed alike): each holds a whole
// copy until its client has read it, and three unread ones filled a small temp directory, after
// which writes failed; another is 503 SERVER_BUSY with Retry-After until the one in flight ends.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import type { Context } from "hono";
import { StrandError } from "../../core/errors.js";
import type { BackupOutcome } from "../../runtime/backup/backup.js";
import { BACKUP_DATA_FILE } from "../../runtime/backup/manifest.js";
import { callerOf, roleForbidden } from "./caller.js";
import { type KeyRing, roleAllows } from "../access/key-ring.js";
import { jsonErrorResponse } from "./error-response.js";

export const BACKUP_PATH = "/backup";

/** GET /backup's refusal: none for an admin key; a server without keys serves no backup. */
export function backupAccess(keys: KeyRing): (c: Context) => StrandError | null {
  return (c) => {
    if (!keys.keyed)
      return new StrandError("UNAUTHORIZED", "GET /backup is served only by a server with an api key (strand serve --api-key KEY)");
    const caller = callerOf(c);
    return roleAllows(caller.role, "admin") ? null : roleForbidden(caller, "GET /backup", "admin");
  };
}
export const MANIFEST_HEADER = "x-strand-backup-manifest";

/** What the route needs of the store: `GraphStore` satisfies it. */
export interface BackupSource {
  backup(out: string): Promise<BackupOutcome>;
}

/** Backups being copied or sent, in this process (at most one). */
let backupsInFlight = 0;

/** `refusal` says why this request may not have a backup, or null. */
export function backupRoute(source: BackupSource, refusal: (c: Context) => StrandError | null): (c: Context) => Promise<Response> {
  return async (c) => {
    // Hono answers HEAD with the GET handler: that would copy the whole store to send no body.
    if (c.req.method === "HEAD")
      return jsonErrorResponse(new StrandError("METHOD_NOT_ALLOWED", "method HEAD is not allowed on /backup; use GET"), { allow: "GET" });
    const refused = refusal(c);
    if (refused !== null) return jsonErrorResponse(refused);
    if (backupsInFlight > 0)
      return jsonErrorResponse(
        new StrandError(
          "SERVER_BUSY",
          "a backup is being copied or sent already (one at a time: each holds a whole copy of the store until read); retry shortly",
        ),
        { "retry-after": "1" },
      );
    backupsInFlight++;
    let fd: number;
    let outcome: BackupOutcome;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "strand-backup-"));
    try {
      outcome = await source.backup(path.join(dir, "backup"));
      if (!outcome.ok) throw new Error(`backup failed: ${outcome.message}`);
      fd = fs.openSync(path.join(dir, "backup", BACKUP_DATA_FILE), "r");
    } catch (error) {
      backupsInFlight--;
      throw error;
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const file = fs.createReadStream("", { fd });
    // Sent, failed or abandoned by its client: the copy is gone with the descriptor.
    file.once("close", () => {
      backupsInFlight--;
    });
    const body = Readable.toWeb(file) as ReadableStream<Uint8Array>;
    const bytes = outcome.manifest.files.find((f) => f.path === BACKUP_DATA_FILE)!.bytes;
    return new Response(body, {
      headers: {
        "content-type": "application/octet-stream",
        "content-length": String(bytes),
        [MANIFEST_HEADER]: JSON.stringify(outcome.manifest),
      },
    });
  };
}
