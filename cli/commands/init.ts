// `strand init [dir] [--template <name>]`: start a project from one of the bundled templates
// (templates.ts): the one --template names, else the one chosen from a menu when stdin is a
// terminal, else the default. Copies the template's .hx files and its README.md; never
// overwrites .hx files (refuses) nor a README.md (keeps it).
import { copyFileSync, existsSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { displayPath, ProjectError } from "../project/sources.js";
import { makeDirs } from "../../runtime/store/make-dirs.js";
import { askTemplate } from "./init-prompt.js";
import { curlLine, DEFAULT_TEMPLATE, TEMPLATE_NAMES, templateNamed, type Template } from "./templates.js";

export interface InitOptions {
  dir: string;
  /** A name of TEMPLATE_NAMES (the parser checked it); undefined: ask on a terminal, else the default. */
  template?: string;
}

const README = "README.md";

/** templates/<name>, found from both cli/ (sources) and dist/cli/ (built). */
export function templateDir(name: string): string {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const up of ["../..", "../../.."]) {
    const candidate = resolve(here, up, "templates", name);
    if (existsSync(candidate)) return candidate;
  }
  throw new ProjectError(`the ${name} template (templates/${name}) is missing from this installation`);
}

export async function runInit(options: InitOptions): Promise<number> {
  const { dir } = options;
  const existing = existsSync(dir) ? readdirSync(dir) : [];
  const hx = existing.filter((n) => n.endsWith(".hx")).sort();
  if (hx.length > 0) {
    throw new ProjectError(`${displayPath(dir)} already contains ${hx.join(", ")}; refusing to overwrite (use an empty directory)`);
  }
  const chosen = await chooseTemplate(options.template);
  if (chosen === null) {
    process.stderr.write("strand: no template chosen; nothing created\n");
    return 1;
  }
  const { template, how } = chosen;
  const source = templateDir(template.name);
  const files = readdirSync(source)
    .filter((n) => n.endsWith(".hx") || n === README)
    .sort();
  const kept = files.filter((n) => n === README && existing.includes(n));
  const written = files.filter((n) => !kept.includes(n));
  makeDirs(dir);
  for (const name of written) copyFileSync(join(source, name), join(dir, name));
  process.stdout.write(report(dir, template, how, written, kept));
  return 0;
}

type Chosen = { template: Template; how: "given" | "asked" | "default" } | null;

async function chooseTemplate(name: string | undefined): Promise<Chosen> {
  if (name !== undefined) {
    const template = templateNamed(name);
    if (template === undefined) throw new ProjectError(`unknown template "${name}"`);
    return { template, how: "given" };
  }
  if (process.stdin.isTTY === true) {
    const template = await askTemplate(process.stdin, process.stdout);
    return template === null ? null : { template, how: "asked" };
  }
  return { template: templateNamed(DEFAULT_TEMPLATE)!, how: "default" };
}

/**
 * How the user ran strand, to repeat it in the next steps: through a project's node_modules/.bin
 * (npx strand, an npm script) strand is not on PATH, so `npx strand`.
 */
function command(): string {
  return /[\\/]node_modules[\\/]\.bin[\\/]/.test(process.argv[1] ?? "") ? "npx strand" : "strand";
}

/** Which template, what was written, and what to run next. */
function report(dir: string, template: Template, how: "given" | "asked" | "default", written: string[], kept: string[]): string {
  const at = (name: string): string => displayPath(join(dir, name));
  const lines = [
    how === "default"
      ? `template: ${template.name} (the default; choose with --template ${TEMPLATE_NAMES.join("|")})`
      : `template: ${template.name}`,
    `created ${written.map(at).join(", ")}`,
    ...kept.map((name) => `kept ${at(name)} (the template's ${name} was not copied)`),
    `next: ${command()} check ${displayPath(dir)} && ${command()} serve ${displayPath(dir)}`,
  ];
  if (template.examples.length > 0) {
    lines.push("then, from another terminal:", ...template.examples.map((call) => `  ${curlLine(call)}`));
  }
  if (written.includes(README)) lines.push(`${at(README)} describes every query`);
  return `${lines.join("\n")}\n`;
}
