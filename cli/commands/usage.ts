// Command-line usage text (all commands, or one: `strand <command> --help`), the environment
// variables every option can also be set by, and the error type for bad invocations (exit code 2).
import { OPTION_ENV } from "../config/knobs.js";

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** Each command's synopsis line and option lines, in the order `strand --help` lists them. */
const COMMANDS: Readonly<Record<string, string>> = {
  init: `  init [dir]       create a new project in dir (default .) from a template: asked on a
                   terminal, else social
      --template <name>         social (users, posts, weighted follows) or agent-memory
                                (memories as vectors with Embed; vector, keyword and hybrid recall)
`,
  check: `  check [dir]      type-check the project's *.hx files; exit 1 on errors
`,
  compile: `  compile [dir]    write the generated TypeScript
      --out <dir>               output directory (default: generated)
      --runtime-import <spec>   module generated code imports types from (default: strand/runtime)
`,
  serve: `  serve [dir]      compile in process and serve every query as POST /<QueryName>
      --port <n>                port (default: 6969; 0 picks a free one)
      --host <addr>             interface (default: 127.0.0.1, local only; 0.0.0.0 for all)
      --data <dir>              database directory (default: <dir>/data, the project's own)
      --api-key <key>           require this x-api-key header (visible in ps: prefer the file or env)
      --api-key-file <file>     read the api key from this file (its first line)
      --read-key <key>          also accept this key, for reads only (writes, /backup and
                                replication answer 403 ROLE_FORBIDDEN)
      --watch                   recompile on a change to a .hx file or strand.toml and serve the
                                result (a schema change reopens the store); a project that does
                                not compile keeps the last good version serving
      --keys-file <file>        also accept the keys in this file, each with its role (strand
                                keys); reloaded when it changes or on SIGHUP
      --tenants <bool>          serve many graphs at /t/<tenant>/… beside the project's own
                                (default: strand.toml [server] tenants, else true; off with
                                --watch)
      --tenant-idle <s>         close a tenant unused this long (default: strand.toml [server]
                                tenant_idle_s, else 60)
      --tenant-memory-release <bool>
                                give back what closed tenants freed once tenants are quiet; a
                                collection requests wait for (default: [server]
                                tenant_memory_release, else true)
      --tenant-max-records <n>  records one tenant may hold; past it its writes answer 507
                                TENANT_FULL (default: [server] tenant_max_records, else 0: none)
      --tenant-max-bytes <size> bytes one tenant's data file may take, e.g. 1GiB; past it 507
                                TENANT_FULL (default: [server] tenant_max_bytes, else 0: none)
      --tenant-max-rps <n>      requests per second one tenant may make; past it 429
                                TENANT_RATE_LIMITED (default: [server] tenant_max_rps, else 0: none)
      --body-limit <size>       largest request body: bytes (at least 2) or e.g. 8MiB
                                (default: strand.toml [server] body_limit, else 8 MiB)
      --answer-limit <size>     largest answer of a query, bytes of JSON or e.g. 64MiB; past it 400
                                RESULT_TOO_LARGE (default: strand.toml [server] answer_limit, else
                                256 MiB; 0: none)
      --idempotency-window <s>  how long a write's answer is kept under its Idempotency-Key, so a
                                retry gets it again (default: strand.toml [server]
                                idempotency_window_s, else 86400: a day)
      --body-memory-limit <size>
                                request bodies held at once, not yet answered; past it 503
                                SERVER_BUSY; at least the body limit (default: strand.toml
                                [server] body_memory_limit, else 512 MiB)
      --answer-memory-limit <size>
                                answers held at once that clients have not read yet; past it
                                503 SERVER_BUSY; one answer alone always passes (default:
                                strand.toml [server] answer_memory_limit, else 1 GiB)
      --front-door <engine|thread>
                                which thread serves HTTP: a thread every request crosses
                                (default; /health prompt whatever holds the engine), or the
                                engine's own, with that thread standing by while one request
                                holds it (~1.6x less CPU a cheap request, /health slower)
      --stall-limit <ms>        /health answers 503 ENGINE_STALLED once one request has
                                held the engine this long (default: strand.toml [server]
                                stall_limit_ms, else 30000)
      --max-connections-per-client <n>
                                connections one client address may hold open; past it a new
                                one gets 429 TOO_MANY_CONNECTIONS (behind a proxy: its pool)
                                (default: strand.toml [server] max_connections_per_client,
                                else 1000)
      --query-timeout <ms>      stop a query (or /mcp step) that runs longer, with 503
                                QUERY_TIMEOUT; its writes are not kept; 0: no limit (default:
                                strand.toml [server] query_timeout_ms, else 60000)
      --cache-entries <n>       decoded records kept in memory for reads (default: 250000; 0: none)
      --cache-size <size>       ... and their estimated memory at most: bytes or e.g. 512MiB
                                (default: a quarter of the JS heap limit, at most 1 GiB)
      --cors <origins>          browser origins allowed to call, comma-separated, or * (default:
                                none: pages of other origins are refused with 403)
      --explorer <true|false>   serve the graph explorer at /explorer (default: true on a loopback
                                address, else false)
      --vector-data <true|false>
                                whether vector records in answers carry their embedding, data
                                (default: strand.toml [server] vector_data_in_answers, else true)
      --log-level <level>       fatal, error, warn, info (default: one line per request), debug,
                                trace or silent; logs go to stderr as JSON lines, or readable lines
                                on a terminal
      --memory <true|false>     also serve the MCP memory server's tools at /memory/mcp, its store in
                                <data>/memory (default: strand.toml [server] memory, else false)
      --follow <url>            run as a read replica of the leader at url: seed an empty --data
                                from its backup, apply its commit log, answer writes 421 NOT_LEADER
      --replication-key <key>   a leader: the key replicas must send (besides the api key); a
                                replica: the key it sends to its leader
      --log-retention-entries <n>  commit log entries kept for replicas (default: 100000)
      --log-retention-bytes <n>    ... and at most about this many bytes (default: 268435456)
      --log-on-demand <true|false>  record and keep log entries only while a replica may ask for
                                them (default: true; a failover group's nodes record every write)
      --after-timeout <ms>      how long a request with Strand-After waits (default: 5000)
      --etcd <urls>             join a failover group on these etcd endpoints (comma-separated):
                                etcd decides which node leads; the others follow it (no --follow)
      --group <name>            the group's name in etcd (strand.toml [cluster] group)
      --advertise <url>         where the other nodes reach this one (default: http://host:port)
      --sync-replicas <n>       acknowledge a write only once n in-sync replicas hold it (default 0)
      --lease-ttl <s>           a silent leader is replaced after this many seconds (default 10)
      --sync-timeout <ms>       a write not replicated in time answers 503 NOT_REPLICATED
                                (committed on the leader only; default 10000)
`,
  mcp: `  mcp --stdio [dir]  serve the agent tools over MCP on stdin/stdout (for desktop agents)
      --data <dir>              database directory (default: <dir>/data; not shared with a running serve)
      --cache-entries <n>       as for serve
      --cache-size <size>       as for serve
      --vector-data <true|false>  as for serve
`,
  memory: `  memory           the MCP memory server (@modelcontextprotocol/server-memory's nine tools) on
                   stdin/stdout, its knowledge graph in a Strand store; one process per directory
      --data <dir>              the memory's directory (default: ./memory-data, in the working directory)
      --embedding-model <model> search_nodes by words and meaning with this model, as embedding_model
                                takes it (e.g. openai:text-embedding-3-small; default: none, words alone)
  memory import FILE  merge a reference memory server's memory.jsonl into the memory, in one
                   transaction: a bad line is named and nothing is written (takes --data, --embedding-model)
`,
  import: `  import <dir> FILE...  load JSON Lines (.jsonl) or CSV (.csv) records into the project's store,
                   each file in one transaction (the store must not be open; see README)
      --data <dir>              database directory (default: <dir>/data, the project's own)
      --type <T>                the type of the rows of CSV files (default: the file name, T.csv)
      --skip-bad                leave bad records out (counted; the first one shown) instead of refusing
                                the file; exit 1 if every record of a file is left out
      --rejects <file>          with --skip-bad: write the left-out records there as JSON lines
`,
  export: `  export [dir]     write every record as JSON Lines, from one snapshot (works while serving)
      --data <dir>              database directory (default: <dir>/data, the project's own)
      --out <file>              where to write (default: -, stdout)
`,
  verify: `  verify <data dir>  check that every index, adjacency list, keyword and vector index agrees
                   with the records (the store must not be open); exit 1 listing disagreements
`,
  backup: `  backup --out <backup dir>  a consistent copy of the store, safe while a server is writing
      --data <dir>              database directory (default: ./data)
`,
  restore: `  restore <backup dir> --data <dir>  restore a backup into a new or empty directory, then verify it
`,
  query: `  query <url> [text]  one ad-hoc query against a running server (POST /query): a whole QUERY,
                   a body with a RETURN, or one expression; from stdin without text; prints the answer
                   as JSON, or the diagnostics with a caret (exit 1)
      --params <json>           the parameters, a JSON object (a body's are typed where it uses them)
      --key <key>               the server's api key (default: STRAND_API_KEY; ad-hoc writes need one)
      --explain                 print what the query reads and how, instead of running it
`,
  shell: `  shell [url]      HelixQL at a prompt against a running server (default: http://127.0.0.1:6969):
                   answers as tables, :help lists the commands (:schema, :queries, :params,
                   :explain, :json); with stdin from a pipe or file, runs the queries it reads
                   (exit 1 if any failed)
  shell [dir] --data <dir>  the same on a stopped store, opened in process; read-only unless --write
      --key <key>               the server's api key (default: STRAND_API_KEY; asked on a terminal)
      --json                    print answers as JSON (default: tables, wide values cut)
      --data <dir>              the store's directory (default: <dir>/data, the project's own); no
                                server may serve it meanwhile (the shell takes its lock, as serve does)
      --write                   let queries write (default: every write is refused)
`,
  status: `  status           a failover group: leader, epoch, in-sync replicas, each member's seq and lag
      --etcd <urls>             the group's etcd endpoints (with --group)
      --group <name>            the group's name
      --url <url>               or one node, as it sees itself (its /replication/status)
      --replication-key <key>   with --url: the node's replication key (or its api key)
`,
  keys: `  keys add <name> --role <role> | list | remove <name>  the keys file a server reads
                   (--keys-file): add makes a random key, prints it once and keeps its digest
      --file <file>             the keys file (created by add)
      --role <role>             read (queries that read), write (also writes) or admin (also
                                /backup and replication)
      --tenant <name>           the key is for this tenant only (/t/<name>/…); others answer 403
`,
  tenant: `  tenant list|create|drop|stats <url> [name]  a running server's tenants (its admin routes):
                   list them, create one, drop one with all its data, or its records and bytes
      --key <key>               an admin key (default: STRAND_API_KEY)
`,
};

