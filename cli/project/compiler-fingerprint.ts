// A hash of the code that turns .hx files into served JavaScript: every file of `compiler/`,
// `core/` and `cli/project/` (as built, or as sources under a test runner); the compiler writes
// that JavaScript itself (compiler/scripts.ts), so no other package's version matters. Part of
// the compile cache's key (compile-cache.ts), so a rebuilt or upgraded Strand never serves what
// an older one compiled; reading a version number would not notice an edit that keeps it.
import { createHash, type Hash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
const FOLDERS = ["../../compiler", "../../core", "."];

let fingerprint: string | null = null;

export function compilerFingerprint(): string {
  if (fingerprint !== null) return fingerprint;
  const hash = createHash("sha256");
  for (const folder of FOLDERS) hashFolder(hash, join(HERE, folder), folder);
  fingerprint = hash.digest("hex");
  return fingerprint;
}

/** Every file below `dir`, in name order, each as its relative path and its bytes. */
function hashFolder(hash: Hash, dir: string, shown: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) hashFolder(hash, path, `${shown}/${entry.name}`);
    else if (entry.isFile()) {
      const bytes = readFileSync(path);
      hash.update(`\0${shown}/${entry.name}\0${bytes.length}\0`);
      hash.update(bytes);
    }
  }
}
