// Parses `strand <command> [dir] [flags]` into a typed command. Bad input throws UsageError.
import { join, resolve } from "node:path";
import {
  DEFAULT_DATA_DIR,
  DEFAULT_MEMORY_DATA_DIR,
  DEFAULT_OUT_DIR,
  DEFAULT_PORT,
  DEFAULT_RUNTIME_IMPORT,
  DEFAULT_SERVE_HOST,
} from "../config/defaults.js";
import { COMMAND_NAMES, OPTION_ENV, UsageError } from "./usage.js";
import { closestName } from "../../core/suggest.js";
import { nonEmpty, parse } from "./parse-flags.js";
import { keysCommand, tenantCommand } from "./access-args.js";
import { TEMPLATE_NAMES } from "./templates.js";
import { leaderUrl } from "../../runtime/replication/leader-fetch.js";
import { checkGroupName, parseEndpoints } from "../config/cluster-values.js";
import { givenByFlags } from "../config/given.js";
import { FlagError } from "../config/knob-values.js";
import { KNOBS, knobRows, type GivenSettings } from "../config/knobs.js";
import type { ExportOptions } from "./export.js";
import type { ImportOptions } from "./import.js";
import type { InitOptions } from "./init.js";
import type { McpOptions } from "./mcp.js";
import type { MemoryImportOptions, MemoryOptions } from "./memory.js";
import type { ServeOptions } from "./serve.js";
import type { StatusOptions } from "./status.js";
import type { QueryOptions } from "./query.js";
import type { ShellOptions } from "./shell.js";
import type { KeysOptions } from "./keys.js";
import type { TenantOptions } from "./tenant.js";

export type Command =
  | { kind: "help"; command?: string }
  | { kind: "version" }
  | ({ kind: "init" } & InitOptions)
  | { kind: "check"; dir: string }
  | { kind: "compile"; dir: string; outDir: string; runtimeImport: string }
  | ({ kind: "serve" } & ServeOptions)
  | ({ kind: "mcp" } & McpOptions)
  | ({ kind: "memory" } & MemoryOptions)
  | ({ kind: "memory-import" } & MemoryImportOptions)
  | { kind: "verify"; dataDir: string }
  | { kind: "backup"; dataDir: string; out: string }
  | { kind: "restore"; backup: string; dataDir: string }
  | ({ kind: "import" } & ImportOptions)
  | ({ kind: "export" } & ExportOptions)
  | ({ kind: "status" } & StatusOptions)
  | ({ kind: "query" } & QueryOptions)
  | ({ kind: "shell" } & ShellOptions)
  | { kind: "keys"; keys: KeysOptions }
  | { kind: "tenant"; tenant: TenantOptions };

const HELP = { help: { type: "boolean", short: "h" } } as const;
const INIT_FLAGS = { ...HELP, template: { type: "string" } } as const;
const COMPILE_FLAGS = { ...HELP, out: { type: "string" }, "runtime-import": { type: "string" } } as const;
/** Every flag of the settings table (config/knobs.ts) takes a value. */
const SETTING_FLAGS: Record<string, { type: "string" }> = Object.fromEntries(
  knobRows().flatMap(({ knob }) => (knob.flag === undefined ? [] : [[knob.flag.slice(2), { type: "string" as const }]])),
);
const SERVE_FLAGS = { ...HELP, ...SETTING_FLAGS, watch: { type: "boolean" } } as const;
const SERVE_FLAG_NAMES = new Set(knobRows().flatMap(({ knob }) => (knob.flag === undefined ? [] : [knob.flag])));
const MCP_FLAG_NAMES = new Set(["--data", "--cache-entries", "--cache-size", "--vector-data"]);

const MEMORY_FLAGS = { ...HELP, data: { type: "string" }, "embedding-model": { type: "string" } } as const;
const DATA_FLAGS = { ...HELP, data: { type: "string" }, out: { type: "string" } } as const;
const IMPORT_FLAGS = {
  ...HELP,
  data: { type: "string" },
  type: { type: "string" },
  "skip-bad": { type: "boolean" },
  rejects: { type: "string" },
} as const;
const EXPORT_FLAGS = { ...HELP, data: { type: "string" }, out: { type: "string" } } as const;

