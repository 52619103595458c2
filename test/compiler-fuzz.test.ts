// No input may crash or hang the compiler: a seeded slice of the .hx mutant campaign
// (scripts/campaign/hx-mutants.ts; `npm run campaign -- hx-mutants` runs 100,000). Real projects
// are mutated (deleted, duplicated, inserted and replaced spans, words and tokens) and each is
// compiled: it answers with code or with declared diagnostics whose spans lie in the text, never
// a throw or an internal error (E099, E999). Bounded by a count, not by time, so a failure
// always reproduces.
import { describe, expect, test } from "vitest";
import { compileMutant, mutate, runHxMutants, seedProjects } from "../scripts/campaign/hx-mutants.js";
import { seededRandom } from "../scripts/campaign/random.js";

describe("compiler fuzzing with mutated real projects", () => {
  test("600 mutants: diagnostics or code, never an internal error", async () => {
    const summary = await runHxMutants({ mutants: 600, seed: 20261121 });
    expect(summary.findings).toEqual([]);
    expect(summary.seedProjects).toBeGreaterThan(50);
    // Most mutants are broken programs; the test must actually exercise the error paths, and some compile.
    expect(summary.rejected).toBeGreaterThan(300);
    expect(summary.compiled).toBeGreaterThan(0);
    expect(summary.codes).toBeGreaterThan(10);
  });

  test("a mutant is judged by its diagnostics: an internal error or a span outside the text is a finding", () => {
    const [first] = seedProjects();
    const random = seededRandom(1);
    expect(mutate(first!, random)).not.toBe(first);
    expect(compileMutant(first!, true)).toMatchObject({ ok: true, problems: [] });
    const broken = compileMutant("QUERY Q() =>\n    x <- N<Nope>\n    RETURN x\n", false);
    expect(broken.ok).toBe(false);
    expect(broken.problems).toEqual([]);
    expect(broken.diagnostics.map((d) => d.code)).toContain("E101");
  });
});
