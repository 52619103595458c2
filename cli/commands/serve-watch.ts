// `strand serve --watch`: on a change to a .hx file or the project's configuration, compile the
// project again and serve the result. Named queries and POST /query's schema are swapped between
// requests (those in flight finish on the old ones); a changed schema also reopens the store with
// it, with the checks and migrations of any start, while new requests wait. A project that does
// not compile, or a schema the data does not take, leaves the last good version serving, with the
// diagnostics printed. One line per reload says what changed. Settings in the configuration
// other than the queries apply at the next start, and the line says so.
import { watch, type FSWatcher } from "node:fs";
import { dirname } from "node:path";
import type { QueryModule } from "../../core/query-module.js";
import type { SchemaDescriptor } from "../../core/schema.js";
import { createEmbedder } from "../../runtime/embed/embedder.js";
import type { ServedNode } from "../../server/node/served-node.js";
import type { RunningServer } from "../../server/server.js";
import type { ProjectConfig } from "../config/load-config.js";
import { loadProjectLayout } from "../config/project-layout.js";
import { KNOBS } from "../config/knobs.js";
import { adHocCompiler } from "../project/adhoc-compiler.js";
import { CompileFailed, loadProject } from "../project/load-project.js";
import { loadOptionsOf, type OpenedProject } from "../project/open-project.js";
import { readProjectConfig } from "../project/project-setup.js";
import { displayPath } from "../project/sources.js";

const CONFIG_FILES = new Set(["strand.toml", "helix.toml", "config.hx.json"]);
/** One save is several events (truncate, write, rename): compile once they have settled. */
const SETTLE_MS = 100;

interface Serving {
  schema: SchemaDescriptor;
  queries: readonly QueryModule[];
  config: ProjectConfig;
}

export interface WatchedProject {
  dir: string;
  opened: OpenedProject;
  served: ServedNode;
  server: RunningServer;
  say: (line: string) => void;
}

/** Watches the project until the returned function is called. */
export function watchProject(target: WatchedProject): () => void {
  const { opened, say } = target;
  let serving: Serving = { schema: opened.project.schema, queries: opened.project.queries, config: opened.config };
  const changed = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopped = false;

  const run = (): void => {
    timer = null;
    if (running !== null || stopped) return; // the reload running picks the changes up when it ends
    const files = [...changed].sort();
    changed.clear();
    running = reload(target, serving, files)
      .then((next) => {
        if (next !== null) serving = next;
      })
      .catch((error: unknown) => say(`strand: reload failed: ${(error as Error).stack ?? String(error)}`))
      .finally(() => {
        running = null;
        if (changed.size > 0 && !stopped) run();
      });
  };
  const onChange = (name: string | null): void => {
    if (name === null || !(name.endsWith(".hx") || CONFIG_FILES.has(name))) return;
    changed.add(name);
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(run, SETTLE_MS);
  };
  const layout = loadProjectLayout(target.dir);
  const folders = new Set([layout.ok ? layout.sources : target.dir]);
  if (opened.config.file !== null) folders.add(dirname(opened.config.file));
  const watchers: FSWatcher[] = [];
  for (const folder of folders) {
    const watcher = watch(folder, (_event, name) => onChange(name));
    watcher.on("error", (error) => say(`strand: stopped watching ${displayPath(folder)}: ${error.message}`));
    watchers.push(watcher);
  }
  say(`strand: watching ${[...folders].map(displayPath).join(", ")} for changes to .hx files and ${[...CONFIG_FILES].join(", ")}`);
  return () => {
    stopped = true;
    if (timer !== null) clearTimeout(timer);
    for (const watcher of watchers) watcher.close();
  };
}

