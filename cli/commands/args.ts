// Parses `strand <command> [dir] [flags]` into a typed command. Bad input throws UsageError.
import { parseArgs } from "node:util";
import { resolve } from "node:path";
import { DEFAULT_DATA_DIR, DEFAULT_OUT_DIR, DEFAULT_PORT, DEFAULT_RUNTIME_IMPORT, DEFAULT_SERVE_HOST } from "../project/defaults.js";
import { OPTION_ENV, UsageError } from "./usage.js";
import { leaderUrl } from "../../runtime/replication/leader-fetch.js";
import { MIN_BODY_LIMIT_BYTES } from "../../server/http/read-body.js";
import { MAX_QUERY_TIMEOUT_MS } from "../../runtime/query/query-deadline.js";
import { MAX_STALL_LIMIT_MS } from "../../server/front-door/stall-limit.js";
import { MAX_MAX_CONNECTIONS_PER_CLIENT } from "../../server/front-door/connection-guard.js";
import { BYTE_SIZE_FORM, parseByteSize } from "../config/byte-size.js";
import {
  checkGroupName,
  MAX_LEASE_TTL_SECONDS,
  MAX_SYNC_REPLICAS,
  MIN_LEASE_TTL_SECONDS,
  parseEndpoints,
} from "../config/cluster-values.js";
import type { ExportOptions } from "./export.js";
import type { ImportOptions } from "./import.js";
import type { McpOptions } from "./mcp.js";
import type { ServeOptions } from "./serve.js";
import type { StatusOptions } from "./status.js";
import { DEFAULT_LOG_LEVEL, LOG_LEVELS, type LogLevel } from "../../server/observe/log-level.js";

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
const SERVE_FLAGS = {
  ...HELP,
  port: { type: "string" },
  host: { type: "string" },
  data: { type: "string" },
  "api-key": { type: "string" },
  "api-key-file": { type: "string" },
  "body-limit": { type: "string" },
  "body-memory-limit": { type: "string" },
  "answer-memory-limit": { type: "string" },
  "stall-limit": { type: "string" },
  "max-connections-per-client": { type: "string" },
  "query-timeout": { type: "string" },
  "cache-entries": { type: "string" },
  "cache-size": { type: "string" },
  cors: { type: "string" },
  "log-level": { type: "string" },
  explorer: { type: "string" },
  follow: { type: "string" },
  "replication-key": { type: "string" },
  "log-retention-entries": { type: "string" },
  "log-retention-bytes": { type: "string" },
  "after-timeout": { type: "string" },
  etcd: { type: "string" },
  group: { type: "string" },
  advertise: { type: "string" },
  "sync-replicas": { type: "string" },
  "lease-ttl": { type: "string" },
  "sync-timeout": { type: "string" },
} as const;

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
      const apiKey = nonEmpty("--api-key", option("--api-key", values["api-key"]));
      const apiKeyFile = nonEmpty("--api-key-file", option("--api-key-file", values["api-key-file"]));
      if (apiKey !== undefined && apiKeyFile !== undefined) {
        throw new UsageError("give the api key once: --api-key (or STRAND_API_KEY) or --api-key-file (or STRAND_API_KEY_FILE)");
      }
      const bodyLimit = option("--body-limit", values["body-limit"]);
      const bodyMemoryLimit = option("--body-memory-limit", values["body-memory-limit"]);
      const answerMemoryLimit = option("--answer-memory-limit", values["answer-memory-limit"]);
      const stallLimit = option("--stall-limit", values["stall-limit"]);
      const maxConnections = option("--max-connections-per-client", values["max-connections-per-client"]);
      const queryTimeout = option("--query-timeout", values["query-timeout"]);
      const cacheEntries = option("--cache-entries", values["cache-entries"]);
      const cacheSize = option("--cache-size", values["cache-size"]);
      const port = option("--port", values.port);
      const serveFlag = (flag: string): string | undefined =>
        nonEmpty(flag, option(flag, values[flag.slice(2) as keyof typeof values] as string | undefined));
      return {
        kind: "serve",
        dir: projectDir(positionals),
        port: port === undefined ? DEFAULT_PORT : integerFlag("--port", port, 0, 65535),
        host: nonEmpty("--host", option("--host", values.host)) ?? DEFAULT_SERVE_HOST,
        dataDir: resolve(nonEmpty("--data", option("--data", values.data)) ?? DEFAULT_DATA_DIR),
        apiKey,
        apiKeyFile: apiKeyFile === undefined ? undefined : resolve(apiKeyFile),
        bodyLimitBytes: bodyLimit === undefined ? undefined : byteSizeFlag("--body-limit", bodyLimit, MIN_BODY_LIMIT_BYTES),
        bodyMemoryLimitBytes:
          bodyMemoryLimit === undefined ? undefined : byteSizeFlag("--body-memory-limit", bodyMemoryLimit, MIN_BODY_LIMIT_BYTES),
        answerMemoryLimitBytes: answerMemoryLimit === undefined ? undefined : byteSizeFlag("--answer-memory-limit", answerMemoryLimit, 1),
        stallLimitMs: stallLimit === undefined ? undefined : integerFlag("--stall-limit", stallLimit, 1, MAX_STALL_LIMIT_MS),
        maxConnectionsPerClient:
          maxConnections === undefined
            ? undefined
            : integerFlag("--max-connections-per-client", maxConnections, 1, MAX_MAX_CONNECTIONS_PER_CLIENT),
        queryTimeoutMs: queryTimeout === undefined ? undefined : integerFlag("--query-timeout", queryTimeout, 0, MAX_QUERY_TIMEOUT_MS),
        cacheEntries: cacheEntries === undefined ? undefined : integerFlag("--cache-entries", cacheEntries, 0, 100_000_000),
        cacheBytes: cacheSize === undefined ? undefined : byteSizeFlag("--cache-size", cacheSize, 0),
        corsOrigins: corsFlag(nonEmpty("--cors", option("--cors", values.cors))),
        explorer: booleanFlag("--explorer", nonEmpty("--explorer", option("--explorer", values.explorer))),
        logLevel: logLevelFlag(nonEmpty("--log-level", option("--log-level", values["log-level"]))),
        replication: replicationFlags(serveFlag),
        cluster: clusterFlags(serveFlag),
      };
    }
    case "mcp": {
      const { values, positionals } = parse(rest, MCP_FLAGS);
      if (values.help === true) return { kind: "help", command: name };
      if (values.stdio !== true) throw new UsageError("strand mcp needs --stdio (over HTTP, `strand serve` answers MCP at /mcp)");
      const cacheEntries = option("--cache-entries", values["cache-entries"]);
      const cacheSize = option("--cache-size", values["cache-size"]);
      return {
        kind: "mcp",
        dir: projectDir(positionals),
        dataDir: resolve(nonEmpty("--data", option("--data", values.data)) ?? DEFAULT_DATA_DIR),
        cacheEntries: cacheEntries === undefined ? undefined : integerFlag("--cache-entries", cacheEntries, 0, 100_000_000),
        cacheBytes: cacheSize === undefined ? undefined : byteSizeFlag("--cache-size", cacheSize, 0),
      };
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
      return { kind: "backup", dataDir: resolve(nonEmpty("--data", option("--data", values.data)) ?? DEFAULT_DATA_DIR), out: resolve(out) };
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
        dataDir: resolve(nonEmpty("--data", option("--data", values.data)) ?? DEFAULT_DATA_DIR),
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
        dataDir: resolve(nonEmpty("--data", option("--data", values.data)) ?? DEFAULT_DATA_DIR),
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

/** `--explorer true|false`; undefined leaves the default (on for a loopback address). */
function booleanFlag(flag: string, value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === "true") return true;
  if (value === "false") return false;
  throw new UsageError(`${flag} must be true or false, got "${value}"`);
}

