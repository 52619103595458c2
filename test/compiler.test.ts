// The compiler as a whole: multi-file projects, diagnostic formatting, totality on garbage, and
// generated code that type-checks under `tsc --strict`.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { compileProject, formatDiagnostic } from "../compiler/index.js";
import { parseCaseFile } from "./support/case-file.js";

const repo = path.resolve(import.meta.dirname, "..");

describe("compileProject", () => {
  it("reads schema and queries split across files", () => {
    const result = compileProject([
      { file: "queries.hx", text: "QUERY Get(id: ID) =>\n    u <- N<User>(id)\n    RETURN u\n" },
      { file: "schema.hx", text: "N::User { name: String }\n" },
    ]);
    expect(result.diagnostics).toEqual([]);
    expect(result.ok).toBe(true);
    expect(result.schema).toEqual({
      nodes: [{ name: "User", fields: [{ name: "name", type: { kind: "scalar", name: "String" }, index: "none", default: null }] }],
      vectors: [],
      edges: [],
    });
    expect(result.files.map((f) => f.path)).toEqual(["schema.ts", "queries/Get.ts", "index.ts", "client-types.ts", "client.ts"]);
  });

  it("marks the parameters a query uses as vectors, so that their numbers are checked against F32", () => {
    const text = [
      "V::Doc { text: String }",
      "QUERY Put(v: [F64], w: [F64], text: String) =>",
      "    d <- AddV<Doc>(v, {text: text})",
      "    hits <- SearchV<Doc>(v, 3)",
      "    RETURN d, hits, w",
      "QUERY Near(q: [F32], k: U32) =>",
      "    hits <- SearchV<Doc>(q, k)",
      "    RETURN hits",
      "",
    ].join("\n");
    const result = compileProject([{ file: "v.hx", text }], { checkOnly: true });
    expect(result.diagnostics).toEqual([]);
    expect(result.queries.map((q) => q.params)).toEqual([
      [
        { name: "v", type: { kind: "array", element: { kind: "scalar", name: "F64" } }, optional: false, vector: true },
        { name: "w", type: { kind: "array", element: { kind: "scalar", name: "F64" } }, optional: false },
        { name: "text", type: { kind: "scalar", name: "String" }, optional: false },
      ],
      [
        { name: "q", type: { kind: "array", element: { kind: "scalar", name: "F32" } }, optional: false, vector: true },
        { name: "k", type: { kind: "scalar", name: "U32" }, optional: false },
      ],
    ]);
  });

  it("words a number literal's range the same wherever it is checked (numberLiteralProblem, f32LiteralProblem)", () => {
    const text = [
      "N::P { n: I64, f: F32 }",
      "V::Doc { text: String }",
      "QUERY Q(v: [F64]) =>",
      "    a <- SearchV<Doc>(v, 99999999999999999999)",
      "    b <- N<P>::RANGE(0, 1e20)",
      "    c <- AddN<P>({n: 1e20, f: 1.0})",
      "    d <- AddN<P>({n: 1, f: 1e39})",
      "    e <- SearchV<Doc>([1.0, -1e39], 3)",
      "    RETURN a, b, c, d, e",
      "",
    ].join("\n");
    const result = compileProject([{ file: "n.hx", text }], { checkOnly: true });
    expect(result.diagnostics.map((d) => `${d.code} ${d.message}`)).toEqual([
      "E205 k must be a non-negative integer, but 99999999999999999999 is beyond ±9007199254740991, the largest integer Strand stores exactly",
      "E205 RANGE end must be a non-negative integer, found 1e20",
      "E201 1e20 is beyond ±9007199254740991, the largest integer Strand stores exactly",
      "E201 1e39 is beyond the F32 range (magnitude at most 3.4028235e38)",
      "E201 -1e39 is beyond the F32 range of vector components (magnitude at most 3.4028235e38)",
    ]);
  });

  it("warns (W003) where a search over a type with its own `score` field hides the relevance score", () => {
    const text = [
      "N::Y { score: F64, name: String }",
      "N::Z { name: String }",
      "QUERY Q(q: String) =>",
      "    a <- SearchBM25<Y>(q, 5)",
      "    b <- RerankRRF(a, SearchBM25<Y>(q, 2))",
      "    c <- SearchBM25<Z>(q, 5)::RerankRRF(SearchBM25<Z>(q, 2))",
      "    RETURN b, c",
      "",
    ].join("\n");
    const result = compileProject([{ file: "s.hx", text }], { checkOnly: true });
    expect(result.ok).toBe(true);
    expect(
      result.diagnostics.map((d) => ({
        code: d.code,
        severity: d.severity,
        line: d.span.start.line,
        column: d.span.start.column,
        message: d.message,
        hint: d.hint,
      })),
    ).toEqual([
      {
        code: "W003",
        severity: "warning",
        line: 4,
        column: 10,
        message:
          "Y declares a field 'score', so SearchBM25 results keep its stored value and do not carry their BM25 score (they are still ranked by it)",
        hint: "rename the field to read the BM25 score as 'score'",
      },
      {
        code: "W003",
        severity: "warning",
        line: 5,
        column: 10,
        message:
          "Y declares a field 'score', so RerankRRF results keep its stored value and do not carry their fused score (they are still ranked by it)",
        hint: "rename the field to read the fused score as 'score'",
      },
      {
        code: "W003",
        severity: "warning",
        line: 5,
        column: 23,
        message:
          "Y declares a field 'score', so SearchBM25 results keep its stored value and do not carry their BM25 score (they are still ranked by it)",
        hint: "rename the field to read the BM25 score as 'score'",
      },
    ]);
  });

  it("accepts DEFAULT NOW on a 64-bit integer field with a warning (W004) and refuses it where epoch milliseconds do not fit (E202)", () => {
    const shown = (text: string) =>
      compileProject([{ file: "s.hx", text }], { checkOnly: true }).diagnostics.map((d) => ({
        code: d.code,
        severity: d.severity,
        line: d.span.start.line,
        column: d.span.start.column,
        message: d.message,
        hint: d.hint,
      }));
    const ok = compileProject([{ file: "s.hx", text: "N::Event { name: String, created_at: I64 DEFAULT NOW, at: Date DEFAULT NOW }\n" }], {
      checkOnly: true,
    });
    expect(ok.ok).toBe(true);
    expect(ok.schema?.nodes[0]?.fields.map((f) => [f.name, f.default])).toEqual([
      ["name", null],
      ["created_at", { kind: "now" }],
      ["at", { kind: "now" }],
    ]);
    expect(
      shown(
        "N::Event { name: String, created_at: I64 DEFAULT NOW }\nE::Saw { From: Event, To: Event, Properties: { at: U64 DEFAULT NOW } }\n",
      ),
    ).toEqual([
      {
        code: "W004",
        severity: "warning",
        line: 1,
        column: 50,
        message: "DEFAULT NOW on I64 field 'created_at' stores the time as epoch milliseconds (a number), not as a Date",
        hint: "declare 'created_at' as Date to store a time that reads as one and compares with NOW and Date values",
      },
      {
        code: "W004",
        severity: "warning",
        line: 2,
        column: 64,
        message: "DEFAULT NOW on U64 field 'at' stores the time as epoch milliseconds (a number), not as a Date",
        hint: "declare 'at' as Date to store a time that reads as one and compares with NOW and Date values",
      },
    ]);
    expect(shown("N::Event { a: I32 DEFAULT NOW, b: U16 DEFAULT NOW, c: String DEFAULT NOW }\n")).toEqual([
      {
        code: "E202",
        severity: "error",
        line: 1,
        column: 27,
        message:
          "DEFAULT NOW needs a Date or 64-bit integer field; 'a' is I32, too small for the time in epoch milliseconds (I32 holds at most 2147483647)",
        hint: "declare 'a' as Date (or as I64, which stores epoch milliseconds)",
      },
      {
        code: "E202",
        severity: "error",
        line: 1,
        column: 47,
        message:
          "DEFAULT NOW needs a Date or 64-bit integer field; 'b' is U16, too small for the time in epoch milliseconds (U16 holds at most 65535)",
        hint: "declare 'b' as Date (or as I64, which stores epoch milliseconds)",
      },
      {
        code: "E202",
        severity: "error",
        line: 1,
        column: 70,
        message: "DEFAULT NOW needs a Date or 64-bit integer field; 'c' is String",
        hint: "declare 'c' as Date",
      },
    ]);
  });

  it("reports a query defined in two files at the second one", () => {
    const q = "QUERY Get() =>\n    u <- N<User>\n    RETURN u\n";
    const result = compileProject([
      { file: "a.hx", text: `N::User { name: String }\n${q}` },
      { file: "b.hx", text: q },
    ]);
    expect(result.ok).toBe(false);
    expect(result.diagnostics.map((d) => [d.code, d.span.file, d.span.start.line, d.span.start.column, d.hint])).toEqual([
      ["E301", "b.hx", 1, 7, "the first definition is at a.hx:2:7"],
    ]);
  });

  it("formats a diagnostic as file:line:col, the source line, a caret under the span, and a hint", () => {
    const text = 'N::User { name: String }\nQUERY Q() =>\n    u <- AddN<User>({nmae: "x"})\n    RETURN u\n';
    const result = compileProject([{ file: "q.hx", text }]);
    expect(result.diagnostics).toHaveLength(1);
    expect(formatDiagnostic(result.diagnostics[0]!, new Map([["q.hx", text]]))).toBe(
      [
        "q.hx:3:22: error E110: unknown field 'nmae' on User",
        '3 |     u <- AddN<User>({nmae: "x"})',
        "  |                      ^^^^",
        "  hint: did you mean 'name'?",
      ].join("\n"),
    );
  });

  it("never throws and always explains itself on garbage and on mutations of valid programs", () => {
    const seedText =
      fs.readFileSync(path.join(repo, "examples/social/queries.hx"), "utf8") +
      fs.readFileSync(path.join(repo, "examples/social/schema.hx"), "utf8");
    let state = 12345;
    const rand = (n: number): number => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return state % n;
    };
    const alphabet = "N::E<>(){}[]_,:\"'!#@ \n\tQUERY RETURN AddN WHERE GT 0 1.5 -3 User Follows =>";
    for (let i = 0; i < 400; i++) {
      let text: string;
      if (i % 2 === 0) {
        const start = rand(seedText.length);
        const cut = rand(40);
        const insert = Array.from({ length: rand(6) }, () => alphabet[rand(alphabet.length)]).join("");
        text = seedText.slice(0, start) + insert + seedText.slice(start + cut);
      } else {
        text = Array.from({ length: rand(200) }, () => alphabet[rand(alphabet.length)]).join("");
      }
      const result = compileProject([{ file: "fuzz.hx", text }]);
      expect(
        result.diagnostics.every((d) => d.code !== "E999"),
        result.diagnostics.map((d) => d.message).join("\n"),
      ).toBe(true);
      if (!result.ok) expect(result.diagnostics.length).toBeGreaterThan(0);
    }
  });
});

