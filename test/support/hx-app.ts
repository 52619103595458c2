// A HelixQL project served in process: compile the text, open a GraphStore on a fresh temp dir and
// serve it with the HTTP app (createApp), so a test can POST to its queries as a client would.
import type { Hono } from "hono";
import { evaluateQueryModule } from "../../cli/project/query-modules.js";
import { compileQueryScripts } from "../../compiler/scripts.js";
import type { QueryModule } from "../../core/query-module.js";
import type { SchemaDescriptor } from "../../core/schema.js";
import { GraphStore } from "../../runtime/graph-store.js";
import { type AppOptions, createApp } from "../../server/index.js";
import { removeDir, tempDir } from "./store-fixtures.js";

export interface HxApp {
  readonly store: GraphStore;
  readonly schema: SchemaDescriptor;
  /** The compiled queries, as the app serves them. */
  readonly queries: readonly QueryModule[];
  /** POST /<path> with `body` as JSON; the status and the parsed answer. */
  post(path: string, body: unknown): Promise<{ status: number; body: unknown }>;
  /** Closes the store and removes its directory. */
  close(): Promise<void>;
}

/** Compiles `hx` (it must have no errors) and serves it; `options` go to createApp, `storeOptions` to GraphStore.open. */
export async function openHxApp(
  hx: string,
  options: Partial<AppOptions> = {},
  storeOptions: { queryTimeoutMs?: number } = {},
): Promise<HxApp> {
  // The JavaScript `strand serve` runs (compiler/scripts.ts).
  const compiled = compileQueryScripts([{ file: "app.hx", text: hx }], { runtimeImport: "strand/runtime" });
  const errors = compiled.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0 || compiled.schema == null)
    throw new Error(`the project does not compile: ${errors.map((d) => `${d.code} ${d.message}`).join("; ")}`);
  const schema = compiled.schema;
  const queries: QueryModule[] = [];
  for (const f of compiled.files) queries.push(await evaluateQueryModule(f.path, f.text));
  const dir = tempDir("strand-hx-app-");
  const store = GraphStore.open({ path: dir, schema, ...storeOptions });
  const app: Hono = createApp({ store, queries, schema, ...options });
  return {
    store,
    schema,
    queries,
    async post(path, body) {
      const response = await app.request(path, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as unknown };
    },
    async close() {
      await store.close();
      removeDir(dir);
    },
  };
}
