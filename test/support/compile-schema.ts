// The schema descriptor of HelixQL text, for store-level tests that need a real compiled schema.
import { expect } from "vitest";
import { compileProject } from "../../compiler/index.js";
import type { SchemaDescriptor } from "../../core/schema.js";

/** Compiles `text` (check only), asserts it has no errors, and returns its schema descriptor. */
export function schemaOf(text: string): SchemaDescriptor {
  const r = compileProject([{ file: "s.hx", text }], { checkOnly: true });
  expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return r.schema!;
}
