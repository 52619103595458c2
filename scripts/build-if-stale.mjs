#!/usr/bin/env node
// `npm start` builds only when the sources changed since the last build. The build (`npm run
// build`) ends with `--stamp`, which records a hash of everything it reads in
// dist/.build-fingerprint; without arguments this script compares that hash with the sources'
// and runs `npm run build` only when they differ (`--quiet`: no line when nothing is to do, for
// bin/strand.js). Plain JavaScript so it runs before any build.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const FOLDERS = ["bench", "cli", "compiler", "core", "explorer", "runtime", "scripts", "server"];
const FILES = ["package.json", "package-lock.json", "tsconfig.json", "tsconfig.build.json"];
const STAMP = join(ROOT, "dist", ".build-fingerprint");

/** A hash of the path and bytes of every file the build reads, in a fixed order. */
function sourceFingerprint() {
  const hash = createHash("sha256");
  const add = (relative) => {
    hash.update(`\0${relative}\0`);
    hash.update(readFileSync(join(ROOT, relative)));
  };
  const walk = (relative) => {
    const entries = readdirSync(join(ROOT, relative), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      const child = `${relative}/${entry.name}`;
      if (entry.isDirectory() && entry.name !== "node_modules") walk(child);
      else if (entry.isFile()) add(child);
    }
  };
  for (const folder of FOLDERS) if (existsSync(join(ROOT, folder))) walk(folder);
  for (const file of FILES) if (existsSync(join(ROOT, file))) add(file);
  return hash.digest("hex");
}

if (process.argv[2] === "--stamp") {
  writeFileSync(STAMP, `${sourceFingerprint()}\n`);
} else {
  const recorded = existsSync(STAMP) ? readFileSync(STAMP, "utf8").trim() : null;
  const reason =
    recorded === null
      ? "no build recorded yet"
      : !existsSync(join(ROOT, "dist", "cli", "strand.js"))
        ? "dist/cli/strand.js is missing"
        : recorded !== sourceFingerprint()
          ? "the sources changed since the last build"
          : null;
  if (reason === null) {
    if (process.argv[2] !== "--quiet") process.stderr.write("build is up to date (dist/ matches the sources)\n");
  } else {
    process.stderr.write(`building (${reason})\n`);
    const build = spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: "inherit" });
    process.exit(build.status ?? 1);
  }
}
