#!/usr/bin/env node
// `npm run bench` compares Strand with SQLite through better-sqlite3, which `npm ci` leaves out:
// only the bench uses it, and where no prebuilt binary can be fetched it compiles from source for
// minutes. package.json's `benchDependencies` (a field of ours, which npm ignores) pins it; this
// installs what is missing, without saving to package.json or the lockfile. Not a peer dependency:
// an optional peer would still refuse a user's own better-sqlite3 of another major version.
// Plain JavaScript: it runs before the bench is built.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const require = createRequire(new URL("../package.json", import.meta.url));

for (const [name, version] of Object.entries(pkg.benchDependencies ?? {})) {
  try {
    require.resolve(name);
    continue;
  } catch {
    // not installed: install it below
  }
  const spec = `${name}@${version}`;
  process.stderr.write(`bench: installing ${spec} for the comparison (not saved; npm ci leaves it out)\n`);
  const install = spawnSync("npm", ["install", "--no-save", "--no-audit", "--no-fund", spec], { cwd: root, stdio: "inherit" });
  if (install.status !== 0) {
    process.stderr.write(`bench: could not install ${spec}; install it by hand (npm install --no-save ${spec}) and run the bench again\n`);
    process.exit(install.status ?? 1);
  }
}