describe("generated code", () => {
  it("type-checks under tsc --strict for the example and every conformance case", () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), "strand-typecheck-"));
    try {
      const projects: { name: string; sources: { file: string; text: string }[] }[] = [];
      const example = path.join(repo, "examples/social");
      projects.push({
        name: "example",
        sources: fs
          .readdirSync(example)
          .filter((f) => f.endsWith(".hx"))
          .map((f) => ({ file: f, text: fs.readFileSync(path.join(example, f), "utf8") })),
      });
      const casesDir = path.join(repo, "test/conformance");
      for (const f of fs.readdirSync(casesDir).filter((f) => f.endsWith(".case"))) {
        const c = parseCaseFile(fs.readFileSync(path.join(casesDir, f), "utf8"), f);
        if (c.diagnostics === null) projects.push({ name: f.replace(/\.case$/, ""), sources: [{ file: "case.hx", text: c.hx }] });
        // Every project a case changes to (--- schema change) is served too.
        c.steps.forEach((s, i) => {
          if (s.kind === "schema change")
            projects.push({ name: `${f.replace(/\.case$/, "")}-change${i}`, sources: [{ file: "case.hx", text: s.hx }] });
        });
      }
      for (const p of projects) {
        const result = compileProject(p.sources);
        expect(result.ok, `${p.name}: ${result.diagnostics.map((d) => d.message).join("; ")}`).toBe(true);
        for (const file of result.files) {
          const target = path.join(out, p.name, file.path);
          fs.mkdirSync(path.dirname(target), { recursive: true });
          fs.writeFileSync(target, file.text);
        }
      }
      fs.writeFileSync(
        path.join(out, "tsconfig.json"),
        JSON.stringify({
          compilerOptions: {
            strict: true,
            noEmit: true,
            noUnusedLocals: true,
            target: "ES2022",
            module: "NodeNext",
            moduleResolution: "NodeNext",
            lib: ["ES2023", "DOM"],
            types: [],
            skipLibCheck: true,
            baseUrl: ".",
            paths: { "strand/runtime": [path.join(repo, "runtime/index.ts")] },
          },
          include: ["**/*.ts"],
        }),
      );
      const tsc = path.join(repo, "node_modules/typescript/bin/tsc");
      let output = "";
      try {
        execFileSync(process.execPath, [tsc, "-p", out], { encoding: "utf8", stdio: "pipe" });
      } catch (e) {
        output = String((e as { stdout?: string }).stdout ?? e);
      }
      expect(output).toBe("");
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  }, 120_000);
});
