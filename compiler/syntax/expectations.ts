// What the parser expected where it failed, as readable words: peggy's expectations become
// `'::'`, `an identifier`, ...; whole sets of tokens that begin a construct become one word ("an
// expression"), and the list is ordered the way a person reads it.
import { runParser, isPeggySyntaxError, type PeggyExpectation, type StartRule } from "./generated-parser.js";

/** Peggy expectations as display strings: `'::'`, `an identifier`, `end of file`, ... */
export function expectationKeys(expected: readonly PeggyExpectation[]): Set<string> {
  const keys = new Set<string>();
  for (const x of expected) {
    switch (x.type) {
      case "literal":
        keys.add(`'${x.text ?? ""}'`);
        break;
      case "end":
        keys.add("end of file");
        break;
      case "any":
        keys.add("any character");
        break;
      case "class": {
        // peggy merges `"N" / "E" / "V"` into a class; show small single-character classes as literals.
        const parts = x.parts ?? [];
        if (!x.inverted && parts.length <= 4 && parts.every((p) => typeof p === "string")) {
          for (const p of parts) keys.add(`'${String(p)}'`);
        } else {
          keys.add("a character of another kind");
        }
        break;
      }
      default: {
        const d = x.description ?? x.text ?? "something else";
        if (d === "whitespace") break;
        keys.add(/^[aeiou]/i.test(d) ? `an ${d}` : `a ${d}`);
      }
    }
  }
  return keys;
}

interface Category {
  rule: StartRule;
  label: string;
}

/** Sets of tokens that can begin a construct, replaced by one readable word when all are expected. */
const CATEGORIES: readonly Category[] = [
  { rule: "Statement", label: "a statement" },
  { rule: "TopLevelItem", label: "a QUERY or schema definition" },
  { rule: "Expr", label: "an expression" },
  { rule: "SchemaItem", label: "an N::, E:: or V:: item" },
  { rule: "Step", label: "a step or projection" },
  { rule: "Literal", label: "a literal" },
  { rule: "Type", label: "a type" },
];

let startSets: Map<StartRule, Set<string>> | null = null;

function startSet(rule: StartRule): Set<string> {
  if (startSets === null) {
    startSets = new Map();
    for (const c of CATEGORIES) {
      let keys = new Set<string>();
      try {
        runParser("", "<start-set>", c.rule);
      } catch (e) {
        if (isPeggySyntaxError(e)) keys = expectationKeys(e.expected ?? []);
      }
      keys.delete("end of file");
      startSets.set(c.rule, keys);
    }
  }
  return startSets.get(rule) ?? new Set();
}

function isSubset(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  for (const x of a) if (!b.has(x)) return false;
  return true;
}

/** Collapses expectation keys into categories and orders them: categories, punctuation, words, end of file. */
export function summarize(keys: ReadonlySet<string>): string[] {
  const matched = CATEGORIES.filter((c) => {
    const set = startSet(c.rule);
    return set.size > 0 && isSubset(set, keys);
  });
  // Drop a category that is part of a larger matched one (an expression is part of a statement).
  const kept = matched.filter(
    (c) =>
      !matched.some(
        (other) => other !== c && startSet(other.rule).size > startSet(c.rule).size && isSubset(startSet(c.rule), startSet(other.rule)),
      ),
  );
  const covered = new Set<string>();
  for (const c of matched) for (const k of startSet(c.rule)) covered.add(k);
  const rest = [...keys].filter((k) => !covered.has(k));
  // Punctuation first, then kinds of token, keywords, end of file; the tokens that could merely
  // continue a name (`f(`, `N<`, `a.b`) come last since they are rarely what was missing.
  const rank = (k: string): number => {
    if (k === "'('" || k === "'<'" || k === "'.'") return 5;
    if (k === "end of file") return 4;
    if (!k.startsWith("'")) return 2;
    return /^'[A-Za-z_]/.test(k) ? 3 : 1;
  };
  rest.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  return [...kept.map((c) => c.label), ...rest];
}

export function joinOr(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`;
}
