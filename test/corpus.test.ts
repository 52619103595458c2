// The compile-only HelixQL corpus of issue 5: realistic projects that `strand check` must accept,
// and invalid programs that it must reject with the expected diagnostic.
//
// test/corpus/valid/<project>.hx — one project per file (schema and queries). It must compile with
//   no errors, to exactly the number of queries listed in VALID below. Warnings are allowed only
//   where a caret annotation marks them (see below); every annotated warning must occur.
//
// test/corpus/invalid/<topic>.hx — independently checkable cases:
//   - Everything before the first `// case: <title>` line is the prelude (usually a schema); it
//     must compile cleanly on its own.
//   - A case runs from its `// case:` line to the next one (or the end of the file) and is compiled
//     alone: prelude + the case, with every other case's lines blanked, so one case's error cannot
//     mask another's and positions are positions in the file.
//   - Each case has exactly one expectation, the first error (in source order) it must produce:
//       `//      ^ E110`               the error starts on the line directly above, at the caret's
//                                     column (indent the code when the error would be at column 1-2)
//       `// expect E005 at end of file`   the error is at the end of the case's text
//   - `// options: bm25=false` compiles the case as a project with the keyword index disabled.
//
// A nesting too deep (E006) cannot be written readably in a file; it is generated below and in
// test/nesting.test.ts.
// E099 and E999 report bugs in the compiler itself and have no input that should produce them.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { compileProject, type Diagnostic } from "../compiler/index.js";
import { DIAGNOSTICS, DIAGNOSTIC_CODES } from "../compiler/diagnostics/table.js";
import { caretAnnotations, parseInvalidFile, type CorpusCase } from "./support/corpus-cases.js";

const root = path.resolve(import.meta.dirname, "corpus");

/** Queries per valid project; a changed count means a query was lost or added without review. */
const VALID: Record<string, number> = {
  "agent_memory.hx": 82,
  "code_search.hx": 34,
  "document_store.hx": 84,
  "knowledge_graph.hx": 94,
  "route_planner.hx": 94,
  "social_graph.hx": 91,
};

/**
 * Every error code the compiler can emit for a project's files: the table's errors but the
 * internal ones (E099, E999) and those of ad-hoc queries only (test/adhoc-query.test.ts).
 */
const ERROR_CODES = DIAGNOSTIC_CODES.filter((code) => {
  const entry: { severity: string; internal?: true; adhoc?: true } = DIAGNOSTICS[code];
  return entry.severity === "error" && entry.internal !== true && entry.adhoc !== true;
});

function hxFiles(dir: string): string[] {
  return fs
    .readdirSync(path.join(root, dir))
    .filter((f) => f.endsWith(".hx"))
    .sort();
}

function read(dir: string, file: string): string {
  return fs.readFileSync(path.join(root, dir, file), "utf8");
}

const at = (d: Diagnostic): { code: string; line: number; column: number } => ({
  code: d.code,
  line: d.span.start.line,
  column: d.span.start.column,
});

describe("valid corpus", () => {
  it("holds the listed projects", () => {
    expect(hxFiles("valid")).toEqual(Object.keys(VALID).sort());
  });

  for (const file of hxFiles("valid")) {
    it(`${file} is accepted`, () => {
      const text = read("valid", file);
      const result = compileProject([{ file, text }], { checkOnly: true });
      expect(
        result.diagnostics.filter((d) => d.severity === "error").map((d) => `${at(d).line}:${at(d).column} ${d.code} ${d.message}`),
      ).toEqual([]);
      expect(result.ok).toBe(true);
      expect(result.diagnostics.map(at)).toEqual(caretAnnotations(text));
      expect(result.queries.length).toBe(VALID[file]);
      expect(result.queries.length).toBe(text.match(/^QUERY /gm)?.length);
    });
  }

  it("has at least 400 queries", () => {
    const total = Object.values(VALID).reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThanOrEqual(400);
  });
});

describe("invalid corpus", () => {
  const files = hxFiles("invalid").map((file) => ({ file, ...parseInvalidFile(read("invalid", file), file) }));
  const all: CorpusCase[] = files.flatMap((f) => f.cases);

  for (const { file, prelude, cases } of files) {
    describe(file, () => {
      it("has a prelude that compiles cleanly", () => {
        expect(compileProject([{ file, text: prelude }], { checkOnly: true }).diagnostics).toEqual([]);
      });
      for (const c of cases) {
        it(`line ${c.line}: ${c.title} → ${c.expect.code}`, () => {
          const result = compileProject([{ file, text: c.text }], { checkOnly: true, bm25: c.bm25 });
          expect(result.ok).toBe(false);
          const first = result.diagnostics.find((d) => d.severity === "error");
          expect(first === undefined ? null : at(first)).toEqual(c.expect);
        });
      }
    });
  }

  it("rejects input nested too deeply to parse with E006 at the first bracket beyond the limit (test/nesting.test.ts)", () => {
    const text = `QUERY Deep() =>\n    RETURN ${"[".repeat(50_000)}1${"]".repeat(50_000)}\n`;
    const result = compileProject([{ file: "deep.hx", text }], { checkOnly: true });
    expect(result.diagnostics.map(at)).toEqual([{ code: "E006", line: 2, column: 12 + 48 }]);
  });

  it("has at least 100 cases and covers every error code", () => {
    expect(all.length).toBeGreaterThanOrEqual(100);
    const covered = new Set([...all.map((c) => c.expect.code), "E006"]);
    expect(ERROR_CODES.filter((code) => !covered.has(code))).toEqual([]);
  });
});
