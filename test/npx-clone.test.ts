// `npx strand` inside the clone runs the clone's own CLI (bin/strand.js, built when the sources
// changed), and before `npm ci` it says what to run instead of failing without a word.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT, tempDir } from "./support/server.js";

const VERSION = (JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version;

describe("strand's bin in the clone", () => {
  it("npx strand runs the clone's CLI (npm test built it, so nothing is rebuilt)", () => {
    const r = spawnSync("npx", ["strand", "--version"], { cwd: REPO_ROOT, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
    expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({ status: 0, stdout: `strand ${VERSION}\n`, stderr: "" });
    // npm's own start, then hashing the sources: over 30 s once on a loaded CI machine.
  }, 120_000);

  it("says to run npm ci in a clone that has no node_modules yet", () => {
    const clone = tempDir("strand-bare-clone-");
    mkdirSync(join(clone, "bin"));
    mkdirSync(join(clone, "scripts"));
    copyFileSync(join(REPO_ROOT, "bin", "strand.js"), join(clone, "bin", "strand.js"));
    writeFileSync(join(clone, "scripts", "build-if-stale.mjs"), "process.exit(9);\n");
    writeFileSync(join(clone, "package.json"), '{ "type": "module" }\n');
    const r = spawnSync(process.execPath, [join(clone, "bin", "strand.js"), "--version"], { encoding: "utf8" });
    expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({
      status: 1,
      stdout: "",
      stderr: `strand: this clone is not installed yet: run \`npm ci\` in ${clone} (it installs and builds), then run strand again\n`,
    });
  });
});
