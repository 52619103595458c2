// Where a project's .hx files are, and which configuration applies to them. A Strand project is a
// folder of .hx files with an optional strand.toml. A HelixDB v2 project (what `helix init`
// creates) has helix.toml at its root and the .hx files in the folder its `[project] queries`
// names, "./db/" by default. Either folder may be given to `strand check|compile|serve|mcp`:
//
//   <dir>/strand.toml               → the .hx files of <dir>
//   <dir>/helix.toml                → the .hx files of `queries` (relative to helix.toml); without
//                                     `queries`, those of <dir> if it has any, else of <dir>/db
//   <dir>/config.hx.json            → the .hx files of <dir> (a HelixDB CLI v1 project folder)
//   no configuration in <dir>, and  → the .hx files of <dir>, with the settings of ../helix.toml
//   ../helix.toml names <dir> as its queries folder (explicitly or by the default "./db/")
//   no configuration and no .hx     → <dir>/helixdb-cfg (HelixDB CLI v1's default project folder)
//   files in <dir>, a helixdb-cfg/    with its config.hx.json
//   otherwise                       → the .hx files of <dir>, default settings
//
// A config.hx.json in the folder of the .hx files that a strand.toml or helix.toml overrides is
// not read, and a warning says so (strand.toml > helix.toml > config.hx.json).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { parse } from "smol-toml";
import { type ConfigResult, loadProjectConfig, type ProjectConfig } from "./load-config.js";
import { isTable } from "./value-adapters.js";

/** HelixDB's default `[project] queries`. */
export const HELIX_DEFAULT_QUERIES = "./db/";
/** The folder HelixDB CLI v1's `helix init` created for config.hx.json and the .hx files. */
export const HELIX_V1_FOLDER = "helixdb-cfg";
const V1_CONFIG = "config.hx.json";

/** `warnings` as in ConfigResult: present only when there are some. */
export type LayoutResult = { ok: true; config: ProjectConfig; sources: string; warnings?: string[] } | { ok: false; errors: string[] };

/** The configuration of the project at `dir` and the folder its .hx files are read from (absolute). */
export function loadProjectLayout(dir: string, show: (file: string) => string = (f) => f): LayoutResult {
  const found = findLayout(resolve(dir), show);
  if (!found.ok) return found;
  const { config, sources } = found;
  const warnings = [...(found.warnings ?? [])];
  const v1 = join(sources, V1_CONFIG);
  if (config.file !== null && config.file !== v1 && existsSync(v1)) {
    warnings.push(`${show(v1)}: not read: ${show(config.file)} takes precedence (strand.toml > helix.toml > config.hx.json)`);
  }
  return warnings.length === 0 ? { ok: true, config, sources } : { ok: true, config, sources, warnings };
}

function findLayout(root: string, show: (file: string) => string): LayoutResult {
  const at = (sources: string, from: ConfigResult & { ok: true }): LayoutResult =>
    from.warnings === undefined
      ? { ok: true, config: from.config, sources }
      : { ok: true, config: from.config, sources, warnings: from.warnings };
  const parent = dirname(root);
  const has = (name: string) => existsSync(join(root, name));
  // The queries folder of ../helix.toml, with no strand.toml or helix.toml of its own: the
  // helix.toml's settings (a config.hx.json left here is not read, and loadProjectLayout says so).
  if (
    !has("strand.toml") &&
    !has("helix.toml") &&
    parent !== root &&
    !existsSync(join(parent, "strand.toml")) &&
    queriesFolder(join(parent, "helix.toml")) === root
  ) {
    const up = loadProjectConfig(parent, show);
    return up.ok ? at(root, up) : up;
  }
  const own = loadProjectConfig(root, show);
  if (!own.ok) return own;
  const { config } = own;
  if (config.file !== null) {
    if (basename(config.file) !== "helix.toml") return at(root, own);
    if (config.queries !== null) return at(resolve(dirname(config.file), config.queries), own);
    const db = resolve(root, HELIX_DEFAULT_QUERIES);
    return at(!hasHxFiles(root) && isDirectory(db) ? db : root, own);
  }
  const v1 = join(root, HELIX_V1_FOLDER);
  if (!hasHxFiles(root) && existsSync(join(v1, V1_CONFIG))) {
    const inner = loadProjectConfig(v1, show);
    return inner.ok ? at(v1, inner) : inner;
  }
  return at(root, own);
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
