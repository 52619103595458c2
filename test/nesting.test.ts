// The nesting limit (compiler/syntax/nesting.ts, MAX_NESTING = 48): every construct nested up to the limit
// compiles to TypeScript, and its JavaScript modules load as `strand serve` loads them; one level
// deeper is E006 at the first node beyond the limit, from `strand check` as from `strand compile`.
import { describe, expect, it } from "vitest";
import { compileProject } from "../compiler/index.js";
import { MAX_NESTING } from "../compiler/syntax/nesting.js";
import { evaluateQueryModule } from "../cli/project/query-modules.js";
import { compileQueryScripts } from "../compiler/scripts.js";

const rep = (s: string, k: number): string => s.repeat(k);

interface Construct {
  name: string;
  /** the program with k repetitions of the nesting construct */
  program: (k: number) => string;
  /** the largest k within the limit */
  deepest: number;
  /** where E006 is reported for deepest + 1: the first node nested MAX_NESTING + 1 levels deep */
  at: string;
}

const CONSTRUCTS: Construct[] = [
  {
    // RETURN's value is level 1, ADD #j level j, its arguments level j + 1
    name: "math calls",
    program: (k) => `N::U { n: String }\nQUERY A() =>\n    RETURN ${rep("ADD(1, ", k)}1${rep(")", k)}\n`,
    deepest: 47,
    at: `3:${12 + 7 * 47 + 4}`, // the first argument of ADD #48
  },
  {
    name: "arrays",
    program: (k) => `N::U { n: String }\nQUERY A() =>\n    RETURN ${rep("[", k)}1${rep("]", k)}\n`,
    deepest: 47,
    at: `3:${12 + 48}`, // the element of the 48th array
  },
  {
    name: "objects",
    program: (k) => `N::U { n: String }\nQUERY A() =>\n    RETURN ${rep("{a: ", k)}1${rep("}", k)}\n`,
    deepest: 47,
    at: `3:${12 + 4 * 48}`, // the member value of the 48th object
  },
  {
    // each step is one level below the traversal before it: step #j is level j + 1
    name: "a chain of steps",
    program: (k) => `N::U { n: String }\nE::F { From: U, To: U }\nQUERY A() =>\n    u <- N<U>${rep("::Out<F>", k)}\n    RETURN u\n`,
    deepest: 47,
    at: `4:${14 + 8 * 47 + 2}`, // the name of step #48
  },
  {
    // WHERE #j is level j + 1, its condition j + 2, the condition's {n} and EQ steps j + 3 and j + 4
    name: "a chain of WHERE steps",
    program: (k) => `N::U { n: String }\nQUERY A() =>\n    u <- N<U>${rep('::WHERE(_::{n}::EQ("a"))', k)}\n    RETURN u\n`,
    deepest: 43,
    at: `3:${14 + 24 * 43 + 19}`, // EQ's argument "a" in WHERE #44 (level 49)
  },
  {
    // each level: the projection step, the field's traversal, its Out step (projection #j is level 3j - 1)
    name: "projections of sub-traversals",
    program: (k) =>
      `N::U { n: String }\nE::F { From: U, To: U }\nQUERY A() =>\n    u <- N<U>${rep("::{a: _::Out<F>", k)}::{n}${rep("}", k)}\n    RETURN u\n`,
    deepest: 15,
    at: `4:${14 + 15 * 15 + 9}`, // the Out step in the 16th projection's field (level 3 * 16 + 1)
  },
  {
    name: "EXISTS conditions",
    program: (k) =>
      `N::U { n: String }\nE::F { From: U, To: U }\nQUERY A() =>\n    u <- N<U>${rep("::WHERE(EXISTS(_::Out<F>", k)}${rep("))", k)}\n    RETURN u\n`,
    deepest: 11,
    at: `4:${14 + 24 * 11 + 18}`, // the Out step inside the 12th EXISTS (level 4 * 12 + 1)
  },
  {
    name: "FOR loops",
    program: (k) =>
      `N::U { n: String }\nQUERY A(xs: [String]) =>\n${Array.from({ length: k }, (_, i) => `    FOR _x${i} IN xs {`).join("\n")}\n    AddN<U>({n: "a"})\n${rep("}\n", k)}    RETURN NONE\n`,
    deepest: 45,
    at: `${2 + 46 + 1}:17`, // the member value in AddN inside 46 loops: statement 47, object 48, value 49
  },
  {
    name: "a parameter's object type",
    program: (k) => `N::U { n: String }\nQUERY A(x: ${rep("{a: ", k)}String${rep("}", k)}) =>\n    RETURN x\n`,
    deepest: 47,
    at: `2:${12 + 4 * 48}`, // the innermost member's type
  },
  {
    name: "a field's array type",
    program: (k) => `N::U { n: ${rep("[", k)}String${rep("]", k)} }\nQUERY A() =>\n    u <- N<U>\n    RETURN u\n`,
    deepest: 47,
    at: `1:${11 + 48}`,
  },
];

const errors = (text: string, checkOnly: boolean): string[] =>
  compileProject([{ file: "deep.hx", text }], { checkOnly })
    .diagnostics.filter((d) => d.severity === "error")
    .map((d) => `${d.code} ${d.span.start.line}:${d.span.start.column}`);

describe("the nesting limit", () => {
  it("is 48 levels", () => {
    expect(MAX_NESTING).toBe(48);
  });

  for (const c of CONSTRUCTS) {
    it(`${c.name}: ${c.deepest} compile (TypeScript) and load (JavaScript); ${c.deepest + 1} are E006 at ${c.at} for check and compile alike`, async () => {
      const result = compileProject([{ file: "deep.hx", text: c.program(c.deepest) }], {});
      expect(result.diagnostics).toEqual([]);
      expect(result.files.filter((f) => f.path.startsWith("queries/")).length).toBe(1);
      const scripts = compileQueryScripts([{ file: "deep.hx", text: c.program(c.deepest) }], {});
      expect(scripts.diagnostics).toEqual([]);
      expect(scripts.files.length).toBe(1);
      for (const f of scripts.files) expect((await evaluateQueryModule(f.path, f.text)).name).toBe("A");

      const deeper = c.program(c.deepest + 1);
      expect(errors(deeper, true)).toEqual([`E006 ${c.at}`]);
      expect(errors(deeper, false)).toEqual([`E006 ${c.at}`]);
    });
  }

  it("says what the limit is and how to split a long traversal", () => {
    const [d] = compileProject([{ file: "deep.hx", text: CONSTRUCTS[3]!.program(100) }], { checkOnly: true }).diagnostics;
    expect(d).toMatchObject({
      code: "E006",
      message: "nested more than 48 levels deep (the limit of HelixQL programs)",
      hint: "split the traversal: assign its first part to a variable and continue from that variable",
    });
  });

  it("far past the limit (2000 steps, 360 nested calls) is the same E006, never E999", () => {
    expect(errors(CONSTRUCTS[3]!.program(2000), false)).toEqual([`E006 ${CONSTRUCTS[3]!.at}`]);
    expect(errors(CONSTRUCTS[0]!.program(360), false)).toEqual([`E006 ${CONSTRUCTS[0]!.at}`]);
  });

  it("reports the first too-deep node of each query and checks nothing else", () => {
    const text = `N::U { n: String }\nQUERY A() =>\n    RETURN ${rep("[", 60)}1${rep("]", 60)}\nQUERY B() =>\n    RETURN ${rep("{a: ", 50)}1${rep("}", 50)}\nQUERY C() =>\n    RETURN nope\n`;
    expect(errors(text, true)).toEqual(["E006 3:60", `E006 5:${12 + 4 * 48}`]);
  });

  it("input too deep for the parser is E006 at the first bracket beyond the limit, not at 1:1", () => {
    const text = `QUERY Deep() =>\n    RETURN ${rep("[", 50_000)}1${rep("]", 50_000)}\n`;
    expect(errors(text, true)).toEqual([`E006 2:${12 + 48}`]);
  });
});
