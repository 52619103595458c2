// The rows an explained plan estimates each step to yield (compiler/plan-rows.ts), from counts
// the test sets: an index equality keeps 1/10, a condition in memory 1/3, a hop multiplies by the
// edge type's mean degree at its end, and a search yields at most its k.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compileAdHoc, prepareAdHoc } from "../compiler/adhoc.js";
import type { PlanStats } from "../compiler/plan-rows.js";
import { SOCIAL_EXAMPLE } from "./support/server.js";

const sources = ["schema.hx", "queries.hx"].map((f) => ({ file: f, text: readFileSync(join(SOCIAL_EXAMPLE, f), "utf8") }));
const prepared = prepareAdHoc(sources);
const stats: PlanStats = {
  records: { User: 1000, Post: 3000, Follows: 5000, Wrote: 3000 },
  edgeEnds: { Follows: { from: "User", to: "User" }, Wrote: { from: "User", to: "Post" } },
};

function rows(text: string, params: Record<string, unknown>): { step: string; rows?: number }[] {
  if ("diagnostics" in prepared) throw new Error("the example does not compile");
  const result = compileAdHoc(prepared, text, params);
  if (result.query === null) throw new Error(JSON.stringify(result.diagnostics));
  return result.explain(stats, params).map((s) => ({ step: s.step, ...(s.rows === undefined ? {} : { rows: s.rows }) }));
}

describe("estimated rows of a plan", () => {
  it("follows a chain of variables through an index, two hops and a RANGE", () => {
    expect(
      rows(
        "users <- N<User>::WHERE(_::{city}::EQ(c))\nfollowed <- users::Out<Follows>\nposts <- followed::Out<Wrote>::RANGE(0, n)\nRETURN posts",
        {
          c: "Oslo",
          n: 10,
        },
      ),
    ).toEqual([
      { step: "N<User> WHERE", rows: 100 },
      { step: "Out<Follows>", rows: 500 },
      { step: "Out<Wrote>", rows: 1500 },
    ]);
  });

  it("scans a type, keeps a third for a condition in memory, and caps a search at its k", () => {
    expect(rows("N<User>::WHERE(_::{age}::GT(a))::COUNT", { a: 30 })).toEqual([
      { step: "N<User>", rows: 1000 },
      { step: "WHERE", rows: 333 },
    ]);
    expect(rows("SearchBM25<Post>(q, 25)", { q: "engines" })).toEqual([{ step: "SearchBM25<Post>", rows: 25 }]);
  });
});
