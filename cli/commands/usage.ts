// Command-line usage text and the error type for bad invocations (exit code 2).

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

export const USAGE = `usage: strand <command> [options]

commands:
  init [dir]       create a new project (schema.hx, queries.hx) in dir (default .)
  check [dir]      type-check the project's *.hx files; exit 1 on errors
  compile [dir]    write the generated TypeScript
      --out <dir>               output directory (default: generated)
      --runtime-import <spec>   module generated code imports types from (default: strand/runtime)
  serve [dir]      compile in process and serve every query as POST /<QueryName>
      --port <n>                port (default: 6969; 0 picks a free one)
      --host <addr>             interface (default: 127.0.0.1, local only; 0.0.0.0 for all)
      --data <dir>              database directory (default: ./data)
      --api-key <key>           require this x-api-key header (default: env STRAND_API_KEY)
      --body-limit <bytes>      largest request body, at least 2 (default: 8388608 = 8 MiB)
      --cache-entries <n>       decoded records kept in memory for reads (default: 250000; 0: none)
      --cors <origins>          browser origins allowed to call, comma-separated, or * (default: env
                                STRAND_CORS; none: pages of other origins are refused with 403)
      --explorer <true|false>   serve the graph explorer at /explorer (default: true on a loopback
                                address, else false; env STRAND_EXPLORER)
      --log-level <level>       fatal, error, warn, info (default: one line per request), debug,
                                trace or silent (default: env STRAND_LOG_LEVEL or info); logs go to
                                stderr as JSON lines, or readable lines on a terminal
  mcp --stdio [dir] serve the agent tools over MCP on stdin/stdout (for desktop agents)
      --data <dir>              database directory (default: ./data; not shared with a running serve)
      --cache-entries <n>       as for serve
  import <dir> FILE...  load JSON Lines (.jsonl) or CSV (.csv) records into the project's store,
                   each file in one transaction (the store must not be open; see README)
      --data <dir>              database directory (default: ./data)
      --type <T>                the type of the rows of CSV files (default: the file name, T.csv)
      --skip-bad                leave bad records out (counted) instead of refusing the file
      --rejects <file>          with --skip-bad: write the left-out records there as JSON lines
  export [dir]     write every record as JSON Lines, from one snapshot (works while serving)
      --data <dir>              database directory (default: ./data)
      --out <file>              where to write (default: -, stdout)
  verify <data dir> check that every index, adjacency list, keyword and vector index agrees
                   with the records (the store must not be open); exit 1 listing disagreements
  backup --out <backup dir>  a consistent copy of the store, safe while a server is writing
      --data <dir>              database directory (default: ./data)
  restore <backup dir> --data <dir>  restore a backup into a new or empty directory, then verify it

dir defaults to the current directory. Options: -h, --help
`;
