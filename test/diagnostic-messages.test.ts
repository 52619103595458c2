// The exact text of diagnostics that used to contradict themselves or point the wrong way (audit 5
// D12): the program, the code, the position and the whole message.
import { describe, expect, it } from "vitest";
import { compileProject } from "../compiler/index.js";

const SCHEMA = "N::Review { name: String, scores: [I64], tags: [String], at: Date }\n";

function first(query: string): string {
  const d = compileProject([{ file: "a.hx", text: SCHEMA + query }], { checkOnly: true }).diagnostics.find((x) => x.severity === "error");
  return d === undefined
    ? "ok"
    : `${d.code} ${d.span.start.line}:${d.span.start.column} ${d.message}${d.hint === undefined ? "" : ` | ${d.hint}`}`;
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

describe("a zero-or-one item's ::ID names an item like the item itself (audit 6 L3)", () => {
  const PEOPLE =
    'N::Person { UNIQUE INDEX name: String, ref: ID, alt: ID DEFAULT "0193a1b2-0000-7000-8000-000000000000" }\nE::Knows { From: Person, To: Person }\n';
  const all = (query: string): string[] =>
    compileProject([{ file: "a.hx", text: PEOPLE + query }], { checkOnly: true }).diagnostics.map(
      (d) => `${d.code} ${d.span.start.line}:${d.span.start.column} ${d.message}${d.hint === undefined ? "" : ` | ${d.hint}`}`,
    );
  const lookups = "    x <- N<Person>({name: a})\n    y <- N<Person>({name: b})\n";

  it("N<Person>(x::ID), ::To(y::ID), ::From(x::ID) are accepted", () => {
    expect(
      all(`QUERY P(a: String, b: String) =>\n${lookups}    p <- N<Person>(x::ID)::ShortestPath<Knows>::To(y::ID)\n    RETURN p\n`),
    ).toEqual([]);
    expect(all(`QUERY P(a: String, b: String) =>\n${lookups}    e <- AddE<Knows>::From(x::ID)::To(y::ID)\n    RETURN e\n`)).toEqual([]);
  });

  it("a value that may be absent gets a hint that fits where it comes from, and its later uses still count (no W002)", () => {
    expect(
      all(`QUERY S(a: String, b: String) =>\n${lookups}    p <- N<Person>(x::{ref})::ShortestPath<Knows>::To(y::ID)\n    RETURN p\n`),
    ).toEqual(["E206 6:20 this value may be absent, so it cannot name an item | it is a field of an item that may be absent"]);
    expect(
      all(
        "QUERY T(id: ID, b: String) =>\n    x <- N<Person>(id)\n    y <- N<Person>({name: b})\n    p <- N<Person>(x::{ref})::Out<Knows>::WHERE(_::{name}::EQ(y::{name}))\n    RETURN p\n",
      ),
    ).toEqual([
      "E206 6:20 this value may be absent, so it cannot name an item | 'ref' has no DEFAULT, so a record may lack it; give it one",
    ]);
    expect(all("QUERY U(id: ID, o: {r?: ID}) =>\n    p <- N<Person>(o.r)\n    RETURN p\n")).toEqual([
      "E206 4:20 this value may be absent, so it cannot name an item | declare the field 'r' without '?'",
    ]);
    // A variable nothing mentions is still reported.
    expect(
      all(
        "QUERY V(id: ID, b: String) =>\n    x <- N<Person>(id)\n    y <- N<Person>({name: b})\n    p <- N<Person>(x::{ref})\n    RETURN p\n",
      ),
    ).toEqual([
      "W002 5:5 variable 'y' is never used | remove it, use it, or start its name with '_' to keep it",
      "E206 6:20 this value may be absent, so it cannot name an item | 'ref' has no DEFAULT, so a record may lack it; give it one",
    ]);
  });
});

describe("the habits of other query languages get the HelixQL way in the hint (issue 11)", () => {
  const USERS = "N::User { name: String, age: U32 }\n";
  const diag = (query: string): string => {
    const d = compileProject([{ file: "a.hx", text: USERS + query }], { checkOnly: true }).diagnostics.find((x) => x.severity === "error");
    return d === undefined
      ? "ok"
      : `${d.code} ${d.span.start.line}:${d.span.start.column}-${d.span.end.column} ${d.message}${d.hint === undefined ? "" : ` | ${d.hint}`}`;
  };
  const where = (condition: string): string => diag(`QUERY Q(name: String) =>\n    u <- N<User>::WHERE(${condition})\n    RETURN u\n`);

  it("an infix comparison is E007 on the operator, rewritten with its step", () => {
    expect(where("_::{name} == name")).toBe(
      "E007 3:35-37 '==' is not a HelixQL operator: values are compared with steps such as ::EQ(..) | write _::{name}::EQ(name)",
    );
    expect(where("_::{name} != name")).toBe(
      "E007 3:35-37 '!=' is not a HelixQL operator: values are compared with steps such as ::NEQ(..) | write _::{name}::NEQ(name)",
    );
    expect(where("_::{age} > 18")).toBe(
      "E007 3:34-35 '>' is not a HelixQL operator: values are compared with steps such as ::GT(..) | write _::{age}::GT(18)",
    );
    expect(where("_::{age} <= 18")).toBe(
      "E007 3:34-36 '<=' is not a HelixQL operator: values are compared with steps such as ::LTE(..) | write _::{age}::LTE(18)",
    );
    expect(where("_::{age} < 18")).toBe(
      "E007 3:34-35 '<' is not a HelixQL operator: values are compared with steps such as ::LT(..) | write _::{age}::LT(18)",
    );
    expect(where('AND(_::{name} = "ann", _::{age}::GT(3))')).toBe(
      "E007 3:39-40 '=' is not a HelixQL operator: values are compared with steps such as ::EQ(..) | write _::{name}::EQ(\"ann\")",
    );
    expect(where("_::Out<Knows>::COUNT == ADD(1, MUL(2, 3))")).toBe(
      "E007 3:46-48 '==' is not a HelixQL operator: values are compared with steps such as ::EQ(..) | write _::Out<Knows>::COUNT::EQ(ADD(1, MUL(2, 3)))",
    );
  });

  it("an assignment with '=' keeps its own hint", () => {
    expect(diag("QUERY Q() =>\n    u = N<User>\n    RETURN u\n")).toBe(
      "E001 3:7-8 expected a statement, a QUERY or schema definition, '::', '<-', 'RETURN' or end of file, found '=' | assignments are written 'name <- expression'",
    );
  });

  it("::Limit(n) is ::RANGE(0, n); ORDER(field) is ORDER<Asc>(_::{field})", () => {
    expect(diag("QUERY Q() =>\n    u <- N<User>::Limit(10)\n    RETURN u\n")).toBe(
      "E902 3:19-24 unknown step '::Limit' | HelixQL has no ::Limit: write ::RANGE(0, 10) for the first 10 (::RANGE(start, end) keeps positions start to end - 1)",
    );
    expect(diag("QUERY Q() =>\n    u <- N<User>::ORDER(age)\n    RETURN u\n")).toBe(
      "E208 3:19-29 ORDER needs a direction: ORDER<Asc>(..) or ORDER<Desc>(..) | write ::ORDER<Asc>(_::{age}) (smallest first) or ::ORDER<Desc>(_::{age})",
    );
    expect(diag("QUERY Q() =>\n    u <- N<User>::ORDER(_::{age})\n    RETURN u\n")).toBe(
      "E208 3:19-34 ORDER needs a direction: ORDER<Asc>(..) or ORDER<Desc>(..) | write ::ORDER<Asc>(_::{field}) (smallest first) or ::ORDER<Desc>(_::{field})",
    );
  });

  it("an undeclared vector type in AddV or SearchV shows its declaration", () => {
    expect(diag("QUERY Q(v: [F64], t: String) =>\n    e <- AddV<Chunk>(v, {t: t, n: 1})\n    RETURN e\n")).toBe(
      "E101 3:15-20 unknown vector type 'Chunk' | declare it in the schema, e.g. V::Chunk { t: String, n: I64 } (the fields each vector carries besides the vector itself)",
    );
    expect(diag("QUERY Q(v: [F64]) =>\n    e <- SearchV<Chunk>(v, 3)\n    RETURN e\n")).toBe(
      "E101 3:18-23 unknown vector type 'Chunk' | declare it in the schema, e.g. V::Chunk { text: String } (the fields each vector carries besides the vector itself)",
    );
  });
});
