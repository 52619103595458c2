// Parses `strand <command> [dir] [flags]` into a typed command. Bad input throws UsageError.
import { parseArgs } from "node:util";
import { resolve } from "node:path";
import { DEFAULT_OUT_DIR, DEFAULT_RUNTIME_IMPORT } from "../config/defaults.js";
import { OPTION_ENV, UsageError } from "./usage.js";
import { leaderUrl } from "../../runtime/replication/leader-fetch.js";
import { checkGroupName, parseEndpoints } from "../config/cluster-values.js";
import { givenByFlags } from "../config/given.js";
import { FlagError } from "../config/knob-values.js";
import { KNOBS, knobRows, type GivenSettings } from "../config/knobs.js";
import type { ExportOptions } from "./export.js";
import type { ImportOptions } from "./import.js";
import type { McpOptions } from "./mcp.js";
import type { ServeOptions } from "./serve.js";
import type { StatusOptions } from "./status.js";

export type Command =
  | { kind: "help"; command?: string }
  | { kind: "version" }
  | { kind: "init"; dir: string }
  | { kind: "check"; dir: string }
  | { kind: "compile"; dir: string; outDir: string; runtimeImport: string }
  | ({ kind: "serve" } & ServeOptions)
  | ({ kind: "mcp" } & McpOptions)
  | { kind: "verify"; dataDir: string }
  | { kind: "backup"; dataDir: string; out: string }
  | { kind: "restore"; backup: string; dataDir: string }
  | ({ kind: "import" } & ImportOptions)
  | ({ kind: "export" } & ExportOptions)
  | ({ kind: "status" } & StatusOptions);

const HELP = { help: { type: "boolean", short: "h" } } as const;
const COMPILE_FLAGS = { ...HELP, out: { type: "string" }, "runtime-import": { type: "string" } } as const;
/** Every flag of the settings table (config/knobs.ts) takes a value. */
const SETTING_FLAGS: Record<string, { type: "string" }> = Object.fromEntries(
  knobRows().flatMap(({ knob }) => (knob.flag === undefined ? [] : [[knob.flag.slice(2), { type: "string" as const }]])),
);
const SERVE_FLAGS = { ...HELP, ...SETTING_FLAGS } as const;
const SERVE_FLAG_NAMES = new Set(knobRows().flatMap(({ knob }) => (knob.flag === undefined ? [] : [knob.flag])));
const MCP_FLAG_NAMES = new Set(["--data", "--cache-entries", "--cache-size"]);

const DATA_FLAGS = { ...HELP, data: { type: "string" }, out: { type: "string" } } as const;
const IMPORT_FLAGS = {
  ...HELP,
  data: { type: "string" },
  type: { type: "string" },
  "skip-bad": { type: "boolean" },
  rejects: { type: "string" },
} as const;
const EXPORT_FLAGS = { ...HELP, data: { type: "string" }, out: { type: "string" } } as const;

const STATUS_FLAGS = {
  ...HELP,
  etcd: { type: "string" },
  group: { type: "string" },
  url: { type: "string" },
  "replication-key": { type: "string" },
} as const;

const MCP_FLAGS = {
  ...HELP,
  stdio: { type: "boolean" },
  data: { type: "string" },
  "cache-entries": { type: "string" },
  "cache-size": { type: "string" },
} as const;

