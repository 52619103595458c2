// The one catalogue of scalar types (core/scalars.ts): the grammar's own list of scalar names
// agrees with it, and its integer ranges are what JSON numbers carry exactly.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SCALAR_NAMES, integerRange, isFloatScalar, isIntegerScalar, isNumericScalar } from "../core/scalars.js";

describe("core/scalars.ts", () => {
  it("names the scalars the grammar parses", () => {
    const grammar = readFileSync(path.resolve(import.meta.dirname, "../compiler/syntax/grammar.peggy"), "utf8");
    const list = /const SCALARS = new Set\(\[([^\]]*)\]/.exec(grammar)?.[1] ?? "";
    expect([...list.matchAll(/"(\w+)"/g)].map((m) => m[1])).toEqual(SCALAR_NAMES);
  });

  it("sorts numbers into integers (with ranges JSON carries exactly) and floats", () => {
    expect(SCALAR_NAMES.filter(isIntegerScalar)).toEqual(["I8", "I16", "I32", "I64", "U8", "U16", "U32", "U64", "U128"]);
    expect(SCALAR_NAMES.filter(isFloatScalar)).toEqual(["F32", "F64"]);
    expect(SCALAR_NAMES.filter(isNumericScalar)).toEqual([...SCALAR_NAMES.filter(isIntegerScalar), "F32", "F64"]);
    for (const name of SCALAR_NAMES.filter(isIntegerScalar)) {
      const range = integerRange(name)!;
      expect(Number.isSafeInteger(range.min) && Number.isSafeInteger(range.max) && range.min <= 0 && range.max > 0, name).toBe(true);
    }
    expect(integerRange("U8")).toEqual({ min: 0, max: 255 });
    expect(integerRange("F64")).toBeUndefined();
  });
});
