// Every setting of `strand serve` (and of `strand mcp`) that a flag, its environment variable or
// strand.toml sets, one row each: where it is read from, the kind of value with its bounds (owned
// by the component that uses it) and its default. args.ts parses the flags by these rows,
// strand.toml's reader reads its keys by them, and settings.ts takes flag over file over default.
// A new setting is one row here and one use of settings.<section>.<key>.
import { resolve } from "node:path";
import { DEFAULT_LOG_RETENTION } from "../../runtime/commit-log/commit-log.js";
import { DEFAULT_QUERY_TIMEOUT_MS, MAX_QUERY_TIMEOUT_MS } from "../../runtime/query/query-deadline.js";
import { DEFAULT_MAX_CONNECTIONS_PER_CLIENT, MAX_MAX_CONNECTIONS_PER_CLIENT } from "../../server/front-door/connection-guard.js";
import { DEFAULT_ANSWER_MEMORY_LIMIT_BYTES } from "../../server/front-door/byte-budget.js";
import { DEFAULT_STALL_LIMIT_MS, MAX_STALL_LIMIT_MS } from "../../server/front-door/stall-limit.js";
import { FRONT_DOORS, type FrontDoor } from "../../server/front-door/front-doors.js";
import { MIN_BODY_LIMIT_BYTES } from "../../server/http/read-body.js";
import { DEFAULT_ANSWER_LIMIT_BYTES } from "../../server/http/json-answer.js";
import { DEFAULT_IDEMPOTENCY_WINDOW_MS } from "../../server/http/idempotency-key.js";
import { DEFAULT_LOG_LEVEL, LOG_LEVELS } from "../../server/observe/log-level.js";
import { DEFAULT_AFTER_TIMEOUT_MS } from "../../server/replication/node.js";
import {
  DEFAULT_LEASE_TTL_SECONDS,
  DEFAULT_SYNC_TIMEOUT_MS,
  MAX_LEASE_TTL_SECONDS,
  MAX_SYNC_REPLICAS,
  MIN_LEASE_TTL_SECONDS,
} from "./cluster-values.js";
import { DEFAULT_DATA_DIR, DEFAULT_PORT, DEFAULT_SERVE_HOST } from "./defaults.js";
import { boolean, bytes, endpoints, groupName, integer, type KnobValue, nodeUrl, oneOf, origins, path, text } from "./knob-values.js";

export interface Knob<T> {
  /** The command-line flag, e.g. "--stall-limit" (absent: strand.toml only). */
  readonly flag?: string;
  /** The environment variable that sets the flag when it is not given. */
  readonly env?: string;
  /** [table, key] in strand.toml, e.g. ["server", "stall_limit_ms"] (absent: no file key). */
  readonly toml?: readonly [table: TomlTableName, key: string];
  readonly value: KnobValue<T>;
  /** Absent: the setting stays undefined when nobody sets it (its user has a default of its own, or none). */
  readonly default?: T;
}

export type TomlTableName = "server" | "replication" | "cluster";

/** A row; with a default, the setting is always defined. */
function knob<T>(row: Knob<T> & { readonly default: T }): Knob<T> & { readonly default: T };
function knob<T>(row: Knob<T>): Knob<T>;
function knob<T>(row: Knob<T>): Knob<T> {
  return row;
}

const MAX_CACHE_ENTRIES = 100_000_000;

