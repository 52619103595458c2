// `strand init [dir]`: start a project from the bundled template. Never overwrites .hx files.
import { copyFileSync, existsSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { displayPath, ProjectError } from "../project/sources.js";
import { makeDirs } from "../../runtime/store/make-dirs.js";

/** templates/init, found from both cli/ (sources) and dist/cli/ (built). */
export function templateDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const up of ["../..", "../../.."]) {
    const candidate = resolve(here, up, "templates", "init");
    if (existsSync(candidate)) return candidate;
  }
  throw new ProjectError("the init template (templates/init) is missing from this installation");
}

export function runInit(dir: string): number {
  const template = templateDir();
  const files = readdirSync(template)
    .filter((n) => n.endsWith(".hx"))
    .sort();
  if (existsSync(dir)) {
    const existing = readdirSync(dir).filter((n) => n.endsWith(".hx"));
    if (existing.length > 0) {
      throw new ProjectError(
        `${displayPath(dir)} already contains ${existing.sort().join(", ")}; refusing to overwrite (use an empty directory)`,
      );
    }
  }
  makeDirs(dir);
  for (const name of files) copyFileSync(join(template, name), join(dir, name));
  process.stdout.write(`created ${files.map((f) => displayPath(join(dir, f))).join(", ")}\n`);
  process.stdout.write(`next: strand check ${displayPath(dir)} && strand serve ${displayPath(dir)}\n`);
  return 0;
}