/** The environment variable of each option that has one (a flag given on the command line wins). */
export { OPTION_ENV };

/** The width of the environment variables' column: the longest name. */
export const ENV_COLUMN = Math.max(...Object.values(OPTION_ENV).map((v) => v.length));

function environment(options: readonly string[]): string {
  const rows = options.filter((o) => OPTION_ENV[o] !== undefined).map((o) => `  ${OPTION_ENV[o]!.padEnd(ENV_COLUMN)} ${o}`);
  return rows.length === 0 ? "" : `\nenvironment (each sets the option it names, unless given on the command line):\n${rows.join("\n")}\n`;
}

function optionsOf(text: string): string[] {
  return [...new Set([...text.matchAll(/(?<=^ {6})--[a-z-]+/gm)].map((m) => m[0]))];
}

const ALL_OPTIONS = optionsOf(Object.values(COMMANDS).join(""));

export const USAGE = `usage: strand <command> [options]        (strand <command> --help: that command only)

commands:
${Object.values(COMMANDS).join("")}${environment(ALL_OPTIONS)}
dir defaults to the current directory. Options: -h, --help; strand --version prints the version.
`;

/** The commands, in the order `strand --help` lists them. */
export const COMMAND_NAMES: readonly string[] = Object.keys(COMMANDS);

