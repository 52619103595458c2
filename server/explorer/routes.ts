// `/explorer`: the graph explorer, a page bundled at build time (explorer/ → dist/explorer/, see
// scripts/build-explorer.ts) and its read-only API (api.ts). The page, its script and its style
// are public: they hold no data, and a browser cannot send an api key when navigating. Every call
// the page makes for data goes through the api key like any client's (the page asks for the key).
//
// The page's files are GET routes. The API's POSTs are not routes: the app answers them from its
// unrouted-request handler (server/app.ts), because a POST route beside `POST /:name` makes Hono
// fall back from its RegExpRouter to the slower TrieRouter for every query.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Context, Hono } from "hono";
import { StrandError } from "../../core/errors.js";
import type { SchemaDescriptor } from "../../core/schema.js";
import { errorToResponse, jsonErrorResponse } from "../http/error-response.js";
import { jsonRequestBody } from "../http/json-request.js";
import type { QueryStore } from "../../runtime/query/query-store.js";
import { neighbourhood, nodesPage } from "./api.js";

export const EXPLORER_ASSETS: Readonly<Record<string, string>> = {
  "/explorer": "index.html",
  "/explorer/app.js": "app.js",
  "/explorer/style.css": "style.css",
};
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  "index.html": "text/html; charset=utf-8",
  "app.js": "text/javascript; charset=utf-8",
  "style.css": "text/css; charset=utf-8",
};

/** dist/explorer, from the built server (dist/server/explorer) or from the sources (server/explorer). */
export function explorerAssetsDir(): string | null {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const candidate of [join(here, "../../explorer"), join(here, "../../dist/explorer")]) {
    if (existsSync(join(candidate, "app.js"))) return candidate;
  }
  return null;
}

export interface ExplorerOptions {
  store: QueryStore;
  schema: SchemaDescriptor;
  bodyLimitBytes: number;
}

/** The page, its script and its style, as GET routes; `assetsDir` null: each answers 404 (not built). */
export function addExplorerAssets(app: Hono, assetsDir: string | null = explorerAssetsDir()): void {
  const assets = new Map<string, { body: string; type: string }>();
  if (assetsDir !== null) {
    for (const [path, file] of Object.entries(EXPLORER_ASSETS)) {
      assets.set(path, { body: readFileSync(join(assetsDir, file), "utf8"), type: CONTENT_TYPES[file]! });
    }
  }
  for (const path of Object.keys(EXPLORER_ASSETS)) {
    app.get(path, () => {
      const asset = assets.get(path);
      if (asset === undefined) {
        return jsonErrorResponse(
          new StrandError("NOT_FOUND", "the explorer was not built into this installation (npm run build makes dist/explorer)"),
        );
      }
      return new Response(asset.body, { headers: { "content-type": asset.type, "cache-control": "no-cache", ...NO_FRAMING } });
    });
  }
}

/**
 * The page can run queries that write (with the key it asks for): no other site may frame it, or
 * it could lead a user into clicking there (clickjacking). Both headers, for older browsers.
 */
const NO_FRAMING = { "x-frame-options": "DENY", "content-security-policy": "frame-ancestors 'none'" } as const;

type ApiCall = (store: QueryStore, schema: SchemaDescriptor, body: Record<string, unknown>) => unknown;

/** `POST /explorer/api/nodes` and `/neighbours` by path. Errors are answered here, as a route's would be. */
export function explorerApi(options: ExplorerOptions): ReadonlyMap<string, (c: Context) => Promise<Response>> {
  const api = (fn: ApiCall) => async (c: Context) => {
    try {
      const body = await jsonRequestBody(c, options.bodyLimitBytes);
      if (typeof body !== "object" || body === null || Array.isArray(body)) {
        throw new StrandError("INVALID_BODY", "request body must be a JSON object");
      }
      return c.json(fn(options.store, options.schema, body as Record<string, unknown>) as object);
    } catch (error) {
      return errorToResponse(error);
    }
  };
  return new Map([
    ["/explorer/api/nodes", api(nodesPage)],
    ["/explorer/api/neighbours", api(neighbourhood)],
  ]);
}
