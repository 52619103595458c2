// The project's strand.toml / helix.toml / config.hx.json for the commands that need it (serve, check, compile,
// mcp), and the folder of its .hx files (cli/config/project-layout.ts).
import { basename } from "node:path";
import type { ProjectConfig } from "../config/load-config.js";
import { loadProjectLayout } from "../config/project-layout.js";
import { displayPath } from "./sources.js";

export interface ProjectSetup {
  config: ProjectConfig;
  /** The folder whose .hx files make the project (helix.toml's `queries` folder, or the project folder). */
  sources: string;
}

/** The configuration and the .hx folder, or null after printing every error (the caller exits 1). */
export function readProjectConfig(dir: string): ProjectSetup | null {
  const result = loadProjectLayout(dir, displayPath);
  if (result.ok) {
    // Settings a HelixDB configuration holds that Strand does not honour: said, never silent.
    for (const warning of result.warnings ?? []) process.stderr.write(`strand: warning: ${warning}\n`);
    return { config: result.config, sources: result.sources };
  }
  for (const error of result.errors) process.stderr.write(`strand: ${error}\n`);
  return null;
}

/** Where the project's settings (`bm25`, `embedding_model`) are set, as hints name it: "strand.toml" or "helix.toml [local.dev]". */
export function bm25Origin(config: ProjectConfig): string {
  if (config.file === null) return "strand.toml";
  return config.section === null ? basename(config.file) : `${basename(config.file)} [${config.section}]`;
}
