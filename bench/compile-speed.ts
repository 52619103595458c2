// How long `compileProject` takes (what `strand serve` and `strand compile` wait for): the bundled
// example, and the same queries repeated under new names to show how it scales. The first call in
// a process also pays for loading TypeScript (ts-morph); the median is over warm runs.
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { compileProject, type SourceText } from "../compiler/index.js";

export interface CompileTiming {
  queries: number;
  files: number;
  firstMs: number;
  medianMs: number;
}

const EXAMPLE = resolve(import.meta.dirname, "../../examples/social");

function exampleSources(copies: number): SourceText[] {
  const read = (name: string): string => readFileSync(join(EXAMPLE, name), "utf8");
  const names = readdirSync(EXAMPLE)
    .filter((n) => n.endsWith(".hx"))
    .sort();
  const schema = names.filter((n) => n.includes("schema")).map((n) => ({ file: n, text: read(n) }));
  const queries = names
    .filter((n) => !n.includes("schema"))
    .map(read)
    .join("\n");
  const copiesText = Array.from({ length: copies }, (_, i) => (i === 0 ? queries : queries.replace(/QUERY (\w+)\(/g, `QUERY $1_${i}(`)));
  return [...schema, { file: "queries.hx", text: copiesText.join("\n") }];
}

export function benchCompile(copies: readonly number[] = [1, 10], warmRuns = 7): CompileTiming[] {
  return copies.map((n) => {
    const sources = exampleSources(n);
    const times: number[] = [];
    let queries = 0;
    let files = 0;
    for (let run = 0; run <= warmRuns; run++) {
      const t0 = performance.now();
      const result = compileProject(sources);
      times.push(performance.now() - t0);
      if (!result.ok) throw new Error(`the example does not compile: ${result.diagnostics.map((d) => d.message).join("; ")}`);
      queries = result.queries.length;
      files = result.files.length;
    }
    const warm = times.slice(1).sort((a, b) => a - b);
    return { queries, files, firstMs: times[0]!, medianMs: warm[Math.floor(warm.length / 2)]! };
  });
}

export function renderCompile(timings: readonly CompileTiming[]): string {
  const lines = ["compile (compileProject: parse, check, emit TypeScript)   queries   files   first ms   median ms (warm)"];
  for (const t of timings) {
    lines.push(
      `${"".padEnd(56)}${String(t.queries).padStart(9)}${String(t.files).padStart(8)}${t.firstMs.toFixed(0).padStart(11)}${t.medianMs.toFixed(0).padStart(12)}`,
    );
  }
  return lines.join("\n");
}
