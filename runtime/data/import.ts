// strand import: loads JSON Lines or CSV files (interchange.ts, csv-records.ts) into a store,
// one file per write transaction (GraphStore.load). Every record is checked in full before any
// of it is written; the first bad one aborts the file's transaction, so nothing of that file is
// applied, and the error names the file, the line and the field. With `skipBad`, bad records
// are left out instead, each written to the rejects file as a JSON line
// {"file","line","error","text"}, and counted.
import fs from "node:fs";
import path from "node:path";
import { StrandError } from "../../core/errors.js";
import type { ProgressSink } from "../../core/progress.js";
import type { SchemaInfo } from "../store/schema-info.js";
import type { LoadRecord, RecordLoader } from "../load/bulk-loader.js";
import { LoadedIds } from "../load/loaded-ids.js";
import { csvRows, CsvSyntaxError, type CsvRow } from "./csv.js";
import { csvHeaderProblem, csvRecord, csvType } from "./csv-records.js";
import {
  BARE_EDGE_FROM_AFTER_ID,
  BARE_EDGE_ID_AFTER_LABEL,
  BARE_EDGE_LABEL_AT,
  BARE_EDGE_TO_AFTER_FROM,
  BadRecord,
  bareEdgeLabelEnd,
  parseRecordLine,
} from "./interchange.js";
import { fileChunks, firstLineNotUtf8, forEachFileLine, LineTooLong, NotUtf8 } from "./lines.js";

/** What an import needs of the store (GraphStore). */
export interface LoadTarget {
  readonly schema: SchemaInfo;
  load<T>(fn: (loader: RecordLoader) => T, loaded?: LoadedIds, progress?: ProgressSink): Promise<T>;
}

export interface ImportFile {
  readonly path: string;
  /** CSV when the name ends in .csv (case-insensitive); JSON Lines otherwise. */
  readonly format: "jsonl" | "csv";
  /** CSV: the type its rows are (default: the file name without .csv). */
  readonly csvType?: string;
}

export interface ImportOptions {
  readonly skipBad: boolean;
  /** With skipBad: where rejected lines go (default: none kept, only counted). */
  readonly rejectsPath?: string;
  readonly progress: ProgressSink;
}

export interface FileOutcome {
  readonly path: string;
  readonly loaded: number;
  readonly rejected: number;
  /** With skipBad: the first record left out (its line and why), null when none was. */
  readonly firstRejected: { readonly line: number; readonly reason: string } | null;
}

/** A file that cannot be imported: a bad line (without skipBad) or a file-level problem. */
export class ImportError extends Error {
  constructor(
    readonly file: string,
    readonly line: number | null,
    /** What is wrong, without the file and line. */
    readonly reason: string,
  ) {
    super(`${file}${line === null ? "" : `:${line}`}: ${reason}`);
    this.name = "ImportError";
  }

  /** The files imported (committed) before this one failed, in order; they stay imported. */
  imported: readonly FileOutcome[] = [];
}

/**
 * Every file readable as a file, checked before the first is imported: a missing or wrong path
 * among several files must not leave the ones before it committed (a user then re-runs the
 * whole command and gets their records twice).
 */
function checkFiles(files: readonly ImportFile[]): void {
  // The same file named twice (or through a link) would load its records twice.
  const seen = new Map<string, number>();
  for (const [n, file] of files.entries()) {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(file.path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const why = code === "ENOENT" ? "no such file" : code === "EACCES" ? "permission denied" : (error as Error).message;
      throw new ImportError(file.path, null, `${why}; nothing was imported`);
    }
    if (!stat.isFile())
      throw new ImportError(
        file.path,
        null,
        `${stat.isDirectory() ? "a directory" : "not a regular file"}, not a file to import; nothing was imported`,
      );
    try {
      fs.accessSync(file.path, fs.constants.R_OK);
    } catch {
      throw new ImportError(file.path, null, "permission denied; nothing was imported");
    }
    const identity = `${stat.dev}:${stat.ino}`;
    const earlier = seen.get(identity);
    if (earlier !== undefined)
      throw new ImportError(file.path, null, `the same file as file ${earlier + 1} of the list, given twice; nothing was imported`);
    seen.set(identity, n);
  }
}

