// What `serve` and `mcp --stdio` compiled last time, kept in the data directory so that the next
// start of the same project skips the compiler (a 250-query project spends ~0.2 s of CPU there,
// with loading it). One file per compiled project under `<data>/compile-cache/`, named by
// its key: the SHA-256 of everything the output depends on (the compiler's and core's own code,
// Node's version, the options and every source file's name and text), so a cache is either exactly what compiling now would produce or not found at all.
//
// A file is written to a temporary name, flushed and renamed into place, so a reader (another
// process starting at the same time, or the next start after a crash) sees a whole file or none;
// its header carries the SHA-256 of its body, so a damaged file is a miss, never a wrong answer.
// The body is v8-serialized: the schema descriptor round-trips exactly (-0, absent members).
// Every failure to read or write the cache only costs a compile: it never stops startup. Writing
// an entry removes the entries of other keys; racing starts each write a whole file, and the last
// rename wins (the files are equal). An entry holds JavaScript the server runs: whoever can write
// the data directory can already change what the server answers, and with it what it executes.
import { createHash, randomUUID } from "node:crypto";
import { closeSync, fsyncSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";
import { deserialize, serialize } from "node:v8";
import type { SchemaDescriptor } from "../../core/schema.js";
import { compilerFingerprint } from "./compiler-fingerprint.js";
import type { SourceFile } from "./sources.js";
import { makeDirs } from "../../runtime/store/make-dirs.js";

/** Bump when the entry layout changes. */
const FORMAT = "strand compile cache 1";
const SUFFIX = ".cache";
/** A temporary file this old belongs to a writer that died; younger ones may still be renamed. */
const STALE_TEMP_MS = 10 * 60_000;

/** The cache's folder in a data directory (runtime/store/derived-files.ts: a restore may ignore it). */
export { COMPILE_CACHE_DIR } from "../../runtime/store/derived-files.js";

export interface CachedQuery {
  /** `queries/<Name>.ts`, as compiled */
  path: string;
  /** the query's JavaScript module (compiler/scripts.ts) */
  js: string;
}

/** What loading a project needs from a compile, without the compiler. */
export interface CompiledProject {
  schema: SchemaDescriptor;
  queries: CachedQuery[];
  models: string[];
  warnings: string;
}

/** The key of a project: changes whenever compiling it could give a different result. */
export function cacheKey(sources: readonly SourceFile[], options: unknown): string {
  const hash = createHash("sha256");
  const field = (text: string): void => {
    hash.update(`${Buffer.byteLength(text)}:`);
    hash.update(text);
  };
  field(FORMAT);
  field(compilerFingerprint());
  field(process.version);
  field(JSON.stringify(options) ?? "");
  field(String(sources.length));
  for (const source of sources) {
    field(source.file);
    field(source.text);
  }
  return hash.digest("hex");
}

/** The cached compile of `key` in `dir`, or null when there is none that is whole and matches. */
export function readCompileCache(dir: string, key: string): CompiledProject | null {
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(dir, key + SUFFIX));
  } catch {
    return null;
  }
  const newline = bytes.indexOf(0x0a);
  if (newline < 0) return null;
  const header = bytes.subarray(0, newline).toString("utf8");
  const body = bytes.subarray(newline + 1);
  if (header !== `${FORMAT} ${key} ${sha256(body)}`) return null;
  let value: unknown;
  try {
    value = deserialize(body);
  } catch {
    return null;
  }
  return isCompiledProject(value) ? value : null;
}

/** Stores `compiled` under `key` (whole or not at all) and removes the entries of other keys. */
export function writeCompileCache(dir: string, key: string, compiled: CompiledProject): void {
  const temp = join(dir, `${key}.${process.pid}.${randomUUID()}.tmp`);
  try {
    makeDirs(dir);
    const body = serialize(compiled);
    const bytes = Buffer.concat([Buffer.from(`${FORMAT} ${key} ${sha256(body)}\n`), body]);
    const fd = openSync(temp, "wx");
    try {
      for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, join(dir, key + SUFFIX));
  } catch {
    try {
      rmSync(temp, { force: true });
    } catch {
      // no folder to remove it from (a file where the data directory should be, ...)
    }
    return;
  }
  removeOthers(dir, key);
}

/** Keeps one entry: the project served from a data directory rarely goes back to older sources. */
function removeOthers(dir: string, key: string): void {
  try {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (name.endsWith(SUFFIX) && name !== key + SUFFIX) rmSync(path, { force: true });
      else if (name.endsWith(".tmp") && Date.now() - statSync(path).mtimeMs > STALE_TEMP_MS) rmSync(path, { force: true });
    }
  } catch {
    // Another process may be pruning too; what is left is removed next time.
  }
}

function sha256(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

function isCompiledProject(value: unknown): value is CompiledProject {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Partial<Record<keyof CompiledProject, unknown>>;
  return (
    typeof v.schema === "object" &&
    v.schema !== null &&
    typeof v.warnings === "string" &&
    Array.isArray(v.models) &&
    v.models.every((m) => typeof m === "string") &&
    Array.isArray(v.queries) &&
    v.queries.every(
      (q: unknown) =>
        typeof q === "object" && q !== null && typeof (q as CachedQuery).path === "string" && typeof (q as CachedQuery).js === "string",
    )
  );
}
