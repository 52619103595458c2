// The exact text of diagnostics that used to contradict themselves or point the wrong way (audit 5
// D12): the program, the code, the position and the whole message.
import { describe, expect, it } from "vitest";
import { compileProject } from "../compiler/index.js";

const SCHEMA = "N::Review { name: String, scores: [I64], tags: [String], at: Date }\n";

function first(query: string): string {
  const d = compileProject([{ file: "a.hx", text: SCHEMA + query }], { checkOnly: true }).diagnostics.find((x) => x.severity === "error");
  return d === undefined ? "ok" : `${d.code} ${d.span.start.line}:${d.span.start.column} ${d.message}${d.hint === undefined ? "" : ` | ${d.hint}`}`;
}

describe("diagnostics say what is wrong, without contradicting themselves", () => {
  it("aggregates of array fields: numbers are aggregated, other elements named", () => {
    expect(first("QUERY A() =>\n    r <- N<Review>::{s: SUM(_::{scores}), a: AVG(_::{scores})}\n    RETURN r\n")).toBe("ok");
    expect(first("QUERY A() =>\n    r <- N<Review>::{a: AVG(_::{tags})}\n    RETURN r\n")).toBe(
      "E214 3:29 AVG needs numbers, but this array holds String values",
    );
  });

  it("IS_IN on an array field: a list of its element type, else says so", () => {
    expect(first("QUERY B(xs: [I64]) =>\n    r <- N<Review>::WHERE(_::{scores}::IS_IN(xs))\n    RETURN r\n")).toBe("ok");
    expect(first("QUERY B(xs: [String]) =>\n    r <- N<Review>::WHERE(_::{scores}::IS_IN(xs))\n    RETURN r\n")).toBe(
      "E206 3:46 ::IS_IN needs a list of I64 values (any element of this [I64] value), but this is a value of type [String]",
    );
  });

  it("`_` in UPDATE is the item being updated; elsewhere outside a step the message says where it works", () => {
    expect(first("N::C { n: I64 }\nQUERY Bump(id: ID) =>\n    c <- N<C>(id)::UPDATE({n: ADD(_::{n}, 1)})\n    RETURN c\n")).toBe("ok");
    expect(first("QUERY C() =>\n    r <- AddN<Review>({name: _::{name}})\n    RETURN r\n")).toBe(
      "E121 3:30 '_' stands for the item a step works on (in ::WHERE, ::ORDER, ::UPDATE, projections, ...), and there is none here | e.g. ::WHERE(_::{age}::GT(18)) or ::UPDATE({n: ADD(_::{n}, 1)})",
    );
  });

  it("Date literals accept what Date parameters accept, unix seconds included", () => {
    expect(first("QUERY D() =>\n    r <- AddN<Review>({at: 1700000000})\n    RETURN r\n")).toBe("ok");
    expect(first("QUERY D() =>\n    r <- AddN<Review>({at: 1.5})\n    RETURN r\n")).toBe(
      "E201 3:28 expected a Date (an RFC 3339 string, YYYY-MM-DD, or integer unix seconds in years 0000-9999), found 1.5",
    );
    expect(first('QUERY D() =>\n    r <- AddN<Review>({at: "2024-05-01T12:00:00"})\n    RETURN r\n')).toBe(
      'E201 3:28 "2024-05-01T12:00:00" is not a date (use RFC 3339 with an offset, e.g. "2024-05-01T12:00:00Z", or YYYY-MM-DD)',
    );
  });
});