/** Each command's options (and -h, --help), for "did you mean" on a mistyped one. */
export function optionsOfCommand(command: string): string[] {
  const text = COMMANDS[command];
  return text === undefined ? [] : [...optionsOf(text), "--help"];
}

/**
 * One line to follow a bad invocation's message: the command's synopsis (`strand import <dir>
 * FILE... [options]`) and where its options are listed, or for an unknown command the list of
 * commands. The whole usage is ~90 lines, too long to show for one mistyped word.
 */
export function usageLine(command: string | undefined): string {
  const text = command === undefined ? undefined : COMMANDS[command];
  if (text === undefined) return `usage: strand <command> [options]; commands: ${COMMAND_NAMES.join(", ")} (strand --help)\n`;
  const synopsis = text.split("\n")[0]!.trim().split(/ {2,}/)[0]!;
  if (optionsOf(text).length === 0) return `usage: strand ${synopsis} (strand ${command} --help)\n`;
  return `usage: strand ${synopsis} [options] (strand ${command} --help lists them)\n`;
}

/** `strand <command> --help`: the command's synopsis, its options and their environment variables. */
export function commandHelp(command: string): string {
  const text = COMMANDS[command];
  if (text === undefined) return USAGE;
  return `usage: strand ${text.trimStart()}${environment(optionsOf(text))}`;
}