const QUERY_FLAGS = { ...HELP, params: { type: "string" }, key: { type: "string" }, explain: { type: "boolean" } } as const;
const SHELL_FLAGS = {
  ...HELP,
  key: { type: "string" },
  json: { type: "boolean" },
  data: { type: "string" },
  write: { type: "boolean" },
} as const;

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
  "vector-data": { type: "string" },
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
    case "init": {
      const { values, positionals } = parse(name, rest, INIT_FLAGS);
      if (values.help === true) return { kind: "help", command: name };
      const template = nonEmpty("--template", values.template);
      if (template !== undefined) checkTemplate(template);
      return { kind: "init", dir: projectDir(positionals), ...(template === undefined ? {} : { template }) };
    }
    case "check": {
      const { values, positionals } = parse(name, rest, HELP);
      if (values.help === true) return { kind: "help", command: name };
      return { kind: name, dir: projectDir(positionals) };
    }
    case "compile": {
      const { values, positionals } = parse(name, rest, COMPILE_FLAGS);
      if (values.help === true) return { kind: "help", command: name };
      return {
        kind: "compile",
        dir: projectDir(positionals),
        outDir: resolve(nonEmpty("--out", values.out) ?? DEFAULT_OUT_DIR),
        runtimeImport: nonEmpty("--runtime-import", values["runtime-import"]) ?? DEFAULT_RUNTIME_IMPORT,
      };
    }
    case "serve": {
      const { values, positionals } = parse(name, rest, SERVE_FLAGS);
      if (values.help === true) return { kind: "help", command: name };
      const dir = projectDir(positionals);
      const flags = withProjectData(settingFlags(values, env, SERVE_FLAG_NAMES), dir);
      if (flags.server.apiKey !== undefined && flags.server.apiKeyFile !== undefined) {
        throw new UsageError("give the api key once: --api-key (or STRAND_API_KEY) or --api-key-file (or STRAND_API_KEY_FILE)");
      }
      if (flags.cluster.etcd !== undefined && flags.replication.follow !== undefined)
        throw new UsageError("--follow and --etcd exclude each other: with etcd the group decides whom a node follows");
      const watch = values.watch === true;
      if (watch && (flags.cluster.etcd !== undefined || flags.replication.follow !== undefined))
        throw new UsageError("--watch serves a project as it is edited: not with --follow or --etcd, whose nodes must serve one schema");
      return { kind: "serve", dir, flags, ...(watch ? { watch } : {}) };
    }
    case "mcp": {
      const { values, positionals } = parse(name, rest, MCP_FLAGS);
      if (values.help === true) return { kind: "help", command: name };
      if (values.stdio !== true) throw new UsageError("strand mcp needs --stdio (over HTTP, `strand serve` answers MCP at /mcp)");
      const dir = projectDir(positionals);
      return { kind: "mcp", dir, flags: withProjectData(settingFlags(values, env, MCP_FLAG_NAMES), dir) };
    }
    case "memory": {
      const { values, positionals } = parse(name, rest, MEMORY_FLAGS);
      if (values.help === true) return { kind: "help", command: name };
      const given = settingFlags(values, env, new Set(["--data"])).store.dataDir;
      const dataDir = given ?? resolve(DEFAULT_MEMORY_DATA_DIR);
      const embeddingModel = values["embedding-model"];
      if (positionals.length === 0) return { kind: "memory", dataDir, embeddingModel };
      if (positionals[0] !== "import")
        throw new UsageError(`strand memory takes no arguments, or import FILE; got ${positionals.join(" ")}`);
      if (positionals.length !== 2) throw new UsageError("strand memory import needs exactly one file: strand memory import memory.jsonl");
      return { kind: "memory-import", dataDir, file: resolve(positionals[1]!), embeddingModel };
    }
    case "verify": {
      const { values, positionals } = parse(name, rest, HELP);
      if (values.help === true) return { kind: "help", command: name };
      if (positionals.length !== 1)
        throw new UsageError(
          `strand verify needs exactly one data directory, got ${positionals.length === 0 ? "none" : positionals.join(" ")}`,
        );
      return { kind: "verify", dataDir: resolve(positionals[0]!) };
    }
    case "backup": {
      const { values, positionals } = parse(name, rest, DATA_FLAGS);
      if (values.help === true) return { kind: "help", command: name };
      if (positionals.length > 0) throw new UsageError(`strand backup takes no positional arguments, got ${positionals.join(" ")}`);
      const out = nonEmpty("--out", values.out);
      if (out === undefined) throw new UsageError("strand backup needs --out <backup dir> (a new name)");
      return { kind: "backup", dataDir: dataDirOf(values, env), out: resolve(out) };
    }
    case "restore": {
      const { values, positionals } = parse(name, rest, DATA_FLAGS);
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
      const { values, positionals } = parse(name, rest, IMPORT_FLAGS);
      if (values.help === true) return { kind: "help", command: name };
      // strand import <project> FILE...: the project comes first, then at least one file.
      if (positionals.length < 2)
        throw new UsageError(
          "strand import needs a project directory and at least one file: strand import <dir> --data <data dir> FILE...",
        );
      const rejects = nonEmpty("--rejects", values.rejects);
      if (rejects !== undefined && values["skip-bad"] !== true) throw new UsageError("--rejects goes with --skip-bad");
      const dir = resolve(positionals[0]!);
      return {
        kind: "import",
        dir,
        dataDir: dataDirOf(values, env, dir),
        files: positionals.slice(1).map((file) => resolve(file)),
        csvType: nonEmpty("--type", values.type),
        skipBad: values["skip-bad"] === true,
        rejectsPath: rejects === undefined ? undefined : resolve(rejects),
      };
    }
    case "export": {
      const { values, positionals } = parse(name, rest, EXPORT_FLAGS);
      if (values.help === true) return { kind: "help", command: name };
      // The project only places the default data directory; the types come from the data itself.
      const dir = projectDir(positionals);
      const out = nonEmpty("--out", values.out) ?? "-";
      return {
        kind: "export",
        dataDir: dataDirOf(values, env, dir),
        out: out === "-" ? out : resolve(out),
      };
    }
    case "status": {
      const { values, positionals } = parse(name, rest, STATUS_FLAGS);
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
    case "query": {
      const { values, positionals } = parse(name, rest, QUERY_FLAGS);
      if (values.help === true) return { kind: "help", command: name };
      if (positionals.length === 0 || positionals.length > 2)
        throw new UsageError("strand query needs a server's URL, then the query (or the query on stdin)");
      const url = leaderUrl(positionals[0]!);
      if (url === null) throw new UsageError(`strand query: the first argument must be a server's http(s) URL, got "${positionals[0]}"`);
      let params: unknown = {};
      if (values.params !== undefined) {
        try {
          params = JSON.parse(values.params);
        } catch (error) {
          throw new UsageError(`--params must be a JSON object: ${(error as Error).message}`);
        }
        if (typeof params !== "object" || params === null || Array.isArray(params)) throw new UsageError("--params must be a JSON object");
      }
      return {
        kind: "query",
        url,
        text: positionals[1] ?? null,
        params: params as Record<string, unknown>,
        key: nonEmpty("--key", values.key) ?? (env.STRAND_API_KEY === "" ? undefined : env.STRAND_API_KEY),
        explain: values.explain === true,
      };
    }
    case "keys":
      return keysCommand(rest, env);
    case "tenant":
      return tenantCommand(rest, env);
    case "shell":
      return shellCommand(rest, env);
    default: {
      const near = closestName(name, COMMAND_NAMES);
      throw new UsageError(`unknown command "${name}"${near === undefined ? "" : `; did you mean "${near}"?`}`);
    }
  }
}