/** Every CSV file's type is in the schema, checked before the first file is imported (as checkFiles). */
function checkCsvTypes(schema: SchemaInfo, files: readonly ImportFile[]): void {
  for (const file of files) {
    if (file.format !== "csv") continue;
    const type = csvType(schema, csvTypeName(file));
    if (typeof type === "string") throw new ImportError(file.path, null, `${type}; nothing was imported`);
  }
}

/** The type a CSV file's rows are: --type, or the file's name without .csv. */
function csvTypeName(file: ImportFile): string {
  return file.csvType ?? path.basename(file.path).replace(/\.csv$/i, "");
}

export function importFileOf(file: string, csvTypeName?: string): ImportFile {
  const csv = file.toLowerCase().endsWith(".csv");
  return csv
    ? { path: file, format: "csv", ...(csvTypeName !== undefined ? { csvType: csvTypeName } : {}) }
    : { path: file, format: "jsonl" };
}

/**
 * Imports the files in order (each one transaction); stops at the first file that fails, with an
 * ImportError that lists the files committed before it. Every path is checked first.
 */
export async function importFiles(target: LoadTarget, files: readonly ImportFile[], options: ImportOptions): Promise<FileOutcome[]> {
  checkFiles(files);
  checkCsvTypes(target.schema, files);
  const outcomes: FileOutcome[] = [];
  const rejects = options.skipBad && options.rejectsPath !== undefined ? fs.openSync(options.rejectsPath, "w") : null;
  try {
    // The ids loaded so far, shared by the files' transactions (load/loaded-ids.ts).
    const loaded = new LoadedIds();
    // About one id per line (estimateLines): the table's size, and how many stored ids are worth reading into it.
    loaded.reserve(files.reduce((lines, file) => lines + estimateLines(file.path), 0));
    for (const file of files) {
      try {
        outcomes.push(await importFile(target, file, options, rejects, loaded));
      } catch (error) {
        if (error instanceof ImportError) error.imported = outcomes;
        throw error;
      }
    }
  } finally {
    if (rejects !== null) fs.closeSync(rejects);
  }
  return outcomes;
}

interface Entry {
  readonly line: number;
  readonly text: () => string;
  readonly record: () => LoadRecord;
}

async function importFile(
  target: LoadTarget,
  file: ImportFile,
  options: ImportOptions,
  rejects: number | null,
  known: LoadedIds,
): Promise<FileOutcome> {
  const size = fs.statSync(file.path).size;
  const name = path.basename(file.path);
  const reading = options.progress.start(`import ${name}`, "bytes", size);
  let readingFinished = false;
  const task = {
    advance: (n: number) => reading.advance(n),
    // Once: when the last line is read (the steps after it report on their own), or on failure.
    finish: () => {
      if (!readingFinished) reading.finish();
      readingFinished = true;
    },
  };
  // The steps after the last line (the adjacency lists, the keyword index) report as their own tasks.
  const lastSteps: ProgressSink = { start: (label, unit, total) => options.progress.start(`import ${name}: ${label}`, unit, total) };
  try {
    return await target.load(
      (loader) => {
        let loaded = 0;
        let rejected = 0;
        let firstRejected: FileOutcome["firstRejected"] = null;
        const refuse = (error: unknown, line: number, text: () => string): void => {
          const message = badMessage(error);
          if (message === null) throw error;
          if (!options.skipBad) throw new ImportError(file.path, line, `${message}; nothing of this file was imported`);
          rejected++;
          firstRejected ??= { line, reason: message };
          if (rejects !== null) fs.writeSync(rejects, `${JSON.stringify({ file: file.path, line, error: message, text: text() })}\n`);
        };
        if (file.format === "jsonl") {
          // The hot path of an import: one call per line, no per-line objects beside the record.
          try {
            forEachFileLine(
              file.path,
              (n) => task.advance(n),
              (text, line, validUtf8) => {
                try {
                  // Decoding replaced the bad bytes: stored, the text would differ from the file's.
                  if (!validUtf8) throw new BadRecord("line", "not valid UTF-8 (the file's bytes there are no UTF-8 character)");
                  // An edge without fields in the export's shape: read straight from the text when it can be.
                  const labelEnd = bareEdgeLabelEnd(text);
                  if (labelEnd < 0 || !loadBareEdge(loader, text, labelEnd)) loader.load(parseRecordLine(text));
                  loaded++;
                } catch (error) {
                  refuse(error, line, () => text);
                }
              },
            );
          } catch (error) {
            // Not a record to leave out: the reader cannot get past it, so the file is refused.
            if (error instanceof LineTooLong)
              throw new ImportError(file.path, error.line, `${error.message}; nothing of this file was imported`);
            throw error;
          }
        } else {
          const chunks = fileChunks(file.path, (n) => task.advance(n));
          for (const entry of csvEntries(target.schema, file, chunks)) {
            try {
              loader.load(entry.record());
              loaded++;
            } catch (error) {
              refuse(error, entry.line, entry.text);
            }
          }
        }
        task.finish();
        return { path: file.path, loaded, rejected, firstRejected };
      },
      known,
      lastSteps,
    );
  } finally {
    task.finish();
  }
}

