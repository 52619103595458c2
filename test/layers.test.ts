// The shape of the tree, checked from the code's own imports (docs/ARCHITECTURE.md):
// each layer imports only downward — core nothing of ours; compiler only core; runtime only
// core; server only runtime and core; cli anything; langgraph (a client over HTTP) nothing —
// and neither files nor folders import each
// other in a circle. Type-only imports count: a cycle of types is still a cycle for a reader.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const repo = path.resolve(import.meta.dirname, "..");
const LAYERS = ["core", "compiler", "runtime", "server", "cli", "langgraph"] as const;
type Layer = (typeof LAYERS)[number];

/** What each layer may import besides itself. */
const ALLOWED: Record<Layer, readonly Layer[]> = {
  core: [],
  compiler: ["core"],
  runtime: ["core"],
  server: ["runtime", "core"],
  cli: ["server", "runtime", "compiler", "core"],
  langgraph: [],
};

/** Files written by a tool, not by hand (the line limit does not apply to them). */
const GENERATED = new Set(["compiler/syntax/parser.generated.js", "compiler/parser.generated.js"]);
const MAX_LINES = 450;

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(path.join(repo, dir))) {
    const rel = `${dir}/${name}`;
    if (statSync(path.join(repo, rel)).isDirectory()) out.push(...sourceFiles(rel));
    else if (/\.(ts|js)$/.test(name)) out.push(rel);
  }
  return out;
}

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)["'](\.{1,2}\/[^"']+)["']/gm;

/** Repo-relative paths of the project files that `file` imports. */
function importsOf(file: string, known: ReadonlySet<string>): string[] {
  const text = readFileSync(path.join(repo, file), "utf8");
  const out: string[] = [];
  for (const match of text.matchAll(SPECIFIER)) {
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), match[1]!));
    const resolved = [target.replace(/\.js$/, ".ts"), target].find((c) => known.has(c));
    if (resolved === undefined) throw new Error(`${file}: cannot resolve import '${match[1]}'`);
    out.push(resolved);
  }
  return out;
}

const files = LAYERS.flatMap((layer) => sourceFiles(layer));
const known = new Set(files);
const graph = new Map(files.map((f) => [f, importsOf(f, known)]));
const layerOf = (file: string): Layer => file.split("/")[0] as Layer;

/** Strongly connected components with more than one member (or a self-import): the cycles. */
function cycles(nodes: readonly string[], edges: (n: string) => readonly string[]): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges(v)) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || edges(v).includes(v)) found.push(component.sort());
    }
  };
  for (const n of nodes) if (!index.has(n)) visit(n);
  return found;
}

describe("layers", () => {
  it("finds the production files", () => {
    for (const layer of LAYERS)
      expect(
        files.some((f) => layerOf(f) === layer),
        layer,
      ).toBe(true);
  });

  it("each layer imports only the layers below it", () => {
    const wrong: string[] = [];
    for (const [file, targets] of graph) {
      for (const target of targets) {
        const from = layerOf(file);
        const to = layerOf(target);
        if (from !== to && !ALLOWED[from].includes(to)) wrong.push(`${file} -> ${target}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("no file imports itself through other files", () => {
    expect(cycles(files, (f) => graph.get(f)!)).toEqual([]);
  });

  it("no folder imports itself through other folders", () => {
    const folderEdges = new Map<string, Set<string>>();
    for (const [file, targets] of graph) {
      const from = path.posix.dirname(file);
      const set = folderEdges.get(from) ?? new Set<string>();
      folderEdges.set(from, set);
      for (const target of targets) if (path.posix.dirname(target) !== from) set.add(path.posix.dirname(target));
    }
    const folders = [...folderEdges.keys()];
    expect(cycles(folders, (d) => [...(folderEdges.get(d) ?? [])])).toEqual([]);
  });

  it("no subfolder imports the files of a folder above it (they are that folder's face, built on it)", () => {
    const upward: string[] = [];
    for (const [file, targets] of graph) {
      for (const target of targets) {
        const dir = path.posix.dirname(target);
        const from = path.posix.dirname(file);
        if (from !== dir && from.startsWith(`${dir}/`)) upward.push(`${file} -> ${target}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it(`no hand-written production file is over ${MAX_LINES} lines`, () => {
    const long = files
      .filter((f) => !GENERATED.has(f))
      .map((f) => ({ f, lines: readFileSync(path.join(repo, f), "utf8").split("\n").length }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ f, lines }) => `${f}: ${lines}`);
    expect(long).toEqual([]);
  });
});
