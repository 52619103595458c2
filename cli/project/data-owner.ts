// Which project a data directory belongs to, so that serving a second project on the first one's
// data is refused in one line instead of as a schema migration. The directory records its
// project's path in strand-project.json (after an open that succeeded). A project that moved or
// was renamed (the recorded one is gone, or the data lies inside the project) adopts its data.
import { existsSync, readdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from "node:fs";
import { join, relative, isAbsolute } from "node:path";
import { OWNER_FILE } from "../../runtime/store/derived-files.js";
import { displayPath } from "./sources.js";

/** Why `dataDir` must not be opened for the project in `projectDir`, or null when it may. */
export function dataOwnerProblem(dataDir: string, projectDir: string): string | null {
  const recorded = recordedProject(dataDir);
  if (recorded === null) return null;
  const project = canonical(projectDir);
  if (recorded === project || isInside(canonical(dataDir), project) || !isProject(recorded)) return null;
  return (
    `the data directory ${displayPath(dataDir)} belongs to the project ${displayPath(recorded)}, not ${displayPath(projectDir)}; ` +
    `give this one its own with --data (default: ${displayPath(join(projectDir, "data"))})`
  );
}

/** Records `projectDir` as the data directory's project (written whole: a temporary file renamed over). */
export function recordDataOwner(dataDir: string, projectDir: string): void {
  const project = canonical(projectDir);
  if (recordedProject(dataDir) === project) return;
  const file = join(dataDir, OWNER_FILE);
  writeFileSync(`${file}.tmp`, `${JSON.stringify({ project })}\n`);
  renameSync(`${file}.tmp`, file);
}

function recordedProject(dataDir: string): string | null {
  try {
    const parsed: unknown = JSON.parse(readFileSync(join(dataDir, OWNER_FILE), "utf8"));
    const project = (parsed as { project?: unknown } | null)?.project;
    return typeof project === "string" && project !== "" ? project : null;
  } catch {
    return null; // none yet (a store from before, a restore, a seed): the project that opens it adopts it
  }
}

/** A project is still there: its directory holds .hx files (or HelixDB's helix.toml). */
function isProject(dir: string): boolean {
  if (!existsSync(dir)) return false;
  try {
    return readdirSync(dir).some((name) => name.endsWith(".hx") || name === "helix.toml" || name === "strand.toml");
  } catch {
    return false;
  }
}

function canonical(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
}

function isInside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
}
