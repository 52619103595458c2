// The package a user installs (issue 13 item 1): `npm pack` of the built clone, installed into an
// empty folder, gives a `strand` bin that needs no build (dist/ ships compiled) and runs init,
// check, serve and compile from there; the runtime's types ship with it, so generated query
// modules type-check against the installed package.
//
// The install resolves the dependencies from npm's cache first (`npm ci` filled it) and builds
// hnswlib-node's addon, so this file takes about a minute.
import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, REPO_ROOT, type StrandServer, startStrand, tempDir } from "./support/server.js";

const INSTALL_TIMEOUT_MS = 300_000;
const VERSION = (JSON.parse(execFileSync("npm", ["pkg", "get", "version"], { cwd: REPO_ROOT, encoding: "utf8" })) as string).trim();

let work: string;
let tarball: string;
let packedFiles: string[];
let bin: string;

const execFileAsync = promisify(execFile);

/** Runs a command to its end without blocking the worker; its exit status and output. */
function run(command: string, args: string[], cwd: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(command, args, { cwd, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } }, (error, stdout, stderr) => {
      const status = error === null ? 0 : typeof error.code === "number" ? error.code : null;
      done({ status, stdout, stderr });
    });
  });
}

// Asynchronous: a minute of blocking child processes would stall the test worker's messages to vitest.
beforeAll(async () => {
  work = tempDir("strand-package-");
  // --ignore-scripts: `npm test` built dist/ already; the prepare script would rebuild it under
  // the other test files' feet.
  const pack = await execFileAsync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", work], { cwd: REPO_ROOT });
  const packed = JSON.parse(pack.stdout) as { filename: string; files: { path: string }[] }[];
  tarball = join(work, packed[0]!.filename);
  packedFiles = packed[0]!.files.map((f) => f.path).sort();
  const install = join(work, "app");
  mkdirSync(install);
  writeFileSync(join(install, "package.json"), '{ "name": "app", "private": true, "type": "module" }\n');
  await execFileAsync("npm", ["install", tarball, "--prefer-offline", "--no-audit", "--no-fund", "--loglevel", "error"], {
    cwd: install,
    maxBuffer: 64 * 1024 * 1024,
  });
  bin = join(install, "node_modules", ".bin", "strand");
}, INSTALL_TIMEOUT_MS);

afterAll(() => {
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

describe("the packed package", () => {
  it("ships compiled dist/, the native module's source, the init templates and the docs, and nothing of the sources, tests or benchmarks", async () => {
    const tops = [...new Set(packedFiles.map((p) => (p.startsWith("dist/") ? p.split("/").slice(0, 2).join("/") : p.split("/")[0])))];
    expect(tops.sort()).toEqual([
      "LICENSE",
      "README.md",
      "bin",
      "binding.gyp",
      "dist/cli",
      "dist/compiler",
      "dist/core",
      "dist/explorer",
      "dist/langgraph",
      "dist/runtime",
      "dist/server",
      "native",
      "package.json",
      "templates",
    ]);
    expect(packedFiles.filter((p) => p.startsWith("native/"))).toEqual(["native/strand_native.cc"]);
    expect(packedFiles.filter((p) => p.endsWith(".ts") && !p.endsWith(".d.ts"))).toEqual([]);
    expect(packedFiles).toContain("dist/cli/strand.js");
    expect(packedFiles).toContain("bin/strand.js");
    expect(packedFiles).toContain("dist/runtime/index.d.ts");
    expect(packedFiles).toContain("dist/explorer/app.js");
    expect(packedFiles).toContain("dist/langgraph/index.d.ts");
    expect(packedFiles.filter((p) => p.startsWith("templates/"))).toEqual([
      "templates/agent-memory/README.md",
      "templates/agent-memory/queries.hx",
      "templates/agent-memory/schema.hx",
      "templates/langgraph/queries.hx",
      "templates/langgraph/schema.hx",
      "templates/memory/queries.hx",
      "templates/memory/schema.hx",
      "templates/social/queries.hx",
      "templates/social/schema.hx",
    ]);
  });

  it("installs a strand bin that answers --version without compiling TypeScript, and builds its native module", async () => {
    const r = await run(bin, ["--version"], join(work, "app"));
    expect(r).toEqual({ status: 0, stdout: `strand ${VERSION}\n`, stderr: "" });
    // No TypeScript was compiled at install or first run: the installed package has no sources;
    // node-gyp built the native module (binding.gyp), as it builds hnswlib-node's.
    const installed = join(work, "app", "node_modules", "strand");
    expect(readdirSync(installed).sort()).toEqual([
      "LICENSE",
      "README.md",
      "bin",
      "binding.gyp",
      "build",
      "dist",
      "native",
      "package.json",
      "templates",
    ]);
    expect(existsSync(join(installed, "build", "Release", "strand_native.node"))).toBe(true);
  });

  it("runs with npx from the project that installed it", async () => {
    const r = await run("npx", ["--no-install", "strand", "--version"], join(work, "app"));
    expect(r).toEqual({ status: 0, stdout: `strand ${VERSION}\n`, stderr: "" });
  });

  it("runs init, check and compile in a folder outside the clone", async () => {
    const app = join(work, "app");
    expect(await run(bin, ["init", "proj"], app)).toEqual({
      status: 0,
      stdout:
        "template: social (the default; choose with --template social|agent-memory)\n" +
        // Run from node_modules/.bin, strand is not on PATH: the next steps say npx strand.
        "created proj/queries.hx, proj/schema.hx\nnext: npx strand check proj && npx strand serve proj\n",
      stderr: "",
    });
    expect(await run(bin, ["check", "proj"], app)).toEqual({ status: 0, stdout: "ok: 22 queries, 4 types\n", stderr: "" });
    const compiled = await run(bin, ["compile", "proj", "--out", "gen"], app);
    expect(compiled.status).toBe(0);
  });

  it("gives generated query modules the runtime's types: they type-check against the installed package", async () => {
    const app = join(work, "app");
    writeFileSync(
      join(app, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, noEmit: true, types: [] },
        include: ["gen/**/*.ts"],
      }),
    );
    const tsc = join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc");
    const r = await run(process.execPath, [tsc, "-p", "tsconfig.json"], app);
    expect({ status: r.status, stdout: r.stdout }).toEqual({ status: 0, stdout: "" });
  });

  describe("strand serve from the installed bin", () => {
    let server: StrandServer;
    beforeAll(async () => {
      const app = join(work, "app");
      if (readdirSync(app).includes("proj") === false) await run(bin, ["init", "proj"], app);
      server = await startStrand({ strand: [bin], project: "proj", cwd: app });
    }, 60_000);
    afterAll(async () => {
      await server?.stop();
    });

    it("serves the project's queries", async () => {
      const added = await call(server, "AddUser", { handle: "ada", name: "Ada", city: "London", age: 36 });
      expect(added.status).toBe(200);
      const user = (added.body as { user: Record<string, unknown> }).user;
      expect(await call(server, "UserByHandle", { handle: "ada" })).toEqual({
        status: 200,
        body: { user: { id: user.id, label: "User", handle: "ada", name: "Ada", city: "London", age: 36, joined: user.joined } },
      });
      const explorer = await fetch(`${server.url}/explorer`);
      expect(explorer.status).toBe(200);
    });
  });
});