export function parseCommand(argv: readonly string[], env: NodeJS.ProcessEnv): Command {
  const [name, ...rest] = argv;
  if (name === undefined || name === "-h" || name === "--help" || name === "help") {
    return rest[0] === undefined ? { kind: "help" } : { kind: "help", command: rest[0] };
  }
  if (name === "--version" || name === "-v" || name === "version") return { kind: "version" };
  /** A flag's value, else its environment variable's (OPTION_ENV), else undefined. */
  const option = <V>(flag: string, value: V | undefined): V | string | undefined => {
    if (value !== undefined) return value;
    const variable = OPTION_ENV[flag];
    const fromEnv = variable === undefined ? undefined : env[variable];
    return fromEnv === undefined || fromEnv === "" ? undefined : fromEnv;
  };
  switch (name) {
    case "init":
    case "check": {
      const { values, positionals } = parse(rest, HELP);
      if (values.help === true) return { kind: "help", command: name };
      return { kind: name, dir: projectDir(positionals) };
    }
    case "compile": {
      const { values, positionals } = parse(rest, COMPILE_FLAGS);
      if (values.help === true) return { kind: "help", command: name };
      return {
        kind: "compile",
        dir: projectDir(positionals),
        outDir: resolve(nonEmpty("--out", values.out) ?? DEFAULT_OUT_DIR),
        runtimeImport: nonEmpty("--runtime-import", values["runtime-import"]) ?? DEFAULT_RUNTIME_IMPORT,
      };
    }
    case "serve": {
      const { values, positionals } = parse(rest, SERVE_FLAGS);
      if (values.help === true) return { kind: "help", command: name };
      const flags = settingFlags(values, env, SERVE_FLAG_NAMES);
      if (flags.server.apiKey !== undefined && flags.server.apiKeyFile !== undefined) {
        throw new UsageError("give the api key once: --api-key (or STRAND_API_KEY) or --api-key-file (or STRAND_API_KEY_FILE)");
      }
      if (flags.cluster.etcd !== undefined && flags.replication.follow !== undefined)
        throw new UsageError("--follow and --etcd exclude each other: with etcd the group decides whom a node follows");
      return { kind: "serve", dir: projectDir(positionals), flags };
    }
    case "mcp": {
      const { values, positionals } = parse(rest, MCP_FLAGS);
      if (values.help === true) return { kind: "help", command: name };
      if (values.stdio !== true) throw new UsageError("strand mcp needs --stdio (over HTTP, `strand serve` answers MCP at /mcp)");
      return { kind: "mcp", dir: projectDir(positionals), flags: settingFlags(values, env, MCP_FLAG_NAMES) };
    }
    case "verify": {
      const { values, positionals } = parse(rest, HELP);
      if (values.help === true) return { kind: "help", command: name };
      if (positionals.length !== 1)
        throw new UsageError(
          `strand verify needs exactly one data directory, got ${positionals.length === 0 ? "none" : positionals.join(" ")}`,
        );
      return { kind: "verify", dataDir: resolve(positionals[0]!) };
    }
    case "backup": {
      const { values, positionals } = parse(rest, DATA_FLAGS);
      if (values.help === true) return { kind: "help", command: name };
      if (positionals.length > 0) throw new UsageError(`strand backup takes no positional arguments, got ${positionals.join(" ")}`);
      const out = nonEmpty("--out", values.out);
      if (out === undefined) throw new UsageError("strand backup needs --out <backup dir> (a new name)");
      return { kind: "backup", dataDir: dataDirOf(values, env), out: resolve(out) };
    }
    case "restore": {
      const { values, positionals } = parse(rest, DATA_FLAGS);
      if (values.help === true) return { kind: "help", command: name };
      if (values.out !== undefined) throw new UsageError("strand restore takes --data <dir>, not --out");
      if (positionals.length !== 1)
        throw new UsageError(
          `strand restore needs exactly one backup directory, got ${positionals.length === 0 ? "none" : positionals.join(" ")}`,
        );
      const dataDir = nonEmpty("--data", option("--data", values.data));
      if (dataDir === undefined) throw new UsageError("strand restore needs --data <dir> (a new or empty directory)");
      return { kind: "restore", backup: resolve(positionals[0]!), dataDir: resolve(dataDir) };
    }
    case "import": {
      const { values, positionals } = parse(rest, IMPORT_FLAGS);
      if (values.help === true) return { kind: "help", command: name };
      // strand import <project> FILE...: the project comes first, then at least one file.
      if (positionals.length < 2)
        throw new UsageError(
          "strand import needs a project directory and at least one file: strand import <dir> --data <data dir> FILE...",
        );
      const rejects = nonEmpty("--rejects", values.rejects);
      if (rejects !== undefined && values["skip-bad"] !== true) throw new UsageError("--rejects goes with --skip-bad");
      return {
        kind: "import",
        dir: resolve(positionals[0]!),
        dataDir: dataDirOf(values, env),
        files: positionals.slice(1).map((file) => resolve(file)),
        csvType: nonEmpty("--type", values.type),
        skipBad: values["skip-bad"] === true,
        rejectsPath: rejects === undefined ? undefined : resolve(rejects),
      };
    }
    case "export": {
      const { values, positionals } = parse(rest, EXPORT_FLAGS);
      if (values.help === true) return { kind: "help", command: name };
      projectDir(positionals); // accepted like serve's; the types come from the data itself
      const out = nonEmpty("--out", values.out) ?? "-";
      return {
        kind: "export",
        dataDir: dataDirOf(values, env),
        out: out === "-" ? out : resolve(out),
      };
    }
    case "status": {
      const { values, positionals } = parse(rest, STATUS_FLAGS);
      if (values.help === true) return { kind: "help", command: name };
      if (positionals.length > 0) throw new UsageError(`strand status takes no positional arguments, got ${positionals.join(" ")}`);
      const url = nonEmpty("--url", values.url);
      const etcd = nonEmpty("--etcd", option("--etcd", values.etcd));
      if (url !== undefined) {
        if (values.etcd !== undefined || values.group !== undefined)
          throw new UsageError("strand status takes either --url (one node) or --etcd and --group (the group), not both");
        const node = leaderUrl(url);
        if (node === null) throw new UsageError(`--url must be a node's http(s) URL, got "${url}"`);
        return {
          kind: "status",
          target: "node",
          url: node,
          key: nonEmpty("--replication-key", option("--replication-key", values["replication-key"])),
        };
      }
      const group = nonEmpty("--group", option("--group", values.group));
      if (etcd === undefined || group === undefined)
        throw new UsageError("strand status needs --etcd <urls> and --group <name> (the group), or --url <node>");
      const endpoints = parseEndpoints(etcd);
      if (endpoints === null) throw new UsageError(`--etcd takes etcd endpoints as comma-separated http(s) URLs, got "${etcd}"`);
      if (checkGroupName(group) !== null) throw new UsageError(`--group: ${checkGroupName(group)}`);
      return { kind: "status", target: "group", endpoints, group };
    }
    default:
      throw new UsageError(`unknown command "${name}"`);
  }
}

