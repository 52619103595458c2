// `strand backup` and `strand restore` (runtime/backup/). Backup works while a server holds the
// directory; restore fills a new or empty directory and then runs `strand verify`'s check on it.
// Progress goes to stderr (a bar on a terminal), the one-line result to stdout.
import fs from "node:fs";
import { backupDataDir, partialBackupPath } from "../../runtime/backup/backup.js";
import { restoreBackup } from "../../runtime/backup/restore.js";
import { cliProgress } from "../progress/progress.js";
import { displayPath } from "../project/sources.js";
import { FORMAT_VERSION } from "../../runtime/store/keys.js";
import { noteRemoved, removeAbandonedPartials } from "./abandoned-partials.js";
import { runVerify } from "./verify.js";

export async function runBackup(dataDir: string, out: string): Promise<number> {
  // Ctrl-C while copying: the unfinished copy is removed (it would never be taken for a backup,
  // having no manifest, but it takes the store's size on disk).
  const interrupted = (signal: NodeJS.Signals): void => {
    fs.rmSync(partialBackupPath(displayPath(out)), { recursive: true, force: true });
    process.stderr.write(`strand: ${signal}, backup abandoned\n`);
    process.exit(130);
  };
  process.once("SIGINT", interrupted);
  process.once("SIGTERM", interrupted);
  noteRemoved(removeAbandonedPartials(displayPath(out)));
  const outcome = await backupDataDir(displayPath(dataDir), displayPath(out), cliProgress());
  process.off("SIGINT", interrupted);
  process.off("SIGTERM", interrupted);
  if (!outcome.ok) {
    process.stderr.write(`strand: ${outcome.message}\n`);
    return 1;
  }
  const bytes = outcome.manifest.files.reduce((sum, f) => sum + f.bytes, 0);
  process.stdout.write(`backup ${outcome.dir}: ${bytes} bytes, snapshot of ${outcome.manifest.created}\n`);
  return 0;
}

export async function runRestore(backup: string, dataDir: string): Promise<number> {
  const outcome = restoreBackup(displayPath(backup), displayPath(dataDir), cliProgress());
  if (!outcome.ok) {
    process.stderr.write(`strand: ${outcome.message}\n`);
    return 1;
  }
  process.stdout.write(`restored ${displayPath(backup)} (snapshot of ${outcome.manifest.created}) into ${displayPath(dataDir)}\n`);
  // A backup of an older store format restores as it is and is migrated at its first open
  // (runtime/format/format-migration.ts); the check reads only the current format, so it waits.
  if (outcome.manifest.store_format !== FORMAT_VERSION) {
    process.stdout.write(
      `the store is in format ${outcome.manifest.store_format}: it is migrated to format ${FORMAT_VERSION} when it is first opened (strand serve or strand import); run strand verify after that\n`,
    );
    return 0;
  }
  // The restored store must pass the integrity check; its vector indexes rebuild at first open.
  return runVerify(dataDir);
}