export const KNOBS = {
  server: {
    port: knob({ flag: "--port", env: "STRAND_PORT", value: integer(0, 65535), default: DEFAULT_PORT }),
    host: knob({ flag: "--host", env: "STRAND_HOST", value: text, default: DEFAULT_SERVE_HOST }),
    apiKey: knob({ flag: "--api-key", env: "STRAND_API_KEY", value: text }),
    apiKeyFile: knob({ flag: "--api-key-file", env: "STRAND_API_KEY_FILE", value: path }),
    // A key that may only read (server/access/key-ring.ts roles); the api key is an admin key.
    readKey: knob({ flag: "--read-key", env: "STRAND_READ_KEY", value: text }),
    // Named keys with roles, as digests, reloaded when the file changes (server/access/keys-file.ts).
    keysFile: knob({ flag: "--keys-file", env: "STRAND_KEYS_FILE", value: path }),
    corsOrigins: knob<readonly string[]>({ flag: "--cors", env: "STRAND_CORS", value: origins, default: [] }),
    explorer: knob({ flag: "--explorer", env: "STRAND_EXPLORER", value: boolean }),
    logLevel: knob({ flag: "--log-level", env: "STRAND_LOG_LEVEL", value: oneOf(LOG_LEVELS), default: DEFAULT_LOG_LEVEL }),
    bodyLimitBytes: knob({
      flag: "--body-limit",
      env: "STRAND_BODY_LIMIT",
      toml: ["server", "body_limit"],
      value: bytes(MIN_BODY_LIMIT_BYTES),
    }),
    // The largest answer of a query, in bytes of JSON (server/http/json-answer.ts); 0: none.
    answerLimitBytes: knob({
      flag: "--answer-limit",
      env: "STRAND_ANSWER_LIMIT",
      toml: ["server", "answer_limit"],
      value: bytes(0),
      default: DEFAULT_ANSWER_LIMIT_BYTES,
    }),
    // How long a write's answer is kept under its Idempotency-Key (server/http/idempotency-key.ts).
    idempotencyWindowS: knob({
      flag: "--idempotency-window",
      env: "STRAND_IDEMPOTENCY_WINDOW",
      toml: ["server", "idempotency_window_s"],
      value: integer(1, 30 * 86_400),
      default: DEFAULT_IDEMPOTENCY_WINDOW_MS / 1000,
    }),
    // Whether vector records in answers carry their embedding, `data` (core/vector-score.ts).
    vectorDataInAnswers: knob({
      flag: "--vector-data",
      env: "STRAND_VECTOR_DATA",
      toml: ["server", "vector_data_in_answers"],
      value: boolean,
      default: true,
    }),
    // The MCP memory server's tools at /memory/mcp, over <data>/memory (server/memory/). Off by
    // default: it is a second store, writable by every client, that a project did not ask for.
    memory: knob({ flag: "--memory", env: "STRAND_MEMORY", toml: ["server", "memory"], value: boolean, default: false }),
    // Many graphs in one server, at /t/<tenant>/… (server/tenants/); never with --follow, --etcd or --watch.
    tenants: knob({ flag: "--tenants", env: "STRAND_TENANTS", toml: ["server", "tenants"], value: boolean, default: true }),
    // Seconds a tenant stays open unused before it is closed (server/tenants/tenant-registry.ts).
    tenantIdleS: knob({
      flag: "--tenant-idle",
      env: "STRAND_TENANT_IDLE",
      toml: ["server", "tenant_idle_s"],
      value: integer(1, 86_400),
      default: 60,
    }),
    // Give back what closed tenants freed once tenants are quiet (server/tenants/idle-release.ts):
    // a synchronous collection of the engine's heap, which requests wait for (~0.1 s per 25 MB live).
    tenantMemoryRelease: knob({
      flag: "--tenant-memory-release",
      env: "STRAND_TENANT_MEMORY_RELEASE",
      toml: ["server", "tenant_memory_release"],
      value: boolean,
      default: true,
    }),
    // What one tenant may hold and ask (server/tenants/limited-store.ts); 0: no limit.
    tenantMaxRecords: knob({
      flag: "--tenant-max-records",
      env: "STRAND_TENANT_MAX_RECORDS",
      toml: ["server", "tenant_max_records"],
      value: integer(0, Number.MAX_SAFE_INTEGER),
      default: 0,
    }),
    tenantMaxBytes: knob({
      flag: "--tenant-max-bytes",
      env: "STRAND_TENANT_MAX_BYTES",
      toml: ["server", "tenant_max_bytes"],
      value: bytes(0),
      default: 0,
    }),
    tenantMaxRps: knob({
      flag: "--tenant-max-rps",
      env: "STRAND_TENANT_MAX_RPS",
      toml: ["server", "tenant_max_rps"],
      value: integer(0, 1_000_000),
      default: 0,
    }),
  },
  frontDoor: {
    bodyMemoryLimitBytes: knob({
      flag: "--body-memory-limit",
      env: "STRAND_BODY_MEMORY_LIMIT",
      toml: ["server", "body_memory_limit"],
      value: bytes(MIN_BODY_LIMIT_BYTES),
    }),
    answerMemoryLimitBytes: knob({
      flag: "--answer-memory-limit",
      env: "STRAND_ANSWER_MEMORY_LIMIT",
      toml: ["server", "answer_memory_limit"],
      value: bytes(1),
      default: DEFAULT_ANSWER_MEMORY_LIMIT_BYTES,
    }),
    door: knob({
      flag: "--front-door",
      env: "STRAND_FRONT_DOOR",
      value: oneOf(FRONT_DOORS),
      default: "thread" as FrontDoor,
    }),
    stallLimitMs: knob({
      flag: "--stall-limit",
      env: "STRAND_STALL_LIMIT",
      toml: ["server", "stall_limit_ms"],
      value: integer(1, MAX_STALL_LIMIT_MS),
      default: DEFAULT_STALL_LIMIT_MS,
    }),
    maxConnectionsPerClient: knob({
      flag: "--max-connections-per-client",
      env: "STRAND_MAX_CONNECTIONS_PER_CLIENT",
      toml: ["server", "max_connections_per_client"],
      value: integer(1, MAX_MAX_CONNECTIONS_PER_CLIENT),
      default: DEFAULT_MAX_CONNECTIONS_PER_CLIENT,
    }),
  },
  store: {
    dataDir: knob({ flag: "--data", env: "STRAND_DATA", value: path, default: resolve(DEFAULT_DATA_DIR) }),
    cacheEntries: knob({ flag: "--cache-entries", env: "STRAND_CACHE_ENTRIES", value: integer(0, MAX_CACHE_ENTRIES) }),
    cacheBytes: knob({ flag: "--cache-size", env: "STRAND_CACHE_SIZE", value: bytes(0) }),
    queryTimeoutMs: knob({
      flag: "--query-timeout",
      env: "STRAND_QUERY_TIMEOUT",
      toml: ["server", "query_timeout_ms"],
      value: integer(0, MAX_QUERY_TIMEOUT_MS),
      default: DEFAULT_QUERY_TIMEOUT_MS,
    }),
    logRetentionEntries: knob({
      flag: "--log-retention-entries",
      env: "STRAND_LOG_RETENTION_ENTRIES",
      toml: ["replication", "log_retention_entries"],
      value: integer(1, Number.MAX_SAFE_INTEGER),
      default: DEFAULT_LOG_RETENTION.entries,
    }),
    logRetentionBytes: knob({
      flag: "--log-retention-bytes",
      env: "STRAND_LOG_RETENTION_BYTES",
      toml: ["replication", "log_retention_bytes"],
      value: integer(4096, Number.MAX_SAFE_INTEGER),
      default: DEFAULT_LOG_RETENTION.bytes,
    }),
    logOnDemand: knob({
      flag: "--log-on-demand",
      env: "STRAND_LOG_ON_DEMAND",
      toml: ["replication", "log_on_demand"],
      value: boolean,
      default: true,
    }),
  },
  replication: {
    follow: knob({ flag: "--follow", env: "STRAND_FOLLOW", value: nodeUrl("the leader's http(s) URL") }),
    key: knob({ flag: "--replication-key", env: "STRAND_REPLICATION_KEY", value: text }),
    afterTimeoutMs: knob({
      flag: "--after-timeout",
      env: "STRAND_AFTER_TIMEOUT",
      toml: ["replication", "read_after_timeout_ms"],
      value: integer(0, 600_000),
      default: DEFAULT_AFTER_TIMEOUT_MS,
    }),
  },
  cluster: {
    etcd: knob({ flag: "--etcd", env: "STRAND_ETCD", toml: ["cluster", "etcd"], value: endpoints }),
    group: knob({ flag: "--group", env: "STRAND_GROUP", toml: ["cluster", "group"], value: groupName }),
    advertise: knob({ flag: "--advertise", env: "STRAND_ADVERTISE", value: nodeUrl("the http(s) URL other nodes reach this one at") }),
    syncReplicas: knob({
      flag: "--sync-replicas",
      env: "STRAND_SYNC_REPLICAS",
      toml: ["cluster", "sync_replicas"],
      value: integer(0, MAX_SYNC_REPLICAS),
      default: 0,
    }),
    leaseTtlSeconds: knob({
      flag: "--lease-ttl",
      env: "STRAND_LEASE_TTL",
      toml: ["cluster", "lease_ttl_seconds"],
      value: integer(MIN_LEASE_TTL_SECONDS, MAX_LEASE_TTL_SECONDS),
      default: DEFAULT_LEASE_TTL_SECONDS,
    }),
    syncTimeoutMs: knob({
      flag: "--sync-timeout",
      env: "STRAND_SYNC_TIMEOUT",
      toml: ["cluster", "sync_timeout_ms"],
      value: integer(1, 600_000),
      default: DEFAULT_SYNC_TIMEOUT_MS,
    }),
  },
} as const;