function logLevelFlag(value: string | undefined): LogLevel {
  if (value === undefined) return DEFAULT_LOG_LEVEL;
  const level = LOG_LEVELS.find((l) => l === value);
  if (level === undefined) throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(", ")}, got "${value}"`);
  return level;
}

/** `--cors https://a.example,https://b.example` (or `*`): each an http(s) origin without a path. */
function corsFlag(value: string | undefined): string[] {
  if (value === undefined) return [];
  const origins = value.split(",").map((o) => o.trim());
  for (const origin of origins) {
    if (origin === "*") continue;
    let url: URL | undefined;
    try {
      url = new URL(origin);
    } catch {
      url = undefined;
    }
    if (url === undefined || (url.protocol !== "http:" && url.protocol !== "https:") || url.origin !== origin.replace(/\/$/, "")) {
      throw new UsageError(
        `--cors takes comma-separated origins like https://app.example:8443 (scheme, host, optional port) or *, got "${origin}"`,
      );
    }
  }
  return origins;
}

function byteSizeFlag(flag: string, value: string | boolean, min: number): number {
  const n = typeof value === "string" ? parseByteSize(value) : null;
  if (n === null || n < min) throw new UsageError(`${flag} takes ${BYTE_SIZE_FORM}, at least ${min}; got "${String(value)}"`);
  return n;
}

