// The project's strand.toml / helix.toml for the commands that need it (serve, check, compile).
import { basename } from "node:path";
import { loadProjectConfig, type ProjectConfig } from "../runtime/config/project-config.js";
import { displayPath } from "./sources.js";

/** The configuration, or null after printing every error (the caller exits 1). */
export function readProjectConfig(dir: string): ProjectConfig | null {
  const result = loadProjectConfig(dir, displayPath);
  if (result.ok) return result.config;
  for (const error of result.errors) process.stderr.write(`strand: ${error}\n`);
  return null;
}

/** Where `bm25` is set, as the E310 hint names it: "strand.toml" or "helix.toml [local.dev]". */
export function bm25Origin(config: ProjectConfig): string {
  if (config.file === null) return "strand.toml";
  return config.section === null ? basename(config.file) : `${basename(config.file)} [${config.section}]`;
}
