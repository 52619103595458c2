// `strand serve [dir]`: compile in process, open the store, serve until SIGINT/SIGTERM; then stop
// accepting requests, finish the ones in flight, and close the store.
import { mkdirSync } from "node:fs";
import { createEmbedder } from "../../runtime/embed/embedder.js";
import { embeddersFor } from "../../runtime/embed/embedders.js";
import { startServer, type RunningServer } from "../../runtime/http/server.js";
import { GraphStore } from "../../runtime/store/graph-store.js";
import { CompileFailed, loadProject } from "../load-project.js";
import { readProjectConfig } from "../project-config.js";
import { displayPath } from "../sources.js";

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
  // strand.toml (or helix.toml) and the embedding provider first: a bad setting stops startup.
  const config = readProjectConfig(options.dir);
  if (config === null) return 1;
  const embedder = createEmbedder(config.embeddingModel, process.env);
  if (!embedder.ok) {
    process.stderr.write(`strand: ${embedder.error}\n`);
    return 1;
  }

  let project: Awaited<ReturnType<typeof loadProject>>;
  try {
    project = await loadProject(options.dir, { bm25: config.bm25 });
  } catch (error) {
    if (!(error instanceof CompileFailed)) throw error;
    process.stderr.write(`${error.report}\n${error.message}; not serving\n`);
    return 1;
  }
  if (project.warnings !== "") process.stderr.write(`${project.warnings}\n`);

  let store: GraphStore;
  try {
    mkdirSync(options.dataDir, { recursive: true });
    store = GraphStore.open({
      path: options.dataDir,
      schema: project.schema,
      ...(options.cacheEntries === undefined ? {} : { cacheEntries: options.cacheEntries }),
      bm25: config.bm25,
      bm25Stemmer: config.bm25Stemmer,
      vector: config.vector,
    });
  } catch (error) {
    process.stderr.write(`strand: cannot open the data directory ${displayPath(options.dataDir)}: ${(error as Error).message}\n`);
    return 1;
  }
  let server: RunningServer;
  try {
    server = await startServer({
      store,
      schema: project.schema,
      queries: project.queries,
      apiKey: options.apiKey,
      bodyLimitBytes: options.bodyLimitBytes,
      embedders: embeddersFor(embedder.embedder, process.env),
      mcp: config.mcp,
      vectorMetric: config.vector.metric,
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
