// Issue #13 item 3: `strand --version`, help per command, every option settable by its
// environment variable, --api-key-file, and a warning when serving beyond loopback without a key.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseCommand } from "../cli/commands/args.js";
import { weakKeyProblem } from "../cli/commands/serve-keys.js";
import { commandHelp, ENV_COLUMN, OPTION_ENV, USAGE } from "../cli/commands/usage.js";
import { CLI, REPO_ROOT, SOCIAL_EXAMPLE, startStrand, tempDir } from "./support/server.js";
import type { GivenSettings } from "../cli/config/knobs.js";

const strand = (args: string[]) => spawnSync(process.execPath, [CLI, ...args], { cwd: REPO_ROOT, encoding: "utf8" });

describe("strand --version and help", () => {
  it("prints the package's version", () => {
    const version = (JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version;
    for (const flag of ["--version", "-v", "version"]) {
      const run = strand([flag]);
      expect({ status: run.status, stdout: run.stdout }).toEqual({ status: 0, stdout: `strand ${version}\n` });
    }
  });

  it("prints one command's help for `strand <command> --help` and `strand help <command>`", () => {
    const serve = strand(["serve", "--help"]);
    expect(serve.status).toBe(0);
    expect(serve.stdout).toBe(commandHelp("serve"));
    expect(serve.stdout.startsWith("usage: strand serve [dir]      compile in process")).toBe(true);
    expect(serve.stdout).toContain(`  ${"STRAND_API_KEY_FILE".padEnd(ENV_COLUMN)} --api-key-file\n`);
    expect(serve.stdout).not.toContain("  import <dir>");
    expect(strand(["help", "export"]).stdout).toBe(commandHelp("export"));
    expect(commandHelp("check")).toBe("usage: strand check [dir]      type-check the project's *.hx files; exit 1 on errors\n");
    expect(strand(["--help"]).stdout).toBe(USAGE);
  });

  it("answers a bad invocation with one line naming the culprit and the closest name, then one usage line", () => {
    const cases: [string[], string][] = [
      [
        ["srve"],
        'strand: unknown command "srve"; did you mean "serve"?\n' +
          "usage: strand <command> [options]; commands: init, check, compile, serve, mcp, memory, import, export, verify, backup, restore, query, shell, status, keys, tenant (strand --help)\n",
      ],
      [
        ["frobnicate"],
        'strand: unknown command "frobnicate"\n' +
          "usage: strand <command> [options]; commands: init, check, compile, serve, mcp, memory, import, export, verify, backup, restore, query, shell, status, keys, tenant (strand --help)\n",
      ],
      [
        ["serve", "--prot", "3"],
        "strand: unknown option --prot for strand serve; did you mean --port?\n" +
          "usage: strand serve [dir] [options] (strand serve --help lists them)\n",
      ],
      [
        ["serve", "--api-key-fil=k"],
        "strand: unknown option --api-key-fil for strand serve; did you mean --api-key-file?\n" +
          "usage: strand serve [dir] [options] (strand serve --help lists them)\n",
      ],
      [
        ["import", "--bogus"],
        "strand: unknown option --bogus for strand import\nusage: strand import <dir> FILE... [options] (strand import --help lists them)\n",
      ],
      [["serve", "--port"], "strand: --port needs a value\nusage: strand serve [dir] [options] (strand serve --help lists them)\n"],
      [["check", "--help=yes"], "strand: --help takes no value\nusage: strand check [dir] (strand check --help)\n"],
      [
        ["verify"],
        "strand: strand verify needs exactly one data directory, got none\nusage: strand verify <data dir> (strand verify --help)\n",
      ],
      [
        ["memory", "forget"],
        "strand: strand memory takes no arguments, or import FILE; got forget\n" +
          "usage: strand memory [options] (strand memory --help lists them)\n",
      ],
      [
        ["memory", "import"],
        "strand: strand memory import needs exactly one file: strand memory import memory.jsonl\n" +
          "usage: strand memory [options] (strand memory --help lists them)\n",
      ],
      [
        ["mcp", "--stdio", "--vector-dat", "false"],
        "strand: unknown option --vector-dat for strand mcp; did you mean --vector-data?\n" +
          "usage: strand mcp --stdio [dir] [options] (strand mcp --help lists them)\n",
      ],
    ];
    for (const [args, stderr] of cases) {
      const run = strand(args);
      expect({ args, status: run.status, stderr: run.stderr, stdout: run.stdout }).toEqual({ args, status: 2, stderr, stdout: "" });
    }
  });
});

describe("options from the environment", () => {
  it("sets each serve option, and a flag on the command line wins", () => {
    const env = {
      STRAND_PORT: "7070",
      STRAND_HOST: "0.0.0.0",
      STRAND_DATA: "/tmp/from-env",
      STRAND_BODY_LIMIT: "4096",
      STRAND_BODY_MEMORY_LIMIT: "1MiB",
      STRAND_ANSWER_MEMORY_LIMIT: "3MiB",
      STRAND_STALL_LIMIT: "2500",
      STRAND_FRONT_DOOR: "thread",
      STRAND_QUERY_TIMEOUT: "0",
      STRAND_CACHE_ENTRIES: "10",
      STRAND_CACHE_SIZE: "64MiB",
      STRAND_CORS: "https://a.example",
      STRAND_EXPLORER: "false",
      STRAND_LOG_LEVEL: "warn",
      STRAND_API_KEY_FILE: "/tmp/key",
      STRAND_MAX_CONNECTIONS_PER_CLIENT: "64",
    };
    expect(parseCommand(["serve"], env)).toMatchObject({
      flags: {
        server: {
          port: 7070,
          host: "0.0.0.0",
          corsOrigins: ["https://a.example"],
          explorer: false,
          logLevel: "warn",
          apiKeyFile: "/tmp/key",
          bodyLimitBytes: 4096,
        },
        frontDoor: {
          bodyMemoryLimitBytes: 2 ** 20,
          answerMemoryLimitBytes: 3 * 2 ** 20,
          stallLimitMs: 2500,
          maxConnectionsPerClient: 64,
          door: "thread",
        },
        store: { dataDir: "/tmp/from-env", queryTimeoutMs: 0, cacheEntries: 10, cacheBytes: 64 * 2 ** 20 },
      },
    });
    expect((parseCommand(["serve"], env) as { flags: { server: { apiKey?: string } } }).flags.server.apiKey).toBeUndefined();
    expect(parseCommand(["serve", "--port", "8080", "--data", "/tmp/flag"], env)).toMatchObject({
      flags: { server: { port: 8080 }, store: { dataDir: "/tmp/flag" } },
    });
    for (const command of ["export", "backup"]) {
      const args = command === "backup" ? ["backup", "--out", "/tmp/b"] : [command];
      expect(parseCommand(args, { STRAND_DATA: "/tmp/d" }), command).toMatchObject({ dataDir: "/tmp/d" });
    }
    expect(parseCommand(["mcp", "--stdio"], { STRAND_DATA: "/tmp/d" }), "mcp").toMatchObject({ flags: { store: { dataDir: "/tmp/d" } } });
    expect(() => parseCommand(["serve", "--front-door", "both"], {})).toThrow('--front-door must be one of engine, thread, got "both"');
    // Bad values from the environment are named like flags.
    expect(() => parseCommand(["serve"], { STRAND_PORT: "x" })).toThrow('--port must be an integer from 0 to 65535, got "x"');
    expect(() => parseCommand(["serve", "--stall-limit", "0"], {})).toThrow('--stall-limit must be an integer from 1 to 86400000, got "0"');
    expect(parseCommand(["serve", "--query-timeout", "1500"], env)).toMatchObject({ flags: { store: { queryTimeoutMs: 1500 } } });
    expect(parseCommand(["serve", "--max-connections-per-client", "8"], env)).toMatchObject({
      flags: { frontDoor: { maxConnectionsPerClient: 8 } },
    });
    const unset = (parseCommand(["serve"], {}) as { flags: GivenSettings }).flags;
    expect(unset.frontDoor.maxConnectionsPerClient).toBeUndefined();
    expect(() => parseCommand(["serve", "--max-connections-per-client", "0"], {})).toThrow(
      '--max-connections-per-client must be an integer from 1 to 1000000, got "0"',
    );
    expect(unset.store.queryTimeoutMs).toBeUndefined();
    expect(() => parseCommand(["serve", "--query-timeout", "1.5"], {})).toThrow(
      '--query-timeout must be an integer from 0 to 86400000, got "1.5"',
    );
    expect(parseCommand(["mcp", "--stdio", "--cache-size", "1000"], {})).toMatchObject({ flags: { store: { cacheBytes: 1000 } } });
    expect(() => parseCommand(["serve", "--cache-size", "lots"], {})).toThrow("--cache-size takes");
    expect(() => parseCommand(["serve", "--api-key", "k"], { STRAND_API_KEY_FILE: "/tmp/k" })).toThrow("give the api key once");
  });

  it("documents one variable per option, each named STRAND_*", () => {
    expect(Object.values(OPTION_ENV).every((v) => /^STRAND_[A-Z_]+$/.test(v))).toBe(true);
    for (const [flag, variable] of Object.entries(OPTION_ENV)) expect(USAGE).toContain(`  ${variable.padEnd(ENV_COLUMN)} ${flag}\n`);
  });
});

describe("strand serve --api-key-file and the exposure warning", () => {
  it("reads the key from a file (its first line), so it stays out of ps", async () => {
    const dir = tempDir("strand-key-");
    const file = join(dir, "key");
    writeFileSync(file, "s3cret-from-file\nignored\n");
    const s = await startStrand({ extraArgs: ["--api-key-file", file] });
    try {
      const post = (headers: Record<string, string>) =>
        fetch(`${s.url}/CountUsers`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: "{}" });
      expect((await post({})).status).toBe(401);
      expect((await post({ "x-api-key": "s3cret-from-file" })).status).toBe(200);
      expect(s.output()).not.toContain("warning");
    } finally {
      await s.stop();
    }
  }, 60_000);

  it("refuses an unreadable or empty key file", () => {
    const dir = tempDir("strand-key-");
    const empty = join(dir, "empty");
    writeFileSync(empty, "\n");
    const missing = strand(["serve", "examples/social", "--api-key-file", join(dir, "none"), "--data", join(dir, "d")]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/^strand: cannot read the api key file .*none: ENOENT/);
    const blank = strand(["serve", "examples/social", "--api-key-file", empty, "--data", join(dir, "d")]);
    expect(blank.status).toBe(1);
    expect(blank.stderr).toMatch(/^strand: the api key file .*empty is empty \(its first line is the key\)\n$/);
  });

  it("warns when listening beyond loopback without a key", async () => {
    const s = await startStrand({ extraArgs: ["--host", "0.0.0.0"] });
    try {
      expect(s.output()).toContain(
        "strand: warning: listening on 0.0.0.0 without an api key: anyone who can reach this address can read and write; set --api-key-file or STRAND_API_KEY\n",
      );
    } finally {
      await s.stop();
    }
  }, 60_000);
});

describe("strand serve beyond loopback with a weak api key", () => {
  it("refuses a placeholder or a short key on a non-loopback address, naming why; loopback keeps any key", async () => {
    const refused = (key: string) => {
      const r = spawnSync(
        process.execPath,
        [CLI, "serve", SOCIAL_EXAMPLE, "--host", "0.0.0.0", "--port", "0", "--data", tempDir("strand-weak-")],
        {
          encoding: "utf8",
          timeout: 60_000,
          env: { ...process.env, STRAND_API_KEY: key },
        },
      );
      return [r.status, r.stderr.trim().split("\n").pop()];
    };
    expect(refused("change-me")).toEqual([
      1,
      'strand: refusing to listen on 0.0.0.0 with this api key: "change-me" is a placeholder, not a secret; set a key of at least 16 random characters (e.g. openssl rand -hex 32)',
    ]);
    expect(refused("s3cret")).toEqual([
      1,
      "strand: refusing to listen on 0.0.0.0 with this api key: it has 6 characters; beyond loopback a key needs at least 16 (e.g. openssl rand -hex 32)",
    ]);
    expect(weakKeyProblem("0123456789abcdef")).toBeNull();
  }, 120_000);
});
