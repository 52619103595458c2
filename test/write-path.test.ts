// The write path (docs/ARCHITECTURE.md): every LMDB write of graph data goes through the graph
// writer and its helpers in runtime/write/. This test type-checks the production sources and
// finds every call of an lmdb write method (put, remove, ifNoExists, clearSync, drop, ...) by
// what the called method *is* — a member declared by the lmdb package — not by its name, so a
// QueryContext's drop() or an HNSW index's remove() is no write, and a database handle passed
// around under another name is still one.
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const repo = path.resolve(import.meta.dirname, "..");
const SCANNED = ["runtime", "server", "cli"];
const WRITER_FOLDER = "runtime/write/";
/** lmdb members that change the store's data. */
const WRITE_METHODS = new Set([
  "put",
  "putSync",
  "remove",
  "removeSync",
  "ifNoExists",
  "ifVersion",
  "clearSync",
  "clearAsync",
  "drop",
  "dropSync",
]);

interface WriteCall {
  file: string;
  line: number;
  method: string;
}

function isLmdbDeclaration(declaration: ts.Declaration): boolean {
  return declaration.getSourceFile().fileName.split(path.sep).join("/").includes("/node_modules/lmdb/");
}

/** Every call of an lmdb write method in the production sources, by repo-relative file. */
function lmdbWriteCalls(): WriteCall[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(repo, "tsconfig.json"),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  );
  if (config === undefined) throw new Error("tsconfig.json could not be read");
  const roots = config.fileNames.filter((f) => SCANNED.some((dir) => path.relative(repo, f).startsWith(dir + path.sep)));
  const program = ts.createProgram(roots, config.options);
  const checker = program.getTypeChecker();
  const calls: WriteCall[] = [];
  for (const source of program.getSourceFiles()) {
    const file = path.relative(repo, source.fileName).split(path.sep).join("/");
    if (!SCANNED.some((dir) => file.startsWith(`${dir}/`))) continue;
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && WRITE_METHODS.has(node.expression.name.text)) {
        const symbol = checker.getSymbolAtLocation(node.expression.name);
        if (symbol?.declarations?.some(isLmdbDeclaration)) {
          const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
          calls.push({ file, line, method: node.expression.name.text });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return calls;
}

describe("write path", () => {
  const calls = lmdbWriteCalls();

  it("only runtime/write/ calls lmdb's write methods", () => {
    const outside = calls.filter((c) => !c.file.startsWith(WRITER_FOLDER)).map((c) => `${c.file}:${c.line} ${c.method}`);
    expect(outside).toEqual([]);
  });

  it("finds the writer's own writes (the scan sees what it must forbid elsewhere)", () => {
    const found = (file: string, method: string): boolean => calls.some((c) => c.file === file && c.method === method);
    expect(found("runtime/write/graph-writer.ts", "putSync")).toBe(true);
    expect(found("runtime/write/graph-writer.ts", "removeSync")).toBe(true);
    expect(found("runtime/write/bm25-writes.ts", "clearSync")).toBe(true);
    expect(found("runtime/write/adjacency-writes.ts", "putSync")).toBe(true);
  });
}, 60_000);
