// `strand export [dir] --data DIR [--out FILE|-]`: every record of the data directory as JSON
// Lines (runtime/data/export.ts), from one consistent snapshot. It opens the data read-only and
// takes no lock, so it works while a server serves (and writes) the same directory. The types
// come from the data itself (what its records were last checked against), so [dir] is accepted
// for symmetry with serve and import but not read. Progress goes to stderr; with --out - the records go to stdout.
// A file is written as FILE.partial-<pid> and renamed to FILE once whole and synced: an export that
// is killed or fails leaves no FILE that looks complete (it imported as a silently shorter one).
import fs from "node:fs";
import { once } from "node:events";
import { exportDataDir } from "../../runtime/data/export.js";
import { isInsideDir } from "../../runtime/store/inside-dir.js";
import { cliProgress } from "../progress/progress.js";
import { noteRemoved, removeAbandonedPartials } from "./abandoned-partials.js";
import { displayPath } from "../project/sources.js";

/** Ctrl-C or a plain kill: the unfinished file goes, and the status says which signal (128 + n). */
function removeOnSignal(partial: string): void {
  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const) {
    process.once(signal, () => {
      fs.rmSync(partial, { force: true });
      process.exit(code);
    });
  }
}

/** Syncs the whole export and gives it its name (a rename within one directory is atomic). */
function settle(partial: string, out: string): void {
  const fd = fs.openSync(partial, "r");
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(partial, out);
}

/** The status of a process killed by SIGPIPE, which `strand export | head` returns. */
const EXIT_BROKEN_PIPE = 141;

export interface ExportOptions {
  dataDir: string;
  /** A file path, or "-" for stdout. */
  out: string;
}

export async function runExport(options: ExportOptions): Promise<number> {
  const toStdout = options.out === "-";
  if (!toStdout && isInsideDir(options.out, options.dataDir)) {
    // Opening it would truncate it first: DIR/data.mdb is the store itself.
    process.stderr.write(
      `strand: ${displayPath(options.out)} is inside the data directory ${displayPath(options.dataDir)}; export to a file outside it\n`,
    );
    return 1;
  }
  const partial = `${options.out}.partial-${process.pid}`;
  if (!toStdout) {
    removeOnSignal(partial);
    noteRemoved(removeAbandonedPartials(options.out));
  }
  const stream = toStdout ? process.stdout : fs.createWriteStream(partial);
  // `on`, not `once`: a closed pipe can report EPIPE for each write still queued.
  const failed = new Promise<never>((_, reject) => stream.on("error", reject));
  failed.catch(() => {});
  // Resolves once the chunk is written out (the export then reuses its memory); a write queued
  // behind the stream's buffer waits for it, which holds the export back to the writer's pace.
  const write = (chunk: Buffer): Promise<void> =>
    Promise.race([
      new Promise<void>((resolve) =>
        stream.write(chunk, (error) => {
          if (!error) resolve(); // an error rejects `failed`
        }),
      ),
      failed,
    ]);
  let outcome: Awaited<ReturnType<typeof exportDataDir>>;
  try {
    outcome = await exportDataDir(options.dataDir, write, cliProgress());
    if (!toStdout) {
      (stream as fs.WriteStream).end();
      await Promise.race([once(stream, "finish"), failed]);
    }
  } catch (error) {
    if (!toStdout) fs.rmSync(partial, { force: true });
    // The reader went away (`strand export ... | head`): stop quietly, as Unix tools do on
    // SIGPIPE (status 128 + 13), instead of a stack trace.
    if (toStdout && (error as NodeJS.ErrnoException).code === "EPIPE") return EXIT_BROKEN_PIPE;
    throw error;
  }
  if (typeof outcome === "string") {
    process.stderr.write(`strand: ${outcome}\n`);
    if (!toStdout) fs.rmSync(partial, { force: true });
    return 1;
  }
  if (!toStdout) settle(partial, options.out);
  const where = toStdout ? "" : ` to ${displayPath(options.out)}`;
  process.stderr.write(`exported ${outcome.nodes} nodes, ${outcome.vectors} vectors, ${outcome.edges} edges${where}\n`);
  if (outcome.damaged !== undefined) {
    // Everything else is written; say what is missing, and fail the command so scripts notice.
    const shown = outcome.damaged
      .slice(0, 10)
      .map((d) => `\n  ${d}`)
      .join("");
    const more = outcome.damaged.length > 10 ? `\n  and ${outcome.damaged.length - 10} more` : "";
    process.stderr.write(
      `strand: ${outcome.damaged.length} ${outcome.damaged.length === 1 ? "record does" : "records do"} not decode (the data file is damaged) and ${outcome.damaged.length === 1 ? "is" : "are"} not in the export:${shown}${more}\nrestore the directory from a backup, or keep this export of the rest\n`,
    );
    return 1;
  }
  return 0;
}
