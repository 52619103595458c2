// Runs every declarative case in test/conformance/ (format: test/support/case-file.ts): compile the
// case's HelixQL, serve it in process over a fresh store, send each call, compare the exact JSON.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compileProject } from "../compiler/index.js";
import { importQueryModule } from "../cli/project/load-project.js";
import { createApp } from "../server/index.js";
import { GraphStore } from "../runtime/graph-store.js";
import type { QueryModule } from "../core/query-module.js";
import { matchJson, parseCaseFile, substitute } from "./support/case-file.js";
import { createEmbedder } from "../runtime/embed/embedder.js";
import { embeddersFor } from "../runtime/embed/embedders.js";

const created = createEmbedder("hash", {});
if (!created.ok) throw new Error(created.error);
const hashEmbedder = created.embedder;

const dir = path.join(import.meta.dirname, "conformance");
const files = fs.readdirSync(dir).filter((f) => f.endsWith(".case")).sort();
const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), "strand-conformance-"));
afterAll(() => fs.rmSync(tmpRoot, { recursive: true, force: true }));

describe("conformance corpus", () => {
  it("has cases", () => {
    expect(files.length).toBeGreaterThan(20);
  });

  for (const file of files) {
    const testCase = parseCaseFile(fs.readFileSync(path.join(dir, file), "utf8"), file);
    it(`${file}: ${testCase.title}`, async () => {
      const compiled = compileProject([{ file: "case.hx", text: testCase.hx }], { runtimeImport: "strand/runtime" });
      if (testCase.diagnostics !== null) {
        const got = compiled.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.code} ${d.span.start.line}:${d.span.start.column}`);
        expect(got, compiled.diagnostics.map((d) => `${d.code} ${d.message}`).join("\n")).toEqual(testCase.diagnostics);
        return;
      }
      expect(compiled.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.code} ${d.span.start.line}:${d.span.start.column} ${d.message}`)).toEqual([]);
      const queries: QueryModule[] = [];
      for (const f of compiled.files.filter((g) => g.path.startsWith("queries/"))) queries.push(await importQueryModule(f.path, f.text));
      const store = GraphStore.open({ path: fs.mkdtempSync(path.join(tmpRoot, "db-")), schema: compiled.schema! });
      try {
        // The project default: the built-in offline `hash` embedding model.
        const app = createApp({ store, queries, schema: compiled.schema!, embedders: embeddersFor(hashEmbedder, {}) });
        const bindings = new Map<string, unknown>();
        for (const call of testCase.calls) {
          const response = await app.request(`/${call.query}`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: substitute(call.body, bindings),
          });
          const actual: unknown = await response.json();
          const where = `${file}:${call.line} ${call.query}`;
          expect(response.status, `${where}: ${JSON.stringify(actual)}`).toBe(call.status);
          const mismatch = matchJson(JSON.parse(call.expected), actual, bindings);
          expect(mismatch, `${where}\n  got: ${JSON.stringify(actual)}`).toBeNull();
        }
      } finally {
        await store.close();
      }
    });
  }
});
