// The .hx mutant campaign (issue 14): mutate real projects (delete, duplicate, insert tokens,
// copy spans) and compile each (parse, check, and for every fourth also emit). No mutant may
// throw or get an internal diagnostic (E099, E999); every diagnostic must have a declared code
// and a span inside the text. Seeded and bounded by a count, so a failure always reproduces.
import fs from "node:fs";
import path from "node:path";
import { DIAGNOSTICS } from "../../compiler/diagnostics/table.js";
import { compileProject, type Diagnostic } from "../../compiler/index.js";
import { between, pick, seededRandom, type Random } from "./random.js";
import { CAMPAIGN_PROJECT, REPO_ROOT } from "./strand-child.js";

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
  "E<",
  "V<",
  "WHERE(",
  "RETURN",
  "FOR",
  "IN",
  "DROP",
  "UPDATE(",
  "AddN<",
  "AddE<",
  "AddV<",
  "SearchV<",
  "SearchBM25<",
  "#[mcp]",
  "#[",
  "]",
  "[",
  '"',
  "\\",
  "-",
  "1e",
  "1e400",
  "..",
  "!",
  "|x|",
  "\n",
  "QUERY",
  "N::",
  "E::",
  "V::",
  "INDEX",
  "UNIQUE",
  "DEFAULT",
  "ID",
  "String",
  "[F64]",
  "U32",
  "I64",
  "COUNT",
  "RANGE(",
  "ORDER<",
  "GROUP_BY(",
  "ShortestPath<",
  "Embed(",
  "MIGRATION",
  "schema::",
  "//",
  "/*",
  "\u0000",
  "é",
  "😀",
];

/**
 * The .hx texts mutants start from: the valid projects of the compile-only corpus, of the
 * conformance cases and the examples (a mutant of a valid program reaches the checker and code
 * generation far more often than one of a program that is already refused).
 */
export function seedProjects(): string[] {
  const texts: string[] = [];
  const valid = path.join(REPO_ROOT, "test/corpus/valid");
  for (const f of fs.readdirSync(valid).filter((f) => f.endsWith(".hx"))) texts.push(fs.readFileSync(path.join(valid, f), "utf8"));
  const cases = path.join(REPO_ROOT, "test/conformance");
  for (const f of fs.readdirSync(cases).filter((f) => f.endsWith(".case"))) {
    const text = fs.readFileSync(path.join(cases, f), "utf8");
    const hx = /^--- hx\n([\s\S]*?)(?=^--- )/m.exec(text);
    if (hx !== null) texts.push(hx[1]!);
  }
  for (const dir of [path.join(REPO_ROOT, "examples/social"), CAMPAIGN_PROJECT])
    texts.push(
      fs
        .readdirSync(dir)
        .filter((f) => f.endsWith(".hx"))
        .sort()
        .map((f) => fs.readFileSync(path.join(dir, f), "utf8"))
        .join("\n"),
    );
  return texts.filter((text) => compileProject([{ file: "m.hx", text }], { checkOnly: true }).ok);
}

export function mutate(text: string, random: Random): string {
  let out = text;
  // Mostly one edit, so many mutants still parse and reach the checker and code generation.
  const edits = 1 + Math.floor(random() ** 3 * 4);
  for (let i = 0; i < edits; i++) {
    const at = Math.floor(random() * out.length);
    const len = 1 + Math.floor(random() ** 2 * 40);
    switch (Math.floor(random() * 7)) {
      case 5:
      case 6: {
        // Replace one word with another of the program: still parses, so the checker meets it.
        const words = [...out.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)];
        if (words.length === 0) break;
        const target = pick(random, words);
        const start = target.index!;
        out = out.slice(0, start) + pick(random, words)[0] + out.slice(start + target[0].length);
        break;
      }
      case 0:
        out = out.slice(0, at) + out.slice(at + len);
        break;
      case 1:
        out = out.slice(0, at) + out.slice(at, at + len) + out.slice(at);
        break;
      case 2:
        out = out.slice(0, at) + pick(random, TOKENS) + out.slice(at);
        break;
      case 3:
        // Now and then repeat a token many times: deep nesting, long chains.
        out = out.slice(0, at) + pick(random, TOKENS).repeat(random() < 0.1 ? between(random, 2, 400) : 1) + out.slice(at);
        break;
      default: {
        const from = Math.floor(random() * out.length);
        out = out.slice(0, at) + out.slice(from, from + len) + out.slice(at + len);
      }
    }
  }
  return out;
}