function integerFlag(flag: string, value: string | boolean, min: number, max: number): number {
  const n = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(`${flag} must be an integer from ${min} to ${max}, got "${String(value)}"`);
  }
  return n;
}

/** --follow, --replication-key, --log-retention-*, --after-timeout (each also from its STRAND_* variable). */
function replicationFlags(flag: (name: string) => string | undefined): ServeOptions["replication"] {
  const follow = flag("--follow");
  const entries = flag("--log-retention-entries");
  const bytes = flag("--log-retention-bytes");
  const after = flag("--after-timeout");
  if (follow !== undefined && leaderUrl(follow) === null)
    throw new UsageError(`--follow must be the leader's http(s) URL, got "${follow}"`);
  return {
    follow: follow === undefined ? undefined : (leaderUrl(follow) ?? undefined),
    key: flag("--replication-key"),
    logRetentionEntries: entries === undefined ? undefined : integerFlag("--log-retention-entries", entries, 1, Number.MAX_SAFE_INTEGER),
    logRetentionBytes: bytes === undefined ? undefined : integerFlag("--log-retention-bytes", bytes, 4096, Number.MAX_SAFE_INTEGER),
    afterTimeoutMs: after === undefined ? undefined : integerFlag("--after-timeout", after, 0, 600_000),
  };
}

/** --etcd, --group, --advertise, --sync-replicas, --lease-ttl, --sync-timeout (each also from its STRAND_* variable). */
function clusterFlags(flag: (name: string) => string | undefined): ServeOptions["cluster"] {
  const etcd = flag("--etcd");
  const group = flag("--group");
  const advertise = flag("--advertise");
  const sync = flag("--sync-replicas");
  const ttl = flag("--lease-ttl");
  const timeout = flag("--sync-timeout");
  const endpoints = etcd === undefined ? undefined : parseEndpoints(etcd);
  if (endpoints === null)
    throw new UsageError(`--etcd takes etcd endpoints as comma-separated http(s) URLs (http://10.0.0.1:2379,…), got "${etcd}"`);
  if (etcd !== undefined && flag("--follow") !== undefined)
    throw new UsageError("--follow and --etcd exclude each other: with etcd the group decides whom a node follows");
  if (group !== undefined && checkGroupName(group) !== null) throw new UsageError(`--group: ${checkGroupName(group)}`);
  if (advertise !== undefined && leaderUrl(advertise) === null)
    throw new UsageError(`--advertise must be the http(s) URL other nodes reach this one at, got "${advertise}"`);
  return {
    etcd: endpoints,
    group,
    advertise: advertise === undefined ? undefined : (leaderUrl(advertise) ?? undefined),
    syncReplicas: sync === undefined ? undefined : integerFlag("--sync-replicas", sync, 0, MAX_SYNC_REPLICAS),
    leaseTtlSeconds: ttl === undefined ? undefined : integerFlag("--lease-ttl", ttl, MIN_LEASE_TTL_SECONDS, MAX_LEASE_TTL_SECONDS),
    syncTimeoutMs: timeout === undefined ? undefined : integerFlag("--sync-timeout", timeout, 1, 600_000),
  };
}
