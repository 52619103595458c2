import { describe, expect, test } from "vitest";
import { StrandError } from "../core/errors.js";
import { validateParams } from "../server/http/params.js";
import type { ParamSpec } from "../core/query-module.js";
import { httpStatus } from "../server/http/status.js";

const specs: ParamSpec[] = [
  { name: "name", type: { kind: "scalar", name: "String" }, optional: false },
  { name: "age", type: { kind: "scalar", name: "U8" }, optional: false },
  { name: "id", type: { kind: "scalar", name: "ID" }, optional: true },
  { name: "since", type: { kind: "scalar", name: "Date" }, optional: true },
];

function code(fn: () => unknown): [string, string, number] {
  try {
    fn();
  } catch (e) {
    if (e instanceof StrandError) return [e.code, e.message, httpStatus(e.code)];
    throw e;
  }
  throw new Error("did not throw");
}

describe("validateParams", () => {
  test("valid bodies are normalised; absent optionals are omitted", () => {
    expect(validateParams(specs, { name: "a", age: 3 })).toEqual({ name: "a", age: 3 });
    const r = validateParams(specs, { name: "a", age: 3, id: "0190A2B4-1234-7ABC-8DEF-0123456789AB", since: "2024-01-02" });
    expect(r).toEqual({ name: "a", age: 3, id: "0190a2b4-1234-7abc-8def-0123456789ab", since: "2024-01-02T00:00:00.000Z" });
    expect("id" in validateParams(specs, { name: "a", age: 3, id: null })).toBe(false);
  });
  test("the body must be a JSON object", () => {
    for (const body of [null, [], "x", 3, true, undefined]) expect(code(() => validateParams(specs, body))[0]).toBe("INVALID_BODY");
    expect(validateParams([], {})).toEqual({});
  });
  test("missing required parameters are named", () => {
    expect(code(() => validateParams(specs, { name: "a" }))).toEqual(["MISSING_PARAMETER", "missing required parameter 'age'", 400]);
    expect(code(() => validateParams(specs, { name: "a", age: null }))[0]).toBe("MISSING_PARAMETER");
  });
  test("unknown members are rejected", () => {
    const [c, m] = code(() => validateParams(specs, { name: "a", age: 1, extra: 1 }));
    expect(c).toBe("UNKNOWN_PARAMETER");
    expect(m).toContain("'extra'");
  });
  test("wrong types carry the checkValue message", () => {
    expect(code(() => validateParams(specs, { name: "a", age: 300 }))).toEqual([
      "INVALID_PARAMETER",
      "parameter 'age' must be an integer between 0 and 255 (U8), got 300",
      400,
    ]);
  });
});
