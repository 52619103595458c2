// E999 (a bug in the compiler) is reported at the query it happened in, not at 1:1 of the first
// file. No input should produce E999, so a failure is injected into code generation.
import { describe, expect, it, vi } from "vitest";
import { QueryInternalError } from "../compiler/diagnostics/diagnostic.js";

vi.mock("../compiler/emit/modules.js", () => ({
  generateModules: (_schema: unknown, queries: readonly { name: string }[]) => {
    throw new QueryInternalError(queries[1]!.name, new RangeError("Maximum call stack size exceeded"));
  },
}));

const { compileProject } = await import("../compiler/index.js");

describe("E999", () => {
  it("carries the span of the name of the query whose code generation failed", () => {
    const schema = { file: "schema.hx", text: "N::U { n: String }\n" };
    const queries = {
      file: "queries.hx",
      text: "QUERY First() =>\n    u <- N<U>\n    RETURN u\n\nQUERY Second() =>\n    u <- N<U>\n    RETURN u\n",
    };
    const result = compileProject([schema, queries]);
    expect(result.ok).toBe(false);
    expect(result.diagnostics.map((d) => `${d.code} ${d.span.file}:${d.span.start.line}:${d.span.start.column} ${d.message}`)).toEqual([
      "E999 queries.hx:5:7 internal compiler error: Maximum call stack size exceeded",
    ]);
  });
});
