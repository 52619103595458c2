// Where a project's .hx files are, and which configuration applies to them. A Strand project is a
// folder of .hx files with an optional strand.toml. A HelixDB v2 project (what `helix init`
// creates) has helix.toml at its root and the .hx files in the folder its `[project] queries`
// names, "./db/" by default. Either folder may be given to `strand check|compile|serve|mcp`:
//
//   <dir>/strand.toml               → the .hx files of <dir>
//   <dir>/helix.toml                → the .hx files of `queries` (relative to helix.toml); without
//                                     `queries`, those of <dir> if it has any, else of <dir>/db
//   no configuration in <dir>, and  → the .hx files of <dir>, with the settings of ../helix.toml
//   ../helix.toml names <dir> as its queries folder (explicitly or by the default "./db/")
//   otherwise                       → the .hx files of <dir>, default settings
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { parse } from "smol-toml";
import { loadProjectConfig, type ProjectConfig } from "./project-config.js";
import { isTable } from "./toml-table.js";

/** HelixDB's default `[project] queries`. */
export const HELIX_DEFAULT_QUERIES = "./db/";

export type LayoutResult = { ok: true; config: ProjectConfig; sources: string } | { ok: false; errors: string[] };

/** The configuration of the project at `dir` and the folder its .hx files are read from (absolute). */
export function loadProjectLayout(dir: string, show: (file: string) => string = (f) => f): LayoutResult {
  const root = resolve(dir);
  const own = loadProjectConfig(root, show);
  if (!own.ok) return own;
  const { config } = own;
  if (config.file !== null) {
    if (basename(config.file) === "strand.toml") return { ok: true, config, sources: root };
    if (config.queries !== null) return { ok: true, config, sources: resolve(dirname(config.file), config.queries) };
    const db = resolve(root, HELIX_DEFAULT_QUERIES);
    return { ok: true, config, sources: !hasHxFiles(root) && isDirectory(db) ? db : root };
  }
  const parent = dirname(root);
  if (parent !== root && !existsSync(join(parent, "strand.toml")) && queriesFolder(join(parent, "helix.toml")) === root) {
    const up = loadProjectConfig(parent, show);
    return up.ok ? { ok: true, config: up.config, sources: root } : up;
  }
  return { ok: true, config, sources: root };
}

/** The absolute folder a helix.toml names as `[project] queries` (default ./db/); null when unreadable. */
function queriesFolder(file: string): string | null {
  if (!existsSync(file)) return null;
  try {
    const project = parse(readFileSync(file, "utf8")).project;
    const queries = project !== undefined && isTable(project) ? project.queries : undefined;
    return resolve(dirname(file), typeof queries === "string" ? queries : HELIX_DEFAULT_QUERIES);
  } catch {
    // Not readable TOML: it cannot be said to name this folder (its own project reports it).
    return null;
  }
}

function hasHxFiles(dir: string): boolean {
  try {
    return readdirSync(dir).some((n) => n.endsWith(".hx"));
  } catch {
    return false;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
