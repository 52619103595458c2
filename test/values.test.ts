import { describe, expect, test } from "vitest";
import type { ScalarName, ValueType } from "../core/schema.js";
import { ECHO_LIMIT, echo } from "../core/echo.js";
import { StrandError } from "../core/errors.js";
import { validateParams } from "../server/http/params.js";
import type { ParamSpec } from "../core/query-module.js";
import { checkValue, dateMillis, describeValue, isCanonicalDate } from "../core/values.js";
import { httpStatus } from "../server/http/status.js";

const sc = (name: ScalarName): ValueType => ({ kind: "scalar", name });
const ok = (type: ValueType, v: unknown) => {
  const r = checkValue(type, v, "p");
  if (!r.ok) throw new Error(r.message);
  return r.value;
};
const err = (type: ValueType, v: unknown, path = "p") => {
  const r = checkValue(type, v, path);
  if (r.ok) throw new Error(`accepted ${JSON.stringify(v)}`);
  return r.message;
};

describe("integers", () => {
  test("the documented message", () => {
    expect(err(sc("U8"), 300, "age")).toBe("'age' must be an integer between 0 and 255 (U8), got 300");
  });
  test.each([
    ["I8", -128, 127],
    ["I16", -32768, 32767],
    ["I32", -2147483648, 2147483647],
    ["U8", 0, 255],
    ["U16", 0, 65535],
    ["U32", 0, 4294967295],
    ["I64", -Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
    ["U64", 0, Number.MAX_SAFE_INTEGER],
    ["U128", 0, Number.MAX_SAFE_INTEGER],
  ] as const)("%s accepts [%d, %d] and nothing outside", (name, min, max) => {
    expect(ok(sc(name), min)).toBe(min);
    expect(ok(sc(name), max)).toBe(max);
    expect(err(sc(name), min - 1)).toMatch(new RegExp(`\\(${name}\\)`));
    expect(err(sc(name), max + 1)).toContain("must be an integer");
  });
  test("non-integers and non-numbers are rejected", () => {
    expect(err(sc("I32"), 1.5)).toBe("'p' must be an integer between -2147483648 and 2147483647 (I32), got 1.5");
    expect(err(sc("I32"), "1")).toContain('got "1"');
    expect(err(sc("I32"), null)).toContain("got null");
    expect(err(sc("I32"), undefined)).toContain("got nothing");
  });
  test("beyond ±2^53 - 1 says that Strand stores no larger integer, without the rounded digits JSON.parse made", () => {
    // 1732406400123456789 (a nanosecond timestamp) arrives from JSON.parse as 1732406400123456800.
    expect(err(sc("I64"), JSON.parse("1732406400123456789"), "ts_ns")).toBe(
      "'ts_ns' must be an integer between -9007199254740991 and 9007199254740991 (I64), got a number beyond ±9007199254740991, the largest integer Strand stores exactly",
    );
    expect(err(sc("U64"), 2 ** 60)).not.toContain(String(2 ** 60));
    expect(err(sc("I64"), -(2 ** 53))).toContain("beyond ±9007199254740991, the largest integer Strand stores exactly");
    expect(err(sc("U128"), 2 ** 100)).toContain("beyond ±9007199254740991");
    expect(err(sc("U8"), 256)).toBe("'p' must be an integer between 0 and 255 (U8), got 256");
  });
  test("a number JSON.parse made Infinity (1e999) is beyond the F64 range, not null", () => {
    expect(err(sc("I64"), JSON.parse("1e999"))).toBe(
      "'p' must be an integer between -9007199254740991 and 9007199254740991 (I64), got a number beyond the F64 range (magnitude above 1.7976931348623157e308)",
    );
  });
  test("-0 is normalised to 0", () => {
    expect(Object.is(ok(sc("I32"), -0), 0)).toBe(true);
    // Floats too: JSON sends both as 0 and index keys need one form.
    expect(Object.is(ok(sc("F64"), -0), 0)).toBe(true);
    expect(Object.is(ok(sc("F32"), -0), 0)).toBe(true);
  });
});

describe("other scalars", () => {
  test("floats must be finite numbers", () => {
    expect(ok(sc("F64"), 1.25)).toBe(1.25);
    expect(ok(sc("F32"), -3)).toBe(-3);
    expect(err(sc("F64"), Infinity)).toContain("finite number (F64)");
    expect(err(sc("F64"), NaN)).toContain("F64");
    expect(err(sc("F32"), "1.0")).toContain("F32");
  });
  test("a number beyond the F64 range is described as such, also inside arrays", () => {
    expect(err(sc("F64"), JSON.parse("-1e999"), "x")).toBe(
      "'x' must be a finite number (F64), got a number beyond the F64 range (magnitude above 1.7976931348623157e308)",
    );
    expect(describeValue(Infinity)).toBe("a number beyond the F64 range (magnitude above 1.7976931348623157e308)");
    expect(describeValue([1, -Infinity])).toBe("[1,-Infinity]");
    expect(describeValue(NaN)).toBe("NaN");
  });
  test("F32 holds magnitudes up to 3.4028235e38 (what float32 printers write for its maximum)", () => {
    expect(ok(sc("F32"), 3.4028234663852886e38)).toBe(3.4028234663852886e38);
    expect(ok(sc("F32"), -3.4028235e38)).toBe(-3.4028235e38);
    expect(ok(sc("F32"), 1e-50)).toBe(1e-50); // underflows to 0 in f32: small, not out of range
    expect(err(sc("F32"), 1e40, "f")).toBe("'f' must be a finite number of magnitude at most 3.4028235e38 (F32), got 1e+40");
    expect(err(sc("F32"), -3.5e38)).toContain("(F32), got -3.5e+38");
    expect(ok(sc("F64"), 1e40)).toBe(1e40);
  });
  test("Boolean and String are strict", () => {
    expect(ok(sc("Boolean"), false)).toBe(false);
    expect(err(sc("Boolean"), 0)).toContain("boolean");
    expect(ok(sc("String"), "")).toBe("");
    // A lone surrogate has no UTF-8 form: it becomes U+FFFD, as storing it would make it; pairs stay.
    expect(ok(sc("String"), "a\ud800b\udc00\ud83d\ude00")).toBe("a\ufffdb\ufffd\ud83d\ude00");
    expect(err(sc("String"), 5)).toContain("string");
  });
  test("ID is a UUID, lower-cased", () => {
    expect(ok(sc("ID"), "0190A2B4-1234-7ABC-8DEF-0123456789AB")).toBe("0190a2b4-1234-7abc-8def-0123456789ab");
    expect(err(sc("ID"), "not-a-uuid", "id")).toBe("'id' must be a UUID string (ID), got \"not-a-uuid\"");
    expect(err(sc("ID"), "0190a2b4-1234-7abc-8def-0123456789a")).toContain("UUID");
  });
});

describe("Date", () => {
  const D = sc("Date");
  test("RFC 3339 with offset, normalised to UTC ISO", () => {
    expect(ok(D, "2024-03-05T10:20:30Z")).toBe("2024-03-05T10:20:30.000Z");
    expect(ok(D, "2024-03-05T10:20:30.5+02:00")).toBe("2024-03-05T08:20:30.500Z");
    expect(ok(D, "2024-03-05 10:20:30-01:30")).toBe("2024-03-05T11:50:30.000Z");
    expect(ok(D, "2024-03-05t10:20z")).toBe("2024-03-05T10:20:00.000Z");
  });
  test("date-only is midnight UTC; unix seconds are accepted", () => {
    expect(ok(D, "2024-02-29")).toBe("2024-02-29T00:00:00.000Z");
    expect(ok(D, 0)).toBe("1970-01-01T00:00:00.000Z");
    expect(ok(D, 1700000000)).toBe("2023-11-14T22:13:20.000Z");
  });
  test("normalised dates sort as strings", () => {
    const a = ok(D, "2024-01-01T00:00:00+05:00") as string;
    const b = ok(D, "2023-12-31T20:00:00Z") as string;
    expect(a < b).toBe(true);
  });
  test("rejects missing offsets, impossible dates and other types", () => {
    expect(err(D, "2024-03-05T10:20:30")).toContain("(Date)");
    expect(err(D, "2023-02-29")).toContain("Date");
    expect(err(D, "2024-13-01")).toContain("Date");
    expect(err(D, "2024-01-01T24:00:00Z")).toContain("Date");
    expect(err(D, 1.5)).toContain("Date");
    expect(err(D, true)).toContain("Date");
    expect(err(D, "yesterday")).toContain("Date");
  });
});

describe("arrays and objects", () => {
  const addr: ValueType = {
    kind: "object",
    fields: [
      { name: "city", type: sc("String"), optional: false },
      { name: "zip", type: sc("U32"), optional: true },
    ],
  };
  test("arrays are checked element by element, with the element path", () => {
    const t: ValueType = { kind: "array", element: sc("ID") };
    expect(ok(t, ["0190A2B4-1234-7ABC-8DEF-0123456789AB"])).toEqual(["0190a2b4-1234-7abc-8def-0123456789ab"]);
    expect(err(t, ["0190a2b4-1234-7abc-8def-0123456789ab", "x"], "ids")).toMatch(/^'ids\[1\]' must be a UUID/);
    expect(err(t, "x", "ids")).toBe("'ids' must be an array of ID, got \"x\"");
  });
  test("objects: declared order, optional members may be absent or null", () => {
    expect(ok(addr, { zip: 5, city: "Oslo" })).toEqual({ city: "Oslo", zip: 5 });
    expect(Object.keys(ok(addr, { zip: 5, city: "Oslo" }) as object)).toEqual(["city", "zip"]);
    expect(ok(addr, { city: "Oslo" })).toEqual({ city: "Oslo" });
    expect(ok(addr, { city: "Oslo", zip: null })).toEqual({ city: "Oslo" });
  });
  test("objects: unknown and missing members, nested paths", () => {
    expect(err(addr, { city: "x", street: "y" }, "a")).toContain("unknown member 'street'");
    expect(err(addr, { zip: 1 }, "a")).toContain("'a.city' is required");
    expect(err(addr, { city: "x", zip: -1 }, "a")).toMatch(/^'a\.zip' must be an integer between 0 and 4294967295 \(U32\)/);
    expect(err(addr, [], "a")).toContain("must be an object");
    const nested: ValueType = { kind: "array", element: addr };
    expect(err(nested, [{ city: "a" }, { city: 1 }], "xs")).toMatch(/^'xs\[1\]\.city' must be a string/);
  });
});

describe("Date input forms (issue 5)", () => {
  const D = sc("Date");
  test("RFC 3339: offsets, fractional seconds (beyond ms truncated), T/space/lower case", () => {
    expect(ok(D, "2024-03-05T10:20:30.123456789Z")).toBe("2024-03-05T10:20:30.123Z");
    expect(ok(D, "2024-03-05T10:20:30.1+00:00")).toBe("2024-03-05T10:20:30.100Z");
    expect(ok(D, "2024-03-05T00:30:00+05:45")).toBe("2024-03-04T18:45:00.000Z");
    expect(ok(D, "2024-12-31T23:30:00-01:00")).toBe("2025-01-01T00:30:00.000Z");
    expect(ok(D, "2024-03-05 10:20:30z")).toBe("2024-03-05T10:20:30.000Z");
  });
  test("YYYY-MM-DD is midnight UTC; integer unix seconds, negative too", () => {
    expect(ok(D, "1999-12-31")).toBe("1999-12-31T00:00:00.000Z");
    expect(ok(D, -86400)).toBe("1969-12-31T00:00:00.000Z");
    expect(ok(D, 1709634030)).toBe("2024-03-05T10:20:30.000Z");
  });
  test("the canonical form is kept: it validates to itself", () => {
    expect(ok(D, "2024-03-05T10:20:30.123Z")).toBe("2024-03-05T10:20:30.123Z");
    expect(isCanonicalDate("2024-03-05T10:20:30.123Z")).toBe(true);
    expect(isCanonicalDate("2024-03-05T10:20:30Z")).toBe(false);
    expect(isCanonicalDate("2024-03-05")).toBe(false);
  });
  test.each([
    ["2024-03-05T10:20:30+25:00", "offset hour"],
    ["2024-03-05T10:20:60Z", "second 60"],
    ["2024-03-05T10:60:00Z", "minute 60"],
    ["2024-02-30", "day of month"],
    ["2024-3-5", "unpadded"],
    ["2024-03", "year-month"],
    ["20240305", "basic format"],
    ["2024-03-05T10:20:30.Z", "empty fraction"],
    [" 2024-03-05", "leading space"],
  ])("rejects %j (%s)", (input) => {
    expect(err(D, input, "since")).toBe(
      `'since' must be a date: an RFC 3339 string with offset, YYYY-MM-DD, or integer unix seconds (Date), got ${JSON.stringify(input)}`,
    );
    expect(dateMillis(input)).toBeUndefined();
  });
  test("unix seconds must be integers; every Date is within years 0000-9999 UTC, so its output is RFC 3339", () => {
    expect(err(D, 1.5)).toContain("(Date), got 1.5");
    expect(ok(D, 253402300799)).toBe("9999-12-31T23:59:59.000Z");
    expect(err(D, 253402300800)).toContain("(Date), got 253402300800");
    expect(ok(D, -62167219200)).toBe("0000-01-01T00:00:00.000Z");
    expect(err(D, -62167219201)).toContain("(Date)");
    expect(err(D, 8.64e12)).toContain("(Date)");
    expect(err(D, 1e300)).toContain("(Date)");
    // An offset may not carry the instant past the range either.
    expect(ok(D, "9999-12-31T23:00:00+01:00")).toBe("9999-12-31T22:00:00.000Z");
    expect(err(D, "9999-12-31T23:00:00-01:00")).toContain("(Date)");
    expect(err(D, "0000-01-01T00:30:00+01:00")).toContain("(Date)");
  });
  test("dateMillis gives the instant of every accepted form", () => {
    expect(dateMillis("2024-03-05T12:20:30+02:00")).toBe(Date.UTC(2024, 2, 5, 10, 20, 30));
    expect(dateMillis("2024-03-05")).toBe(Date.UTC(2024, 2, 5));
    // Years 0000-0099 as written (Date.UTC alone reads them as 1900-1999).
    expect(ok(D, "0050-06-15")).toBe("0050-06-15T00:00:00.000Z");
    expect(ok(D, "0000-01-01")).toBe("0000-01-01T00:00:00.000Z");
    expect(ok(D, "0099-12-31")).toBe("0099-12-31T00:00:00.000Z");
    expect(ok(D, "0004-02-29")).toBe("0004-02-29T00:00:00.000Z");
    expect(ok(D, "0000-02-29")).toBe("0000-02-29T00:00:00.000Z"); // a leap year (divisible by 400), unlike 1900
    expect(ok(D, "0000-02-29T12:00:00Z")).toBe("0000-02-29T12:00:00.000Z");
    expect(err(D, "0100-02-29")).toContain("(Date)");
    expect(err(D, "2023-02-29")).toContain("(Date)");
    expect(ok(D, "2024-02-29")).toBe("2024-02-29T00:00:00.000Z");
    expect(err(D, "2024-04-31")).toContain("(Date)");
    expect(dateMillis("0050-06-15")).toBe(dateMillis("0050-06-15T00:00:00Z"));
    expect(dateMillis(1709634030)).toBe(1709634030000);
    expect(dateMillis(null)).toBeUndefined();
  });
  test("a Date parameter that is not one names the parameter and the expected type (400)", () => {
    const specs: ParamSpec[] = [{ name: "since", type: D, optional: false }];
    let caught: unknown;
    try {
      validateParams(specs, { since: "next tuesday" });
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(StrandError);
    expect([(caught as StrandError).code, httpStatus((caught as StrandError).code), (caught as StrandError).message]).toEqual([
      "INVALID_PARAMETER",
      400,
      `parameter 'since' must be a date: an RFC 3339 string with offset, YYYY-MM-DD, or integer unix seconds (Date), got "next tuesday"`,
    ]);
    expect(validateParams(specs, { since: "2024-03-05T12:00:00-03:00" })).toEqual({ since: "2024-03-05T15:00:00.000Z" });
  });
});

describe("describeValue: total and bounded (audit D2)", () => {
  test("short values are their JSON; long ones are cut to 60 characters with ...", () => {
    expect(describeValue(undefined)).toBe("nothing");
    expect(describeValue(null)).toBe("null");
    expect(describeValue([1, "a", true, null, { b: [2] }])).toBe('[1,"a",true,null,{"b":[2]}]');
    expect(describeValue({ a: undefined, b: Number.NaN, c: [undefined] })).toBe('{"b":null,"c":[null]}');
    expect(describeValue("x".repeat(100))).toBe(`"${"x".repeat(56)}...`);
    expect(describeValue(Array.from({ length: 100 }, (_, i) => i))).toBe("[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,...");
    expect(describeValue(10n)).toBe("10");
  });

  test("arrays and objects nested 100,000 deep neither throw nor overflow the stack", () => {
    const deepArray = JSON.parse("[".repeat(100_000) + "]".repeat(100_000)) as unknown;
    expect(describeValue(deepArray)).toBe(`${"[".repeat(57)}...`);
    let deepObject: unknown = {};
    for (let i = 0; i < 100_000; i++) deepObject = { a: deepObject };
    expect(describeValue(deepObject)).toBe('{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"...');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(describeValue(cyclic)).toBe('{"self":{"self":{"self":{"self":{"self":{"self":{"self":{...');
  });

  test("a deeply nested parameter value is a 400 naming the parameter", () => {
    const specs: ParamSpec[] = [{ name: "flag", type: sc("Boolean"), optional: false }];
    const deep = JSON.parse("[".repeat(20_000) + "]".repeat(20_000)) as unknown;
    expect(() => validateParams(specs, { flag: deep })).toThrow(
      new StrandError("INVALID_PARAMETER", `parameter 'flag' must be a boolean (Boolean), got ${"[".repeat(57)}...`),
    );
  });

  test("unknown parameter and member names are echoed at most 60 characters long", () => {
    const long = "k".repeat(100_000);
    expect(() => validateParams([], { [long]: 1 })).toThrow(`unknown parameter '${"k".repeat(57)}...' (parameters: none)`);
    const t: ValueType = { kind: "object", fields: [{ name: "city", type: sc("String"), optional: false }] };
    expect(err(t, { city: "x", [long]: 1 }, "a")).toBe(`'a' has unknown member '${"k".repeat(57)}...'; expected an object {city}`);
  });
});

describe("echo", () => {
  test("cuts at ECHO_LIMIT characters, ellipsis included, or at a longer limit given", () => {
    expect(echo("x".repeat(ECHO_LIMIT))).toBe("x".repeat(ECHO_LIMIT));
    expect(echo("x".repeat(ECHO_LIMIT + 1))).toBe(`${"x".repeat(ECHO_LIMIT - 3)}...`);
    expect(echo("x".repeat(600), 500)).toBe(`${"x".repeat(497)}...`);
    expect(echo("x".repeat(500), 500)).toBe("x".repeat(500));
  });
});