/** Compiles and serves the project as it is now; what serves afterwards, or null when nothing changed hands. */
async function reload(target: WatchedProject, serving: Serving, files: string[]): Promise<Serving | null> {
  const { opened, served, server, say } = target;
  const started = performance.now();
  const failed = (why: string): null => {
    say(`strand: reload failed (${files.join(", ")}): ${why}; still serving the last good version`);
    return null;
  };
  const setup = readProjectConfig(target.dir);
  if (setup === null) return failed("the project's configuration does not load (above)");
  // The running settings compile the queries: a changed bm25 or mcp needs the store and server restarted.
  const running = opened.config;
  let project: Awaited<ReturnType<typeof loadProject>>;
  try {
    project = await loadProject(setup.sources, loadOptionsOf(running, opened.settings.store.dataDir));
  } catch (error) {
    if (!(error instanceof CompileFailed)) throw error;
    say(error.report);
    return failed(error.message);
  }
  if (project.warnings !== "") say(project.warnings);
  for (const model of project.models) {
    const created = createEmbedder(model, process.env);
    if (!created.ok) return failed(`#[model("${model}")]: ${created.error}`);
  }
  const schemaChanged = JSON.stringify(project.schema) !== JSON.stringify(serving.schema);
  let storeProblem: string | null = null;
  const swapped = await server.reload(
    { schema: project.schema, queries: project.queries, adhoc: adHocCompiler(project.sources, { bm25: opened.settings.store.bm25 }) },
    schemaChanged
      ? async () => {
          try {
            await served.replaceStore(
              () => opened.openStoreWith(project.schema),
              () => opened.openStoreWith(serving.schema),
            );
            return true;
          } catch (error) {
            storeProblem = (error as Error).message;
            return false;
          }
        }
      : undefined,
  );
  if (!swapped) return failed(`the store does not take the new schema: ${storeProblem ?? "unknown"}`);
  const parts = [queryChanges(serving.queries, project.queries), schemaChanged ? "schema changed, store reopened" : "schema unchanged"];
  const settings = settingChanges(serving.config, setup.config);
  if (settings.length > 0) parts.push(`${settings.join(", ")} changed: they apply at the next start`);
  say(`strand: reloaded (${files.join(", ")}): ${parts.join("; ")} in ${Math.round(performance.now() - started)} ms`);
  return { schema: project.schema, queries: project.queries, config: setup.config };
}

/** "queries: +Added, -Removed, ~Changed", or "queries unchanged". */
function queryChanges(before: readonly QueryModule[], after: readonly QueryModule[]): string {
  const old = new Map(before.map((q) => [q.name, fingerprint(q)]));
  const now = new Map(after.map((q) => [q.name, fingerprint(q)]));
  const added = [...now.keys()].filter((n) => !old.has(n)).map((n) => `+${n}`);
  const removed = [...old.keys()].filter((n) => !now.has(n)).map((n) => `-${n}`);
  const changed = [...now.keys()].filter((n) => old.has(n) && old.get(n) !== now.get(n)).map((n) => `~${n}`);
  const all = [...added, ...removed, ...changed];
  return all.length === 0 ? "queries unchanged" : `queries ${all.join(" ")}`;
}

function fingerprint(q: QueryModule): string {
  return JSON.stringify({ params: q.params, writes: q.writes, mcp: q.mcp, returns: q.returns, run: q.run.toString() });
}

/** The configuration's settings that differ, each by its dotted name (a reload applies none of them). */
function settingChanges(before: ProjectConfig, after: ProjectConfig): string[] {
  const a = leaves({ ...before, file: null });
  const b = leaves({ ...after, file: null });
  // The settings a file gives sit under `given`, by section and knob (config/knobs.ts): named as
  // the file names them, `[server] body_limit`.
  const name = (path: string): string => {
    const [root, section, knob] = path.split(".");
    if (root !== "given" || section === undefined || knob === undefined) return path;
    const row = (KNOBS as unknown as Record<string, Record<string, { toml?: readonly [string, string] }>>)[section]?.[knob];
    return row?.toml === undefined ? `${section}.${knob}` : `[${row.toml[0]}] ${row.toml[1]}`;
  };
  return [...new Set([...a.keys(), ...b.keys()])]
    .filter((k) => a.get(k) !== b.get(k))
    .map(name)
    .sort();
}

/** Every leaf value of a plain object, as JSON, by its dotted path. */
function leaves(value: unknown, prefix = "", out = new Map<string, string>()): Map<string, string> {
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) leaves(v, prefix === "" ? k : `${prefix}.${k}`, out);
  } else out.set(prefix, JSON.stringify(value));
  return out;
}
