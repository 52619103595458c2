// Every path a doc or a comment names exists. A map that names files which were moved or removed
// misleads whoever reads it first; this fails when one does, naming the doc or file, its line and
// the path. A path is looked up as written from the repository's root, from the folder of the file
// that names it, and from its layer (runtime/, server/, ...: comments there name `store/keys.ts`),
// or as the tail of a tracked path (`write/graph-writer.ts`); a bare file name must be the name of
// a tracked file. Markdown is read whole; source files by their comments only.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const repo = path.resolve(import.meta.dirname, "..");
const tracked = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], { cwd: repo, encoding: "utf8" })
  .split("\n")
  .filter((f) => f !== "");
const files = new Set(tracked);
const folders = new Set(
  tracked.flatMap((f) =>
    f
      .split("/")
      .slice(0, -1)
      .map((_, i, parts) => parts.slice(0, i + 1).join("/")),
  ),
);
const names = new Set(tracked.map((f) => path.posix.basename(f)));

const LAYERS = ["core", "compiler", "runtime", "server", "cli", "scripts", "bench", "test", "explorer"];
/** What a doc or comment names: a path of ours by its ending. */
const PATH = /(?<![\w@/.<>$*-])((?:[\w.-]+\/)*[\w-]+(?:\.[\w-]+)*\.(?:ts|mjs|js|md|peggy))(?![\w/-])/g;
/** Comments of a source file: line comments and block comments (not strings, roughly: a `//` inside a string is rare here). */
const COMMENT = /\/\/[^\n]*|\/\*[\s\S]*?\*\//g;

/** What is named but is no file of this repository (a package's, a user's project's, or built output). */
function outside(name: string): boolean {
  return (
    name.startsWith("node_modules/") ||
    name.includes("/node_modules/") ||
    /^(dist|data|generated\/queries|queries|db|src|lmdb|hono|etcd3|tantivy|redb)\//.test(name) ||
    /^(package\.json|tsconfig.*\.json)$/.test(name) ||
    // Node's own sources (lib/_http_server.js), and products named like files (Cytoscape.js).
    name.startsWith("lib/") ||
    /^[A-Z][A-Za-z]*\.js$/.test(name)
  );
}

function exists(name: string, from: string): boolean {
  const layer = from.split("/")[0]!;
  const candidates = [name, path.posix.join(path.posix.dirname(from), name), `${layer}/${name}`, `runtime/${name}`];
  for (const c of candidates) {
    const normal = path.posix.normalize(c);
    if (files.has(normal) || folders.has(normal)) return true;
    // An import-style .js name of a .ts source.
    if (normal.endsWith(".js") && files.has(normal.replace(/\.js$/, ".ts"))) return true;
  }
  if (!name.includes("/")) return names.has(name) || names.has(name.replace(/\.js$/, ".ts"));
  const tail = `/${name}`;
  const tailTs = tail.replace(/\.js$/, ".ts");
  return tracked.some((f) => f.endsWith(tail) || f.endsWith(tailTs));
}

function missingPaths(): string[] {
  const missing: string[] = [];
  for (const file of tracked) {
    const isDoc = file.endsWith(".md");
    const isSource = /\.(ts|mjs)$/.test(file) && LAYERS.includes(file.split("/")[0]!) && !file.endsWith(".generated.js");
    if (!isDoc && !isSource) continue;
    if (file.startsWith("test/fixtures/") || file.startsWith("test/corpus/") || file.startsWith("test/conformance/")) continue;
    const text = readFileSync(path.join(repo, file), "utf8");
    const scanned = isDoc ? [{ at: 0, text }] : [...text.matchAll(COMMENT)].map((m) => ({ at: m.index, text: m[0] }));
    for (const part of scanned) {
      for (const match of part.text.matchAll(PATH)) {
        const name = match[1]!;
        if (outside(name) || exists(name, file)) continue;
        const line = text.slice(0, part.at + match.index).split("\n").length;
        missing.push(`${file}:${line} ${name}`);
      }
    }
  }
  return missing;
}

describe("paths named in docs and comments", () => {
  it("name files and folders that exist", () => {
    expect(missingPaths()).toEqual([]);
  });
});
