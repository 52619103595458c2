// A backup is a directory: LMDB's consistent copy of the store (data.mdb) and manifest.json, which
// is written last, inside a temporary directory that is renamed to the backup's name only when
// complete. So a directory under the backup's name with a manifest is whole; anything else (an
// interrupted backup's `<name>.partial-<pid>`, a directory without a manifest, a file whose size or
// SHA-256 differs from the manifest's) is refused by `strand restore`.
//
// The HNSW vector index files are not part of a backup: they are a cache of the vectors LMDB
// holds (runtime/vector/), and the first open of the restored store rebuilds them from LMDB.
import fs from "node:fs";
import path from "node:path";

export const MANIFEST_FILE = "manifest.json";
export const BACKUP_DATA_FILE = "data.mdb";
/** The manifest's `format` tag: what kind of file this is. */
export const BACKUP_FORMAT = "strand-backup";
/** Version of the backup layout; a restore refuses any other. */
export const BACKUP_FORMAT_VERSION = 1;

export interface BackupFile {
  /** Relative to the backup directory. */
  path: string;
  bytes: number;
  /** Lower-case hex SHA-256 of the file's content. */
  sha256: string;
}

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  version: typeof BACKUP_FORMAT_VERSION;
  /** When the copy's snapshot was taken (RFC 3339): it holds every write acknowledged before. */
  created: string;
  /** The store's own format version (meta "format"). */
  store_format: number;
  /** The `schema::N` the data is at (meta "schema_version"), null for an unversioned store. */
  schema_version: number | null;
  files: BackupFile[];
}

/** The manifest of the backup directory `dir`, checked for shape; a string says what is wrong. */
export function readManifest(dir: string): BackupManifest | string {
  const file = path.join(dir, MANIFEST_FILE);
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return `${dir} is not a complete backup (no ${MANIFEST_FILE}: an interrupted backup, or not a backup at all)`;
    return `cannot read ${file}: ${(error as Error).message}`;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `${file} is not valid JSON: ${(error as Error).message}`;
  }
  const problem = manifestProblem(value);
  return problem === null ? (value as BackupManifest) : `${file}: ${problem}`;
}

function manifestProblem(value: unknown): string | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "expected a JSON object";
  const m = value as Record<string, unknown>;
  if (m.format !== BACKUP_FORMAT) return `format is ${JSON.stringify(m.format)}, expected "${BACKUP_FORMAT}"`;
  if (m.version !== BACKUP_FORMAT_VERSION)
    return `backup format version ${JSON.stringify(m.version)} is not supported (this Strand reads version ${BACKUP_FORMAT_VERSION})`;
  if (typeof m.created !== "string") return "created must be a string";
  if (typeof m.store_format !== "number") return "store_format must be a number";
  if (m.schema_version !== null && typeof m.schema_version !== "number") return "schema_version must be a number or null";
  if (!Array.isArray(m.files)) return "files must be an array";
  for (const [i, f] of m.files.entries()) {
    const problem = fileProblem(f);
    if (problem !== null) return `files[${i}]: ${problem}`;
  }
  if (!m.files.some((f: BackupFile) => f.path === BACKUP_DATA_FILE)) return `files does not list ${BACKUP_DATA_FILE}`;
  return null;
}

function fileProblem(value: unknown): string | null {
  if (typeof value !== "object" || value === null) return "expected an object";
  const f = value as Record<string, unknown>;
  // Only plain names: a manifest must not make a restore read (or write) outside its directories.
  if (typeof f.path !== "string" || !/^[A-Za-z0-9._-]+$/.test(f.path) || f.path.startsWith(".")) return "path must be a plain file name";
  if (typeof f.bytes !== "number" || !Number.isSafeInteger(f.bytes) || f.bytes < 0) return "bytes must be a non-negative integer";
  if (typeof f.sha256 !== "string" || !/^[0-9a-f]{64}$/.test(f.sha256)) return "sha256 must be 64 lower-case hex digits";
  return null;
}
