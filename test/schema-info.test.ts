import { describe, expect, it } from "vitest";
import type { FieldDescriptor } from "../core/schema.js";
import { SchemaInfo } from "../runtime/store/schema-info.js";

const f = (name: string): FieldDescriptor => ({ name, type: { kind: "scalar", name: "F64" }, index: "none", default: null });

describe("SchemaInfo", () => {
  const info = new SchemaInfo({
    nodes: [
      { name: "Plain", fields: [f("n")] },
      { name: "Scored", fields: [f("score")] },
      { name: "\u{1F600}", fields: [] },
      { name: "\uFF21", fields: [] },
    ],
    vectors: [
      { name: "Doc", fields: [f("score")] },
      { name: "Chunk", fields: [] },
    ],
    edges: [{ name: "Rates", from: "Plain", to: "Scored", unique: false, fields: [f("score")] }],
  });

  it("knows once which node and vector types declare their own score (RerankRRF keeps it)", () => {
    expect([...info.scoreLabels].sort()).toEqual(["Doc", "Scored"]);
  });

  it("orders labels by code point (UTF-8 key order), not UTF-16 code unit", () => {
    // U+FF21 is one code unit above every surrogate, yet below the astral U+1F600.
    expect(info.labelsOf("N")).toEqual(["Plain", "Scored", "\uFF21", "\u{1F600}"]);
    expect(info.labelsOf("V")).toEqual(["Chunk", "Doc"]);
  });
});
