// Which WHERE clauses the compiler hands to the index (compiler/check/index-plan.ts): comparisons
// EQ/GT/GTE/LT/LTE of an INDEX field of `_` with a value that does not depend on the item, as
// conjuncts of a WHERE over every item of a type, when no part of the condition can fail.
import { describe, expect, test } from "vitest";
import { compileProject } from "../compiler/index.js";

const SCHEMA = `
N::User { INDEX city: String, UNIQUE INDEX email: String, INDEX age: U32, n: I64, INDEX joined: Date DEFAULT NOW }
E::Knows { From: User, To: User, Properties: { INDEX w: I64 } }
`;

/** The emitted body of each query, by name. */
function emitted(queries: string): Record<string, string> {
  const r = compileProject([{ file: "q.hx", text: SCHEMA + queries }]);
  expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  const out: Record<string, string> = {};
  for (const f of r.files) {
    const m = /^queries\/(\w+)\.ts$/.exec(f.path);
    if (m) out[m[1]!] = f.text;
  }
  return out;
}

const uses = (text: string | undefined): string | null => /db\.itemsWhereIndexed\("[NE]", "\w+", \[[^\]]*\]/.exec(text ?? "")?.[0] ?? null;

describe("the index plan of a WHERE", () => {
  test("served: EQ and ranges on INDEX / UNIQUE INDEX fields, in AND, with RANGE / FIRST / COUNT after, on edges", () => {
    const q = emitted(`
QUERY Eq(c: String) => u <- N<User>::WHERE(_::{city}::EQ(c)) RETURN u
QUERY Unique(e: String) => u <- N<User>::WHERE(_::{email}::GT(e)) RETURN u
QUERY Between(lo: U32, hi: U32) => u <- N<User>::WHERE(AND(_::{age}::GTE(lo), _::{age}::LT(hi)))::RANGE(0, 10) RETURN u
QUERY Mixed(c: String) => u <- N<User>::WHERE(AND(_::{n}::GT(1), _::{city}::EQ(c)))::FIRST RETURN u
QUERY Literal() => n <- N<User>::WHERE(_::{age}::LTE(30))::COUNT RETURN n
QUERY Edge(w: I64) => e <- E<Knows>::WHERE(_::{w}::EQ(w)) RETURN e
`);
    expect(uses(q.Eq)).toBe('db.itemsWhereIndexed("N", "User", [{ field: "city", op: "EQ", value: params.c }]');
    expect(uses(q.Unique)).toBe('db.itemsWhereIndexed("N", "User", [{ field: "email", op: "GT", value: params.e }]');
    expect(uses(q.Between)).toBe(
      'db.itemsWhereIndexed("N", "User", [{ field: "age", op: "GTE", value: params.lo }, { field: "age", op: "LT", value: params.hi }]',
    );
    expect(q.Between).toContain(", 0, 10)");
    expect(uses(q.Mixed)).toBe('db.itemsWhereIndexed("N", "User", [{ field: "city", op: "EQ", value: params.c }]');
    expect(uses(q.Literal)).toBe('db.itemsWhereIndexed("N", "User", [{ field: "age", op: "LTE", value: 30 }]');
    expect(uses(q.Edge)).toBe('db.itemsWhereIndexed("E", "Knows", [{ field: "w", op: "EQ", value: params.w }]');
  });

  test("not served: unindexed fields, NEQ, OR, a value of the item, NOW, a condition that may fail, a WHERE after a step", () => {
    const q = emitted(`
QUERY Plain() => u <- N<User>::WHERE(_::{n}::GT(1)) RETURN u
QUERY Neq(c: String) => u <- N<User>::WHERE(_::{city}::NEQ(c)) RETURN u
QUERY Or(c: String) => u <- N<User>::WHERE(OR(_::{city}::EQ(c), _::{n}::GT(1))) RETURN u
QUERY Self() => u <- N<User>::WHERE(_::{age}::GT(_::{n})) RETURN u
QUERY Now() => u <- N<User>::WHERE(_::{joined}::LT(NOW)) RETURN u
QUERY Fails(c: String) => u <- N<User>::WHERE(AND(_::{city}::EQ(c), _::{n}::GT(DIV(10, _::{n})))) RETURN u
QUERY AfterStep(id: ID, c: String) => u <- N<User>(id)::Out<Knows>::WHERE(_::{city}::EQ(c)) RETURN u
`);
    for (const [name, text] of Object.entries(q)) expect(uses(text), name).toBeNull();
  });
});