type Flags = Parameters<typeof parseArgs>[0] extends infer C ? (C extends { options?: infer O } ? NonNullable<O> : never) : never;

function parse<F extends Flags>(args: string[], options: F) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function projectDir(positionals: readonly string[]): string {
  if (positionals.length > 1) throw new UsageError(`expected at most one directory, got: ${positionals.join(" ")}`);
  return resolve(positionals[0] ?? ".");
}

function nonEmpty(flag: string, value: string | boolean | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value === "") throw new UsageError(`${flag} needs a value`);
  return value;
}

/** The settings the command line gives (config/knobs.ts rows), each flag else its variable; a bad one is a usage error. */
function settingFlags(values: Readonly<Record<string, unknown>>, env: NodeJS.ProcessEnv, flags: ReadonlySet<string>): GivenSettings {
  try {
    return givenByFlags(values, env, flags);
  } catch (error) {
    if (error instanceof FlagError) throw new UsageError(error.message);
    throw error;
  }
}

/** --data (else STRAND_DATA, else ./data), for the commands that read or write a data directory. */
function dataDirOf(values: Readonly<Record<string, unknown>>, env: NodeJS.ProcessEnv): string {
  return settingFlags(values, env, new Set(["--data"])).store.dataDir ?? KNOBS.store.dataDir.default;
}