type Knobs = typeof KNOBS;
export type SectionName = keyof Knobs;
type ValueOf<K> = K extends { readonly default: infer D }
  ? K extends Knob<infer T>
    ? T
    : D
  : K extends Knob<infer T>
    ? T | undefined
    : never;
type GivenOf<K> = K extends Knob<infer T> ? T | undefined : never;

/** Every setting resolved: flag, else strand.toml, else the row's default (else undefined). */
export type KnobSettings = { readonly [S in SectionName]: { readonly [K in keyof Knobs[S]]: ValueOf<Knobs[S][K]> } };

/** The settings one source gave (the flags and their variables, or strand.toml): undefined where it gave none. */
export type GivenSettings = { [S in SectionName]: { -readonly [K in keyof Knobs[S]]?: GivenOf<Knobs[S][K]> } };

/** Each row with where it lands, for the readers that walk the table. */
export function knobRows(): { section: SectionName; key: string; knob: Knob<unknown> }[] {
  const rows: { section: SectionName; key: string; knob: Knob<unknown> }[] = [];
  for (const section of Object.keys(KNOBS) as SectionName[]) {
    for (const [key, row] of Object.entries(KNOBS[section])) rows.push({ section, key, knob: row as Knob<unknown> });
  }
  return rows;
}

/** Each flag's environment variable (the usage text lists them). */
export const OPTION_ENV: Readonly<Record<string, string>> = Object.fromEntries(
  knobRows().flatMap(({ knob: k }) => (k.flag !== undefined && k.env !== undefined ? [[k.flag, k.env]] : [])),
);
