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
  mcp --stdio [dir] serve the agent tools over MCP on stdin/stdout (for desktop agents)
      --data <dir>              database directory (default: ./data; not shared with a running serve)
      --cache-entries <n>       as for serve
  verify <data dir> check that every index, adjacency list, keyword and vector index agrees
                   with the records (the store must not be open); exit 1 listing disagreements

dir defaults to the current directory. Options: -h, --help
`;
