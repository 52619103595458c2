// The `strand` command line (built dist/cli/strand.js): init, check, compile, usage errors, and
// serve refusing a project that does not compile.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fsErrorMessage, isFsError } from "../cli/project/fs-errors.js";
import { call, CLI, REPO_ROOT, SOCIAL_EXAMPLE, startStrand, tempDir } from "./support/server.js";

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function strand(args: string[], cwd = REPO_ROOT): Run {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const work = tempDir("strand-cli-");
afterAll(() => rmSync(work, { recursive: true, force: true }));

const BROKEN = "N::User {\n    name: String\n}\n\nQUERY GetUser(id: ID) =>\n    user <- N<Usr>(id)\n    RETURN user\n";
const BROKEN_REPORT =
  "broken/app.hx:6:15: error E101: unknown node type 'Usr'\n" +
  "6 |     user <- N<Usr>(id)\n" +
  "  |               ^^^\n" +
  "  hint: did you mean 'User'?\n";

describe("strand CLI", () => {
  it("--help prints usage; bad commands and flags exit 2 with usage", () => {
    const help = strand(["--help"]);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^usage: strand <command> \[options\]/);
    const unknown = strand(["frobnicate"]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/^strand: unknown command "frobnicate"\nusage: strand <command>/);
    const badFlag = strand(["serve", "--bogus"]);
    expect(badFlag.status).toBe(2);
    expect(badFlag.stderr.split("\n")[0]).toBe("strand: unknown option --bogus for strand serve");
    const badPort = strand(["serve", "--port", "http"]);
    expect(badPort.status).toBe(2);
    expect(badPort.stderr).toMatch(/^strand: --port must be an integer from 0 to 65535, got "http"\n/);
    expect(strand(["check", "a", "b"]).status).toBe(2);
    // A body limit below {} would refuse every request: refused at startup, like a bad port.
    for (const limit of ["0", "1", "-5", "8 parsecs", "1.5MiB"]) {
      const badLimit = strand(["serve", `--body-limit=${limit}`]);
      expect(badLimit.status).toBe(2);
      expect(badLimit.stderr.split("\n")[0]).toBe(
        `strand: --body-limit takes bytes, or a size such as "8MiB" (B, KiB, MiB, GiB, kB, MB, GB), at least 2; got "${limit}"`,
      );
    }
    const badCache = strand(["serve", "--cache-entries", "100000001"]);
    expect(badCache.status).toBe(2);
    expect(badCache.stderr.split("\n")[0]).toBe('strand: --cache-entries must be an integer from 0 to 100000000, got "100000001"');
    const badMcpCache = strand(["mcp", "--stdio", "--cache-entries=-1"]);
    expect(badMcpCache.status).toBe(2);
    expect(badMcpCache.stderr.split("\n")[0]).toBe('strand: --cache-entries must be an integer from 0 to 100000000, got "-1"');
  });

  it("init copies the template and refuses to overwrite .hx files", () => {
    const dir = join(work, "fresh");
    const first = strand(["init", dir]);
    expect(first.status).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(["queries.hx", "schema.hx"]);
    for (const f of ["queries.hx", "schema.hx"]) {
      expect(readFileSync(join(dir, f), "utf8")).toBe(readFileSync(join(SOCIAL_EXAMPLE, f), "utf8"));
    }
    writeFileSync(join(dir, "schema.hx"), "// mine\n");
    const again = strand(["init", dir]);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain("already contains queries.hx, schema.hx; refusing to overwrite");
    expect(readFileSync(join(dir, "schema.hx"), "utf8")).toBe("// mine\n");
  });

  it("check reports ok with counts, or diagnostics with snippets and exit 1", () => {
    const good = strand(["check", "examples/social"]);
    expect(good).toEqual({ status: 0, stdout: "ok: 22 queries, 4 types\n", stderr: "" });

    mkdirSync(join(work, "broken"), { recursive: true });
    writeFileSync(join(work, "broken", "app.hx"), BROKEN);
    expect(strand(["check", "broken"], work)).toEqual({ status: 1, stdout: "", stderr: `${BROKEN_REPORT}1 error\n` });

    mkdirSync(join(work, "empty"), { recursive: true });
    expect(strand(["check", "empty"], work)).toEqual({ status: 1, stdout: "", stderr: "strand: no .hx files in empty\n" });
  });

  it("compile writes the generated files and removes stale query modules", () => {
    const out = join(work, "generated");
    const first = strand(["compile", "examples/social", "--out", out]);
    expect(first.status).toBe(0);
    expect(readdirSync(out).sort()).toEqual(["client-types.ts", "client.ts", "index.ts", "queries", "schema.ts"]);
    expect(readdirSync(join(out, "queries"))).toHaveLength(22);
    expect(readFileSync(join(out, "queries", "GetUser.ts"), "utf8")).toContain('from "strand/runtime"');

    writeFileSync(join(out, "queries", "Removed.ts"), "export {};\n");
    const second = strand(["compile", "examples/social", "--out", out, "--runtime-import", "strand/runtime"]);
    expect(second.status).toBe(0);
    expect(second.stdout).toMatch(/\(0 written, 26 unchanged, 1 removed\)\n$/);
    expect(existsSync(join(out, "queries", "Removed.ts"))).toBe(false);

    const custom = join(work, "custom");
    expect(strand(["compile", "examples/social", "--out", custom, "--runtime-import", "../../runtime/index.js"]).status).toBe(0);
    expect(readFileSync(join(custom, "queries", "GetUser.ts"), "utf8")).toContain('from "../../runtime/index.js"');
  });

  it("ordinary file-system errors are one line naming the path, exit 1, no stack", () => {
    const dir = join(work, "fs");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "outfile"), "");
    const project = join(REPO_ROOT, "examples", "social");
    expect(strand(["compile", project, "--out", "outfile"], dir)).toEqual({
      status: 1,
      stdout: "",
      stderr: "strand: cannot write to outfile: it is a file\n",
    });
    expect(strand(["compile", project, "--out", "outfile/generated"], dir)).toEqual({
      status: 1,
      stdout: "",
      stderr: "strand: cannot write to outfile/generated: outfile is not a directory\n",
    });
    expect(strand(["init", "outfile"], dir)).toEqual({ status: 1, stdout: "", stderr: "strand: cannot read outfile: it is a file\n" });
    expect(strand(["init", "outfile/p"], dir)).toEqual({
      status: 1,
      stdout: "",
      stderr: "strand: cannot write to outfile/p: outfile is not a directory\n",
    });
    expect(strand(["serve", project, "--port", "0", "--data", "outfile"], dir)).toEqual({
      status: 1,
      stdout: "",
      stderr: "strand: cannot open the data directory outfile: it is a file\n",
    });
    // Under /proc no directory can be made, and Node's recursive mkdir looped there for ever at
    // 100% CPU (strand serve, compile and init hung): each now ends, naming the directory.
    expect(strand(["serve", project, "--port", "0", "--data", "/proc/strand-nope/d"], dir)).toEqual({
      status: 1,
      stdout: "",
      stderr: "strand: cannot open the data directory /proc/strand-nope/d: cannot write to /proc/strand-nope: no such file or directory\n",
    });
    expect(strand(["compile", project, "--out", "/proc/strand-nope/g"], dir)).toEqual({
      status: 1,
      stdout: "",
      stderr: "strand: cannot write to /proc/strand-nope: no such file or directory\n",
    });
    expect(strand(["init", "/proc/strand-nope/p"], dir)).toEqual({
      status: 1,
      stdout: "",
      stderr: "strand: cannot write to /proc/strand-nope: no such file or directory\n",
    });
  });

  it("every listed file-system error code reads as one clause naming the path", () => {
    const fsError = (code: string, syscall: string, path: string): NodeJS.ErrnoException =>
      Object.assign(new Error(`${code}: ${syscall} '${path}'`), { code, syscall, path });
    const message = (code: string, syscall: string, path: string): string => {
      const e = fsError(code, syscall, path);
      if (!isFsError(e)) throw new Error(`${code} is not recognised`);
      return fsErrorMessage(e);
    };
    const missing = join(work, "no-such", "x");
    expect(message("EACCES", "mkdir", missing)).toBe(`cannot write to ${missing}: permission denied`);
    expect(message("EROFS", "open", missing)).toBe(`cannot open ${missing}: the file system is read-only`);
    expect(message("ENOSPC", "write", missing)).toBe(`cannot write to ${missing}: no space left on the device`);
    expect(message("ENOENT", "scandir", missing)).toBe(`cannot read ${missing}: no such file or directory`);
    expect(message("EISDIR", "open", work)).toBe(`cannot open ${work}: it is a directory`);
    expect(message("EEXIST", "mkdir", work)).toBe(`cannot write to ${work}: it already exists`);
    expect(isFsError(Object.assign(new Error("x"), { code: "ECONNRESET", syscall: "read", path: "/x" }))).toBe(false);
    expect(isFsError(new Error("plain"))).toBe(false);
  });

  it("serve refuses a project that does not compile", () => {
    const data = join(work, "never");
    const r = strand(["serve", "broken", "--port", "0", "--data", data], work);
    expect(r).toEqual({ status: 1, stdout: "", stderr: `${BROKEN_REPORT}the project has 1 error; not serving\n` });
    expect(existsSync(data)).toBe(false);
  });

  it("serve takes --api-key, STRAND_API_KEY and --body-limit, and reports a port in use", async () => {
    const flagged = await startStrand({ extraArgs: ["--api-key", "flag-key", "--body-limit", "100"] });
    const fromEnv = await startStrand({ env: { STRAND_API_KEY: "env-key" } });
    try {
      expect(await call(flagged, "CountUsers", {})).toEqual({
        status: 401,
        body: { error: "missing x-api-key header", code: "UNAUTHORIZED" },
      });
      expect(await call(flagged, "CountUsers", {}, { "x-api-key": "flag-key" })).toEqual({ status: 200, body: { total: 0 } });
      expect(await call(flagged, "UserByHandle", { handle: "x".repeat(100) }, { "x-api-key": "flag-key" })).toEqual({
        status: 413,
        body: {
          error:
            "request body exceeds the limit of 100 bytes; the limit is set by body_limit under [server] in strand.toml or strand serve --body-limit",
          code: "PAYLOAD_TOO_LARGE",
        },
      });
      expect(await call(fromEnv, "CountUsers", {}, { "x-api-key": "flag-key" })).toEqual({
        status: 401,
        body: { error: "invalid api key", code: "UNAUTHORIZED" },
      });
      expect(await call(fromEnv, "CountUsers", {}, { "x-api-key": "env-key" })).toEqual({ status: 200, body: { total: 0 } });

      const clash = strand(["serve", "examples/social", "--port", String(flagged.port), "--data", join(work, "clash")]);
      expect(clash.status).toBe(1);
      // The holder is named by its pid (found from the listening socket in /proc) and command line.
      const pid = flagged.child.pid!;
      const command = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ");
      const shown = command.length > 120 ? `${command.slice(0, 117)}...` : command;
      expect(clash.stderr.split("\n").filter((line) => line.startsWith("strand: cannot"))).toEqual([
        `strand: cannot listen on 127.0.0.1:${flagged.port}: the port is in use by pid ${pid} (${shown}); stop it, or pick another with --port <n> (--port 0 picks a free one)`,
      ]);
    } finally {
      await Promise.all([flagged.stop(), fromEnv.stop()]);
    }
  });

  it("serve refuses a data directory another server holds, and takes --cache-entries", async () => {
    const first = await startStrand({ extraArgs: ["--cache-entries", "0"] });
    try {
      const created = await call(first, "AddUser", { handle: "ada", name: "Ada", city: "London", age: 36 });
      expect(created.status).toBe(200);
      const second = strand(["serve", "examples/social", "--port", "0", "--data", first.dataDir]);
      expect(second).toEqual({
        status: 1,
        stdout: "",
        stderr:
          `strand: cannot open the data directory ${first.dataDir}: data directory ${first.dataDir} is in use by process ${first.child.pid}; ` +
          "stop that server first\n",
      });
      expect(await call(first, "CountUsers", {})).toEqual({ status: 200, body: { total: 1 } });
    } finally {
      await first.stop();
    }
    const bad = strand(["serve", "examples/social", "--cache-entries", "lots"]);
    expect(bad.status).toBe(2);
    expect(bad.stderr.split("\n")[0]).toBe('strand: --cache-entries must be an integer from 0 to 100000000, got "lots"');
  });
});
