// `strand import [dir] --data DIR FILE...`: loads JSON Lines or CSV files into the project's
// store (runtime/data/import.ts), each file in one write transaction. It opens the store like
// `serve` does, so it refuses a directory a server holds (stop the server, import, start it).
// Exit 0 with a summary per file; 1 on the first file that cannot be imported (nothing of that
// file is applied; files before it stay imported), and 1 when --skip-bad left out every record
// of a file (the other files stay imported): a file none of whose records fit is a wrong file or
// a wrong schema far more often than a file to skip.
import fs from "node:fs";
import { type FileOutcome, importFileOf, ImportError, importFiles } from "../../runtime/data/import.js";
import { isInsideDir } from "../../runtime/store/inside-dir.js";
import { cliProgress } from "../progress/progress.js";
import { openProject } from "../project/open-project.js";
import { displayPath } from "../project/sources.js";
import { noneGiven } from "../config/given.js";

export interface ImportOptions {
  dir: string;
  dataDir: string;
  files: string[];
  /** CSV files: the type their rows are (default: each file's name without .csv). */
  csvType: string | undefined;
  skipBad: boolean;
  rejectsPath: string | undefined;
}

export async function runImport(options: ImportOptions): Promise<number> {
  const badRejects = options.rejectsPath === undefined ? null : rejectsPathProblem(options.rejectsPath, options);
  if (badRejects !== null) {
    process.stderr.write(`strand: --rejects ${displayPath(options.rejectsPath!)}: ${badRejects}; nothing was imported\n`);
    return 1;
  }
  // An import runs no query: its reads of the store have no time limit.
  const flags = { ...noneGiven(), store: { dataDir: options.dataDir, queryTimeoutMs: 0 } };
  const opened = await openProject(options.dir, flags, "importing");
  if (opened === null) return 1;
  const { store } = opened;
  try {
    const outcomes = await importFiles(
      store,
      options.files.map((file) => importFileOf(file, options.csvType)),
      {
        skipBad: options.skipBad,
        ...(options.rejectsPath !== undefined ? { rejectsPath: options.rejectsPath } : {}),
        progress: cliProgress(),
      },
    );
    for (const o of outcomes) printOutcome(o, options.rejectsPath);
    // Several files are several transactions: the freed pages would slow the server's first writes.
    store.settleFreeList();
    const allRejected = outcomes.filter((o) => o.loaded === 0 && o.rejected > 0);
    for (const o of allRejected) {
      const all = o.rejected === 1 ? "its one record was" : `all ${o.rejected} records were`;
      process.stderr.write(
        `strand: ${displayPath(o.path)}: ${all} rejected, nothing of it was imported (is it the right file for this schema?)\n`,
      );
    }
    return allRejected.length > 0 ? 1 : 0;
  } catch (error) {
    if (!(error instanceof ImportError)) throw error;
    for (const o of error.imported) printOutcome(o, options.rejectsPath);
    process.stderr.write(`strand: ${displayPath(error.file)}${error.line === null ? "" : `:${error.line}`}: ${error.reason}\n`);
    if (error.imported.length > 0) {
      const files = error.imported.map((o) => displayPath(o.path)).join(", ");
      process.stderr.write(
        `strand: ${files} ${error.imported.length === 1 ? "was" : "were"} imported before it and stay${error.imported.length === 1 ? "s" : ""}: import only ${displayPath(error.file)} and the files after it again\n`,
      );
    }
    return 1;
  } finally {
    await store.close();
  }
}

/**
 * Why the rejects file cannot be where it is asked for, or null. It is truncated when the import
 * starts: inside the data directory it could be `data.mdb` itself (which a Bus error and an empty
 * store followed), and as one of the inputs it would empty that file before it is read.
 */
function rejectsPathProblem(rejects: string, options: ImportOptions): string | null {
  if (isInsideDir(rejects, options.dataDir)) {
    return `inside the data directory ${displayPath(options.dataDir)}; write the rejects to a file outside it`;
  }
  const input = options.files.find((file) => sameFile(file, rejects));
  if (input !== undefined) return `the same file as the input ${displayPath(input)}; write the rejects to another file`;
  return null;
}

/** Whether two paths name one file: the same path once links are resolved, or one inode (a hard link). */
function sameFile(a: string, b: string): boolean {
  if (isInsideDir(a, b)) return true;
  try {
    const [x, y] = [fs.statSync(a), fs.statSync(b)];
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    return false; // one of them does not exist (yet): not the same file
  }
}

/** Without --rejects, the first record left out and why, so the reason is never lost. */
function printOutcome(o: FileOutcome, rejectsPath: string | undefined): void {
  const where =
    rejectsPath !== undefined
      ? ` (in ${displayPath(rejectsPath)})`
      : o.firstRejected === null
        ? ""
        : ` (the first, line ${o.firstRejected.line}: ${o.firstRejected.reason}; --rejects FILE keeps each with its reason)`;
  const rejected = o.rejected === 0 ? "" : `, ${o.rejected} rejected${where}`;
  process.stdout.write(`${displayPath(o.path)}: ${o.loaded} ${o.loaded === 1 ? "record" : "records"} imported${rejected}\n`);
}
