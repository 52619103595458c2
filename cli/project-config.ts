// The project's strand.toml / helix.toml for the commands that need it (serve, check, compile).
import { loadProjectConfig, type ProjectConfig } from "../runtime/config/project-config.js";
import { displayPath } from "./sources.js";

/** The configuration, or null after printing every error (the caller exits 1). */
export function readProjectConfig(dir: string): ProjectConfig | null {
  const result = loadProjectConfig(dir, displayPath);
  if (result.ok) return result.config;
  for (const error of result.errors) process.stderr.write(`strand: ${error}\n`);
  return null;
}
