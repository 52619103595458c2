// `strand check [dir]`: diagnostics with source snippets on stderr; exit 1 on any error.
import { compileDir, countErrors } from "../project/compile-dir.js";
import { bm25Origin, readProjectConfig } from "../project/project-setup.js";

export function runCheck(dir: string): number {
  const setup = readProjectConfig(dir);
  if (setup === null) return 1;
  const { config } = setup;
  const compiled = compileDir(setup.sources, { checkOnly: true, bm25: config.bm25, bm25Origin: bm25Origin(config), mcp: config.mcp });
  if (compiled.report !== "") process.stderr.write(`${compiled.report}\n`);
  if (!compiled.ok) {
    const errors = Math.max(1, countErrors(compiled.result.diagnostics));
    process.stderr.write(`${errors} error${errors === 1 ? "" : "s"}\n`);
    return 1;
  }
  const schema = compiled.result.schema;
  const types = schema === null ? 0 : schema.nodes.length + schema.vectors.length + schema.edges.length;
  process.stdout.write(`ok: ${compiled.result.queries.length} queries, ${types} types\n`);
  return 0;
}