export interface MutantOutcome {
  ok: boolean;
  diagnostics: Diagnostic[];
  /** What is wrong with the compile: empty when it answered with code or proper diagnostics. */
  problems: string[];
}

export function compileMutant(text: string, emit: boolean): MutantOutcome {
  let diagnostics: Diagnostic[];
  let ok: boolean;
  try {
    const result = compileProject([{ file: "m.hx", text }], { checkOnly: !emit });
    diagnostics = result.diagnostics;
    ok = result.ok;
    if (ok && emit && result.files.length === 0) return { ok, diagnostics, problems: ["compiled ok but emitted no files"] };
  } catch (error) {
    return { ok: false, diagnostics: [], problems: [`threw: ${(error as Error).stack ?? String(error)}`] };
  }
  const problems: string[] = [];
  for (const d of diagnostics) {
    const entry = (DIAGNOSTICS as Record<string, { internal?: true } | undefined>)[d.code];
    if (entry === undefined) problems.push(`undeclared code ${d.code}: ${d.message}`);
    else if (entry.internal === true) problems.push(`${d.code} ${d.message}`);
    const { start, end, file } = d.span;
    const inside = (p: { offset: number; line: number; column: number }): boolean =>
      p.offset >= 0 && p.offset <= text.length && p.line >= 1 && p.column >= 1;
    if (file !== "m.hx" || !inside(start) || !inside(end) || end.offset < start.offset)
      problems.push(`${d.code} has a bad span ${JSON.stringify(d.span)}`);
  }
  if (!ok && !diagnostics.some((d) => d.severity === "error")) problems.push("failed without an error diagnostic");
  return { ok, diagnostics, problems };
}

export interface HxMutantSummary {
  mutants: number;
  /** Mutants compiled; less than `mutants` only when stopped early. */
  done: number;
  seed: number;
  seedProjects: number;
  rejected: number;
  compiled: number;
  emitted: number;
  /** Distinct diagnostic codes the mutants met. */
  codes: number;
  slowestMs: number;
  findings: string[];
}

export async function runHxMutants(options: {
  mutants: number;
  seed: number;
  log?: (line: string) => void;
  stopped?: () => boolean;
}): Promise<HxMutantSummary> {
  const random = seededRandom(options.seed);
  const projects = seedProjects();
  const summary: HxMutantSummary = {
    mutants: options.mutants,
    done: 0,
    seed: options.seed,
    seedProjects: projects.length,
    rejected: 0,
    compiled: 0,
    emitted: 0,
    codes: 0,
    slowestMs: 0,
    findings: [],
  };
  const codes = new Set<string>();
  let failures = 0;
  for (let i = 0; i < options.mutants && options.stopped?.() !== true; i++) {
    summary.done = i + 1;
    const text = mutate(projects[i % projects.length]!, random);
    const emit = i % 4 === 0;
    const t0 = performance.now();
    const result = compileMutant(text, emit);
    summary.slowestMs = Math.max(summary.slowestMs, performance.now() - t0);
    if (result.problems.length > 0) {
      failures++;
      if (summary.findings.length < 20) summary.findings.push(`mutant ${i}: ${result.problems.join("; ")}\n${text}`);
    }
    for (const d of result.diagnostics) codes.add(d.code);
    if (result.ok) {
      summary.compiled++;
      if (emit) summary.emitted++;
    } else summary.rejected++;
    if ((i + 1) % 10_000 === 0) options.log?.(`${i + 1} mutants: ${summary.rejected} rejected, ${failures} findings`);
    // Let the event loop breathe between batches (logging, signals).
    if (i % 1000 === 999) await new Promise((r) => setImmediate(r));
  }
  summary.codes = codes.size;
  if (failures > summary.findings.length) summary.findings.push(`… ${failures - summary.findings.length} more`);
  summary.slowestMs = Math.round(summary.slowestMs);
  return summary;
}