/**
 * `strand shell [URL]` (default: the local server `strand serve` starts) or `strand shell [dir]
 * --data DIR [--write]` (a stopped store, opened in process): a URL is http(s), anything else a project.
 */
function shellCommand(rest: string[], env: NodeJS.ProcessEnv): Command {
  const { values, positionals } = parse("shell", rest, SHELL_FLAGS);
  if (values.help === true) return { kind: "help", command: "shell" };
  if (positionals.length > 1)
    throw new UsageError(`strand shell takes one server URL or one project directory, got ${positionals.join(" ")}`);
  const first = positionals[0];
  const json = values.json === true;
  const url = first === undefined ? null : leaderUrl(first);
  if (url !== null || (first === undefined && values.data === undefined && values.write !== true)) {
    if (values.data !== undefined || values.write === true)
      throw new UsageError("--data and --write are for a stopped store (strand shell <dir> --data <dir>), not a server's URL");
    const key = nonEmpty("--key", values.key) ?? (env.STRAND_API_KEY === "" ? undefined : env.STRAND_API_KEY);
    return { kind: "shell", target: { kind: "server", url: url ?? `http://${DEFAULT_SERVE_HOST}:${DEFAULT_PORT}`, key }, json };
  }
  if (/^[a-z][\w+.-]*:\/\/|^[\w.-]+:\d+(\/|$)/i.test(first ?? ""))
    throw new UsageError(`strand shell: a server's URL must be http(s)://host:port, got "${first}"`);
  if (values.key !== undefined) throw new UsageError("--key goes with a server's URL: a store opened in process needs no key");
  const dir = projectDir(positionals);
  const flags = withProjectData(settingFlags(values, env, new Set(["--data"])), dir);
  return { kind: "shell", target: { kind: "local", dir, flags, write: values.write === true }, json };
}

function projectDir(positionals: readonly string[]): string {
  if (positionals.length > 1) throw new UsageError(`expected at most one directory, got: ${positionals.join(" ")}`);
  return resolve(positionals[0] ?? ".");
}

/** A usage error for a name no template has: the closest one, and every one. */
function checkTemplate(name: string): void {
  if (TEMPLATE_NAMES.includes(name)) return;
  const near = closestName(name, TEMPLATE_NAMES);
  throw new UsageError(
    `unknown template "${name}"${near === undefined ? "" : `; did you mean "${near}"?`} (templates: ${TEMPLATE_NAMES.join(", ")})`,
  );
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

/**
 * --data (else STRAND_DATA), else the project's own `<dir>/data` for the commands that take a
 * project, else ./data (backup: the data of the project in the current directory).
 */
function dataDirOf(values: Readonly<Record<string, unknown>>, env: NodeJS.ProcessEnv, project?: string): string {
  const given = settingFlags(values, env, new Set(["--data"])).store.dataDir;
  return given ?? (project === undefined ? KNOBS.store.dataDir.default : projectData(project));
}

/** The project's own data directory unless --data or STRAND_DATA names one: two projects never share one by accident. */
function withProjectData(flags: GivenSettings, dir: string): GivenSettings {
  return flags.store.dataDir !== undefined ? flags : { ...flags, store: { ...flags.store, dataDir: projectData(dir) } };
}

function projectData(dir: string): string {
  return join(dir, DEFAULT_DATA_DIR);
}
