// `npm start` runs scripts/build-if-stale.mjs: it builds only when the sources differ from what
// the last build recorded. Exercised on a copy of the script in a small fake project whose
// `build` script counts its runs, so the test never rebuilds the real dist/.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { REPO_ROOT, tempDir } from "./support/server.js";

let root: string;

function buildIfStale(): { status: number | null; stderr: string } {
  const r = spawnSync(process.execPath, [join(root, "scripts", "build-if-stale.mjs")], { cwd: root, encoding: "utf8" });
  return {
    status: r.status,
    stderr: r.stderr
      .split("\n")
      .filter((l) => l.startsWith("build") || l.startsWith("building"))
      .join("\n"),
  };
}

const builds = (): number => readFileSync(join(root, "builds.log"), "utf8").length;

beforeEach(() => {
  root = tempDir("strand-build-if-stale-");
  mkdirSync(join(root, "scripts"));
  mkdirSync(join(root, "cli"));
  copyFileSync(join(REPO_ROOT, "scripts", "build-if-stale.mjs"), join(root, "scripts", "build-if-stale.mjs"));
  writeFileSync(join(root, "cli", "strand.ts"), "export const a = 1;\n");
  writeFileSync(join(root, "builds.log"), "");
  // the fake build: count the run, produce dist/cli/strand.js, then stamp as the real build does
  const build = [
    "node -e \"require('fs').appendFileSync('builds.log','x')\"",
    "node -e \"require('fs').mkdirSync('dist/cli',{recursive:true});require('fs').writeFileSync('dist/cli/strand.js','')\"",
    "node scripts/build-if-stale.mjs --stamp",
  ].join(" && ");
  writeFileSync(join(root, "package.json"), JSON.stringify({ name: "fake", private: true, scripts: { build } }));
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("build-if-stale", () => {
  it("builds when no build was recorded, then not again until a source changes", () => {
    expect(buildIfStale()).toEqual({ status: 0, stderr: "building (no build recorded yet)" });
    expect(builds()).toBe(1);
    expect(buildIfStale()).toEqual({ status: 0, stderr: "build is up to date (dist/ matches the sources)" });
    expect(builds()).toBe(1);
    writeFileSync(join(root, "cli", "strand.ts"), "export const a = 2;\n");
    expect(buildIfStale()).toEqual({ status: 0, stderr: "building (the sources changed since the last build)" });
    expect(builds()).toBe(2);
    expect(buildIfStale()).toEqual({ status: 0, stderr: "build is up to date (dist/ matches the sources)" });
  });

  it("rebuilds when dist/ is gone even though the stamp matches", () => {
    buildIfStale();
    rmSync(join(root, "dist", "cli", "strand.js"));
    expect(buildIfStale().stderr).toBe("building (dist/cli/strand.js is missing)");
    expect(builds()).toBe(2);
  });

  it("fails with the build's status when the build fails", () => {
    writeFileSync(
      join(root, "package.json"),
      JSON.stringify({ name: "fake", private: true, scripts: { build: 'node -e "process.exit(3)"' } }),
    );
    expect(buildIfStale().status).toBe(3);
  });
});
