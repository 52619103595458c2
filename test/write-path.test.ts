// The write path (docs/ARCHITECTURE.md): every LMDB write is made by one of the reviewed writer
// files below — the graph writer and each component's writes, which only the graph writer, the
// commit, a bulk load, a format or schema migration or the vector checkpoints call. A new file that
// writes must be added to WRITERS, with why, in review (as test/layers.test.ts has its allowed
// arrows). This test type-checks the production sources and finds every call of an lmdb write
// method (put, remove, ifNoExists, clearSync, drop, ...) by what the called method *is* — a member
// declared by the lmdb package — not by its name, so a QueryContext's drop() or an HNSW index's
// remove() is no write, and a database handle passed around under another name is still one.
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const repo = path.resolve(import.meta.dirname, "..");
const SCANNED = ["runtime", "server", "cli"];
/** The files that may call lmdb's write methods, and what each writes. */
const WRITERS: Record<string, string> = {
  "runtime/write/graph-writer.ts": "records (nodes, edges): the one composer of a record change",
  "runtime/write/migration-writer.ts": "records a schema migration rewrote (the graph writer, as runtime/migrate/ uses it)",
  "runtime/records/edge-ends-writes.ts": "edge_ends blocks of edges without a record",
  "runtime/adjacency/list-writes.ts": "adjacency lists: append, cut, delete",
  "runtime/adjacency/pending-in-writes.ts": "deferred incoming entries and their fold",
  "runtime/adjacency/bulk-lists.ts": "a bulk load's lists, written in key order",
  "runtime/indexes/index-writes.ts": "INDEX entries, UNIQUE and edge-type UNIQUE claims",
  "runtime/search/bm25-writes.ts": "BM25 documents, ids and statistics; the index rebuild",
  "runtime/search/postings-overlay.ts": "BM25 postings blocks, put once per write",
  "runtime/search/bm25-marker.ts": "meta bm25: how the keyword index was built",
  "runtime/vector/vector-slots.ts": "vector_ids, vector_types and vector_log of a write",
  "runtime/vector/vector-log-writes.ts": "pruning vector_log after a checkpoint",
  "runtime/commit-log/log-writes.ts": "commit_log entries, gaps and trims; a follower's applied entries",
  "runtime/idempotency/answers.ts": "answers of writes sent with an Idempotency-Key, in the write's transaction",
  "runtime/migrate/definitions.ts": "meta schema_version and schema_types",
  "runtime/format/format-migration.ts": "meta format",
  "runtime/format/migration-batches.ts": "a format migration's resumable copy",
  "runtime/format/format1-migration.ts": "format 1 → 2",
  "runtime/format/format2-migration.ts": "format 2 → 3",
  "runtime/format/format3-migration.ts": "format 3 → 4",
  "runtime/format/format4-migration.ts": "format 4 → 5",
  "runtime/store/append-put.ts": "puts with MDB_APPEND, for the writers above",
  "runtime/store/freelist-settle.ts": "no-op commits that settle LMDB's free-page list",
};
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

  it("only the reviewed writer files call lmdb's write methods", () => {
    const outside = calls.filter((c) => WRITERS[c.file] === undefined).map((c) => `${c.file}:${c.line} ${c.method}`);
    expect(outside).toEqual([]);
  });

  it("every reviewed writer file writes (the table names no file that has stopped)", () => {
    const silent = Object.keys(WRITERS).filter((file) => !calls.some((c) => c.file === file));
    expect(silent).toEqual([]);
  });

  it("finds the writer's own writes (the scan sees what it must forbid elsewhere)", () => {
    const found = (file: string, method: string): boolean => calls.some((c) => c.file === file && c.method === method);
    expect(found("runtime/write/graph-writer.ts", "putSync")).toBe(true);
    expect(found("runtime/write/graph-writer.ts", "removeSync")).toBe(true);
    expect(found("runtime/search/bm25-writes.ts", "clearSync")).toBe(true);
    expect(found("runtime/adjacency/list-writes.ts", "putSync")).toBe(true);
  });
}, 60_000);