/** RecordLoader.loadBareEdge of a line in bareEdgeLine's shape whose label ends at `labelEnd`. */
function loadBareEdge(loader: RecordLoader, text: string, labelEnd: number): boolean {
  const idAt = labelEnd + BARE_EDGE_ID_AFTER_LABEL;
  const fromAt = idAt + BARE_EDGE_FROM_AFTER_ID;
  return loader.loadBareEdge(text, BARE_EDGE_LABEL_AT, labelEnd, idAt, fromAt, fromAt + BARE_EDGE_TO_AFTER_FROM);
}

/** Bytes read from a file's start to estimate its lines. */
const SAMPLE_BYTES = 1 << 20;

/**
 * About how many lines the file has: counted in its first MiB and scaled to its size (exact for
 * a file of at most that). Lines differ in length by orders of magnitude between files (an edge
 * in ~150 bytes, a 1536-dimension vector in ~20 KB), so no fixed bytes-per-line fits. 0 when the
 * file cannot be read (its import says why).
 */
export function estimateLines(file: string): number {
  let fd: number;
  try {
    fd = fs.openSync(file, "r");
  } catch {
    return 0;
  }
  try {
    const size = fs.fstatSync(fd).size;
    const sample = Buffer.allocUnsafe(Math.min(size, SAMPLE_BYTES));
    const n = fs.readSync(fd, sample, 0, sample.length, 0);
    let lines = 0;
    for (let at = sample.indexOf(10); at >= 0 && at < n; at = sample.indexOf(10, at + 1)) lines++;
    if (n >= size) return lines + (n > 0 && sample[n - 1] !== 10 ? 1 : 0);
    return Math.ceil((Math.max(lines, 1) / n) * size);
  } catch {
    return 0;
  } finally {
    fs.closeSync(fd);
  }
}

/** The message of a record's fault, or null for an error that is not about the record. */
function badMessage(error: unknown): string | null {
  if (error instanceof BadRecord || error instanceof StrandError) return error.message;
  return null;
}

function* csvEntries(schema: SchemaInfo, file: ImportFile, chunks: Iterable<string>): Generator<Entry> {
  const type = csvType(schema, csvTypeName(file));
  if (typeof type === "string") throw new ImportError(file.path, null, type);
  let header: string[] | null = null;
  try {
    for (const row of csvRows(chunks)) {
      if (header === null) {
        header = row.cells;
        const problem = csvHeaderProblem(type, header);
        if (problem !== null) throw new ImportError(file.path, row.line, `header: ${problem}`);
        continue;
      }
      const columns = header;
      yield { line: row.line, text: () => rowText(row), record: () => csvRecord(type, columns, row) };
    }
  } catch (error) {
    if (error instanceof CsvSyntaxError)
      throw new ImportError(file.path, error.line, `${error.message}; nothing of this file was imported`);
    // Not one row to leave out: where the bad bytes fall in rows is not known.
    if (error instanceof NotUtf8) {
      const at = firstLineNotUtf8(file.path);
      if (at === null) throw new ImportError(file.path, null, `${error.message}; nothing of this file was imported`);
      throw new ImportError(
        file.path,
        at.line,
        `not valid UTF-8 (bytes of this line, which starts at byte ${at.offset} of the file, are no UTF-8 character); nothing of this file was imported`,
      );
    }
    throw error;
  }
  if (header === null) throw new ImportError(file.path, null, "the file is empty (a CSV file starts with a header row)");
}

/**
 * A rejected CSV row as a CSV row again (RFC 4180), so the rejects can go back into a file under
 * the same header: a cell is quoted when it was (an empty quoted cell is the empty string, not "no
 * value") or when it holds a comma, a quote or a line break.
 */
function rowText(row: CsvRow): string {
  return row.cells.map((cell, i) => (row.quoted[i] || /[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell)).join(",");
}
