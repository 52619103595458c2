// `strand serve [dir]`: compile in process, open the store, serve until SIGINT/SIGTERM; then stop
// accepting requests, finish the ones in flight, and close the store.
import { startServer, type RunningServer } from "../../server/server.js";
import { mcpConnectionOptions, mcpLimitOptions, openProject } from "../project/open-project.js";
import { displayPath } from "../project/sources.js";

export interface ServeOptions {
  dir: string;
  port: number;
  host: string;
  dataDir: string;
  apiKey: string | undefined;
  bodyLimitBytes: number | undefined;
  cacheEntries: number | undefined;
}

export async function runServe(options: ServeOptions): Promise<number> {
  // strand.toml (or helix.toml), the embedding provider, the project, the store: a bad setting stops startup.
  const opened = await openProject(options.dir, options.dataDir, options.cacheEntries, "serving");
  if (opened === null) return 1;
  const { config, project, store, embedders } = opened;
  let server: RunningServer;
  try {
    server = await startServer({
      store,
      schema: project.schema,
      queries: project.queries,
      apiKey: options.apiKey,
      bodyLimitBytes: options.bodyLimitBytes,
      embedders,
      mcp: config.mcp,
      mcpConnections: { ...mcpConnectionOptions(config), ...mcpLimitOptions(config) },
      bm25: config.bm25,
      vectorMetric: config.vector.metric,
      backup: store,
      port: options.port,
      host: options.host,
    });
  } catch (error) {
    await store.close();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE" || code === "EACCES" || code === "EADDRNOTAVAIL") {
      process.stderr.write(`strand: cannot listen on ${options.host}:${options.port}: ${(error as Error).message}\n`);
      return 1;
    }
    throw error;
  }

  const n = project.queries.length;
  process.stdout.write(
    `strand listening on http://${options.host}:${server.port} ` +
      `(${n} ${n === 1 ? "query" : "queries"}, data in ${displayPath(options.dataDir)})\n`,
  );

  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals): void => {
      if (stopping) {
        process.stderr.write(`strand: ${signal} again, exiting immediately\n`);
        process.exit(1);
      }
      stopping = true;
      process.stdout.write(`strand: ${signal}, shutting down\n`);
      server
        .close()
        .then(() => store.close())
        .then(
          () => resolve(0),
          (error: unknown) => {
            process.stderr.write(`strand: error while shutting down: ${(error as Error).stack ?? String(error)}\n`);
            resolve(1);
          },
        );
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}
