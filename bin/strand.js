#!/usr/bin/env node
// The `strand` command (package.json "bin"): runs the built CLI, dist/cli/strand.js. In a clone of
// the repository (scripts/build-if-stale.mjs beside it; the package does not ship scripts/) it
// first builds when the sources changed since the last build, so `npx strand` there runs the
// clone's own code; before `npm ci` it says what to run instead of failing without a word. Plain
// JavaScript: it runs before anything is built. The build's output goes to stderr, since stdout
// may be an export or an MCP channel.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(fileURLToPath(new URL("..", import.meta.url)));
const buildIfStale = fileURLToPath(new URL("../scripts/build-if-stale.mjs", import.meta.url));
const cli = new URL("../dist/cli/strand.js", import.meta.url);

if (existsSync(buildIfStale)) {
  if (!existsSync(fileURLToPath(new URL("../node_modules", import.meta.url)))) {
    process.stderr.write(`strand: this clone is not installed yet: run \`npm ci\` in ${root} (it installs and builds), then run strand again\n`);
    process.exit(1);
  }
  const built = spawnSync(process.execPath, [buildIfStale, "--quiet"], { cwd: root, stdio: ["ignore", 2, 2] });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
await import(cli.href);
