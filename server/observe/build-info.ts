// What this server is built from, for /metrics' strand_build_info: Strand's version from its
// package.json (found from dist/server/observe/ or from server/observe/), the Node version, and
// the commit when the package.json names it (`gitHead`, which npm writes into a package it packs
// from a git checkout). Nothing runs git: a checkout's commit is not known here, and is left out.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export interface BuildInfo {
  version: string;
  node: string;
  /** Absent when not known. */
  commit?: string;
}

const COMMIT = /^[0-9a-f]{7,64}$/;

/** Strand's package folder and its package.json (the one whose `bin` has `strand`), or null when none is found. */
export function strandPackage(from: string = import.meta.url): { dir: string; json: { version?: unknown; gitHead?: unknown } } | null {
  let dir = dirname(fileURLToPath(from));
  for (let up = 0; up < 6; up++, dir = dirname(dir)) {
    const file = join(dir, "package.json");
    if (!existsSync(file)) continue;
    try {
      const pkg = JSON.parse(readFileSync(file, "utf8")) as { version?: unknown; gitHead?: unknown; bin?: Record<string, unknown> };
      if (pkg.bin?.strand !== undefined) return { dir, json: pkg };
    } catch {
      // not a package.json we can read: look further up
    }
  }
  return null;
}

let cached: BuildInfo | null = null;

export function buildInfo(): BuildInfo {
  if (cached !== null) return cached;
  const pkg = strandPackage()?.json;
  const version = typeof pkg?.version === "string" ? pkg.version : "unknown";
  const head = pkg?.gitHead;
  cached = { version, node: process.version, ...(typeof head === "string" && COMMIT.test(head) ? { commit: head } : {}) };
  return cached;
}
