// `strand serve` compiles a project without loading TypeScript (issue 33 item 1): the query modules
// it runs are JavaScript the compiler writes itself (compiler/scripts.ts), so a first start no
// longer pays for ts-morph and TypeScript (seconds for a large project). Checked in a fresh Node
// process, the built one: after loadProject of the example, no module of ts-morph or TypeScript
// was loaded; `strand compile` (compileProject) still loads them.
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT, SOCIAL_EXAMPLE, tempDir } from "./support/server.js";

function loadedAfter(code: string): { typescript: boolean; queries: number } {
  const script = `
    import { createRequire } from "node:module";
    const require = createRequire(import.meta.url);
    const out = await (async () => { ${code} })();
    const typescript = Object.keys(require.cache).some((k) => /node_modules[\\\\/](ts-morph|typescript|@ts-morph)[\\\\/]/.test(k));
    console.log(JSON.stringify({ typescript, queries: out }));
  `;
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: REPO_ROOT, encoding: "utf8" });
  expect(run.stderr).toBe("");
  return JSON.parse(run.stdout) as { typescript: boolean; queries: number };
}

describe("serving without TypeScript", () => {
  it("loadProject compiles and loads the example's queries without ts-morph or TypeScript; compileProject loads them", () => {
    const cache = tempDir("strand-no-ts-");
    try {
      const dist = join(REPO_ROOT, "dist");
      expect(
        loadedAfter(
          `const { loadProject } = await import(${JSON.stringify(`${dist}/cli/project/load-project.js`)});
           return (await loadProject(${JSON.stringify(SOCIAL_EXAMPLE)}, { cacheDir: ${JSON.stringify(cache)} })).queries.length;`,
        ),
      ).toEqual({ typescript: false, queries: 22 });
      expect(
        loadedAfter(
          `const { compileProject } = await import(${JSON.stringify(`${dist}/compiler/index.js`)});
           return compileProject([{ file: "a.hx", text: "N::A { x: I64 }\\nQUERY Q() =>\\n    a <- N<A>\\n    RETURN a\\n" }]).files.length;`,
        ),
      ).toEqual({ typescript: true, queries: 5 });
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });
});
