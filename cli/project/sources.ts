// A project is a folder of HelixQL files: every `*.hx` directly inside it, sorted by name.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

export interface SourceFile {
  /** The path as shown in diagnostics: relative to the working directory when inside it. */
  file: string;
  text: string;
}

export class ProjectError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ProjectError";
  }
}

/** Paths as users see them: relative to the working directory when that is shorter. */
export function displayPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel === "" ? "." : rel.startsWith("..") ? path : rel;
}

export function readProjectSources(dir: string): SourceFile[] {
  let names: string[];
  try {
    if (!statSync(dir).isDirectory()) throw new ProjectError(`${displayPath(dir)} is not a directory`);
    names = readdirSync(dir);
  } catch (error) {
    if (error instanceof ProjectError) throw error;
    throw new ProjectError(`cannot read project directory ${displayPath(dir)}: ${(error as Error).message}`);
  }
  const hx = names.filter((n) => n.endsWith(".hx")).sort();
  if (hx.length === 0) throw new ProjectError(`no .hx files in ${displayPath(dir)}`);
  return hx.map((name) => {
    const path = join(dir, name);
    return { file: displayPath(path), text: readFileSync(path, "utf8") };
  });
}
