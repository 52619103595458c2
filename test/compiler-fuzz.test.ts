// No input may crash or hang the compiler: mutate the real projects of the compile-only corpus
// (delete, duplicate, swap and replace spans of characters and tokens) and check that
// compileProject always answers with diagnostics or code, never an internal error (E999).
// Seeded and bounded by a case count, not by time, so a failure always reproduces.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { compileProject } from "../compiler/index.js";

const dir = path.join(import.meta.dirname, "corpus", "valid");
const projects = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith(".hx"))
  .map((f) => fs.readFileSync(path.join(dir, f), "utf8"));
const TOKENS = [
  "::",
  "<-",
  "=>",
  "{",
  "}",
  "(",
  ")",
  "<",
  ">",
  ",",
  "_",
  "N<",
  "WHERE(",
  "RETURN",
  "FOR",
  "IN",
  "DROP",
  '"',
  "\\",
  "#[",
  "]",
  "-",
  "1e",
  "..",
  "!",
  "|x|",
  "\n",
];

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function mutate(text: string, random: () => number): string {
  let out = text;
  const edits = 1 + Math.floor(random() * 4);
  for (let i = 0; i < edits; i++) {
    const at = Math.floor(random() * out.length);
    const len = 1 + Math.floor(random() * 40);
    switch (Math.floor(random() * 4)) {
      case 0:
        out = out.slice(0, at) + out.slice(at + len);
        break;
      case 1:
        out = out.slice(0, at) + out.slice(at, at + len) + out.slice(at);
        break;
      case 2:
        out = out.slice(0, at) + TOKENS[Math.floor(random() * TOKENS.length)]! + out.slice(at);
        break;
      default: {
        const from = Math.floor(random() * out.length);
        out = out.slice(0, at) + out.slice(from, from + len) + out.slice(at + len);
      }
    }
  }
  return out;
}

describe("compiler fuzzing with mutated real projects", () => {
  test("600 mutants: diagnostics or code, never an internal error", () => {
    const random = rng(20261121);
    let rejected = 0;
    for (let i = 0; i < 600; i++) {
      const source = projects[i % projects.length]!;
      const text = mutate(source, random);
      const result = compileProject([{ file: "m.hx", text }], { checkOnly: i % 4 !== 0 });
      const internal = result.diagnostics.filter((d) => d.code === "E999");
      expect(internal, `mutant ${i}:\n${text}`).toEqual([]);
      if (!result.ok) rejected++;
    }
    // Most mutants are broken programs; the test must actually exercise the error paths.
    expect(rejected).toBeGreaterThan(300);
  });
});
