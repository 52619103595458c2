#!/usr/bin/env node
// `npm run bench` compares Strand with SQLite through better-sqlite3 and with Kuzu, which `npm ci`
// leaves out: only the bench uses them; better-sqlite3 compiles from source for minutes where no
// prebuilt binary can be fetched, and kuzu's package is 185 MB. package.json's `benchDependencies`
// (a field of ours, which npm ignores) pins them; this installs them when one is missing, without
// saving to package.json or the lockfile. Not peer dependencies: an optional peer would still
// refuse a user's own better-sqlite3 of another major version.
// Plain JavaScript: it runs before the bench is built.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const require = createRequire(new URL("../package.json", import.meta.url));

// Every one in one `npm install`: npm prunes packages package.json does not name, so installing
// one at a time removed the one installed before it.
const specs = Object.entries(pkg.benchDependencies ?? {}).map(([name, version]) => `${name}@${version}`);
const missing = Object.keys(pkg.benchDependencies ?? {}).filter((name) => {
  try {
    require.resolve(name);
    return false;
  } catch {
    return true;
  }
});
if (missing.length > 0) {
  process.stderr.write(`bench: installing ${specs.join(", ")} for the comparisons (not saved; npm ci leaves them out)\n`);
  const install = spawnSync("npm", ["install", "--no-save", "--no-audit", "--no-fund", ...specs], { cwd: root, stdio: "inherit" });
  if (install.status !== 0) {
    process.stderr.write(
      `bench: could not install ${specs.join(" ")}; install them by hand (npm install --no-save ${specs.join(" ")}) and run the bench again\n`,
    );
    process.exit(install.status ?? 1);
  }
}
