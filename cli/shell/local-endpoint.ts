// The endpoint of a stopped store: the project compiled and its store opened in this process, as
// `serve` opens them (open-project.ts: the directory's lock, so no server serves it meanwhile),
// answered by the server's own app (server/app.ts) through `app.request`: no port, the same
// answers. Read-only unless `write`: every write is refused, by the app (no api key: ad-hoc writes
// are forbidden) and by the store under it. With `write`, the app gets a key made here, which only
// this endpoint sends: ad-hoc writes need the caller to hold the server's key.
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { StrandError } from "../../core/errors.js";
import type { QueryStore } from "../../runtime/query/query-store.js";
import { createApp } from "../../server/app.js";
import type { GivenSettings } from "../config/knobs.js";
import { adHocCompiler } from "../project/adhoc-compiler.js";
import { openProject } from "../project/open-project.js";
import { displayPath } from "../project/sources.js";
import type { Endpoint, QueryRequest, Reply } from "./endpoint.js";

export interface LocalOptions {
  dir: string;
  /** --data (or STRAND_DATA), else the project's own data directory. */
  flags: GivenSettings;
  write: boolean;
}

/** Opens the project and its store; null when it cannot (it said why on stderr). */
export async function openLocalEndpoint(options: LocalOptions): Promise<Endpoint | null> {
  // Read-only, a mistyped --data must not become a new, empty store answering 0 to everything.
  const given = options.flags.store.dataDir;
  if (!options.write && given !== undefined && !existsSync(join(given, "data.mdb"))) {
    process.stderr.write(`strand: no store in ${displayPath(given)}: a read-only shell opens an existing one (--write creates it)\n`);
    return null;
  }
  const opened = await openProject(options.dir, options.flags, "starting the shell");
  if (opened === null) return null;
  const { settings, project, store } = opened;
  const dataDir = displayPath(settings.store.dataDir);
  const readOnly = `the shell opened ${dataDir} read-only: start it with --write to write (while no server serves it)`;
  const key = options.write ? randomBytes(24).toString("base64url") : undefined;
  const queryStore: QueryStore = options.write
    ? store
    : {
        read: (fn) => store.read(fn),
        write: () => Promise.reject(new StrandError("WRITE_FORBIDDEN", readOnly)),
        queryTimeoutMs: store.queryTimeoutMs,
      };
  const app = createApp({
    store: queryStore,
    schema: project.schema,
    queries: project.queries,
    apiKey: key,
    embedders: opened.embedders,
    mcp: false,
    bm25: settings.store.bm25,
    vectorMetric: settings.store.vector.metric,
    vectorDataInAnswers: settings.server.vectorDataInAnswers,
    bodyLimitBytes: settings.server.bodyLimitBytes,
    answerLimitBytes: settings.server.answerLimitBytes,
    adhoc: adHocCompiler(project.sources, { bm25: settings.store.bm25 }),
  });
  const headers: Record<string, string> = key === undefined ? {} : { authorization: `Bearer ${key}` };
  const send = async (path: string, init: RequestInit): Promise<Reply> => {
    const res = await app.request(path, { ...init, headers: { ...headers, ...(init.headers as Record<string, string> | undefined) } });
    const body: unknown = await res.json().catch(() => null);
    // The app's refusal names the server's api key, which means nothing here.
    if (!options.write && res.status === 403 && (body as { code?: unknown } | null)?.code === "WRITE_FORBIDDEN") {
      return { reached: true, status: 403, body: new StrandError("WRITE_FORBIDDEN", readOnly).toJSON() };
    }
    return { reached: true, status: res.status, body };
  };
  return {
    where: `${dataDir} (${options.write ? "read-write" : "read-only"})`,
    query: (request: QueryRequest) =>
      send("/query", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: request.text, params: request.params, ...(request.explain ? { explain: true } : {}) }),
      }),
    introspect: () => send("/introspect", { method: "GET" }),
    useKey: () => {},
    close: () => store.close(),
  };
}
