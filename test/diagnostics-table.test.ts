// The one table of diagnostic codes (compiler/diagnostics/table.ts) and what is derived from it:
// codes are unique and well formed, the docs list says exactly what the table says, every code
// the compiler's source emits is declared, and every declared code is emitted somewhere.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { compileProject } from "../compiler/index.js";
import { DIAGNOSTICS, DIAGNOSTIC_CODES, isDiagnosticCode } from "../compiler/diagnostics/table.js";
import { DOCS_BEGIN, DOCS_END, renderDiagnosticList, withDiagnosticList } from "../compiler/diagnostics/docs.js";

const repo = path.resolve(import.meta.dirname, "..");

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(repo, dir)).flatMap((name) => {
    const rel = `${dir}/${name}`;
    if (statSync(path.join(repo, rel)).isDirectory()) return sourceFiles(rel);
    return rel.endsWith(".ts") && !rel.endsWith("/table.ts") ? [rel] : [];
  });
}

/** Every quoted code ("E101", 'W002') in the compiler's source outside the table. */
const emitted = new Map<string, string[]>();
for (const file of sourceFiles("compiler")) {
  for (const m of readFileSync(path.join(repo, file), "utf8").matchAll(/["'`]([EW]\d{3})["'`]/g)) {
    emitted.set(m[1]!, [...(emitted.get(m[1]!) ?? []), file]);
  }
}

describe("the diagnostics table", () => {
  it("declares each code once, as E### errors and W### warnings", () => {
    const text = readFileSync(path.join(repo, "compiler/diagnostics/table.ts"), "utf8");
    const keys = [...text.matchAll(/^ {2}([EW]\d{3}): \{$/gm)].map((m) => m[1]!);
    expect(keys).toEqual(DIAGNOSTIC_CODES);
    expect(new Set(keys).size).toBe(keys.length);
    for (const code of DIAGNOSTIC_CODES) {
      expect(DIAGNOSTICS[code].severity, code).toBe(code.startsWith("E") ? "error" : "warning");
      expect(DIAGNOSTICS[code].message, code).not.toBe("");
      expect(DIAGNOSTICS[code].doc, code).not.toBe("");
    }
    expect([...DIAGNOSTIC_CODES].sort()).toEqual(DIAGNOSTIC_CODES);
  });

  it("declares every code the compiler emits", () => {
    expect([...emitted.keys()].filter((code) => !isDiagnosticCode(code))).toEqual([]);
  });

  it("has no code the compiler never emits", () => {
    expect(DIAGNOSTIC_CODES.filter((code) => !emitted.has(code))).toEqual([]);
  });

  it("is what docs/ARCHITECTURE.md lists (run `npm run docs` when this fails)", () => {
    const doc = readFileSync(path.join(repo, "docs/ARCHITECTURE.md"), "utf8");
    expect(doc).toContain(DOCS_BEGIN);
    expect(doc).toContain(DOCS_END);
    expect(doc.slice(doc.indexOf(DOCS_BEGIN) + DOCS_BEGIN.length, doc.indexOf(DOCS_END))).toBe(`\n${renderDiagnosticList()}\n`);
    expect(withDiagnosticList(doc)).toBe(doc);
  });

  it("gives every diagnostic of the corpus the severity the table declares", () => {
    const dir = path.join(repo, "test/corpus/invalid");
    const seen = new Set<string>();
    for (const file of readdirSync(dir)) {
      // Each case alone, as the corpus test compiles them, would be slow; the whole file still
      // yields its first errors and every warning.
      const result = compileProject([{ file, text: readFileSync(path.join(dir, file), "utf8") }], { checkOnly: true });
      for (const d of result.diagnostics) {
        seen.add(d.code);
        expect(isDiagnosticCode(d.code), d.code).toBe(true);
        expect(d.severity, `${file}: ${d.code}`).toBe(DIAGNOSTICS[d.code].severity);
      }
    }
    expect(seen.size).toBeGreaterThan(0);
  });
});
