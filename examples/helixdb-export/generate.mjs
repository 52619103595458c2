#!/usr/bin/env node
// Writes the HelixQL export queries for a HelixDB v2 project, and the plan export.mjs follows.
//
//   node examples/helixdb-export/generate.mjs <folder of your .hx files> [--hx FILE] [--plan FILE]
//
// It reads the schema of every *.hx file in the folder (HelixDB's default: db/) with Strand's own
// parser and schema checker (from this checkout's dist/: run `npm run build` first); the queries in
// those files are ignored, so HelixQL Strand does not accept there does not matter. Per node,
// vector and edge type it writes one paged query, `StrandExport<N|V|E>_<Type>(start, end)`, to
// <folder>/strand-export.hx (--hx), and the list of types, their fields in declaration order and
// their queries to ./strand-export.json (--plan). Deploy the .hx file with your HelixDB project,
// then run export.mjs against the running instance.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const GENERATED_HX = "strand-export.hx";
const DEFAULT_PLAN = "strand-export.json";

/** The export queries (HelixQL text) and the plan for a schema descriptor. */
export function exportQueries(schema) {
  const types = [
    ...schema.nodes.map((t) => ({ kind: "N", label: t.name, fields: t.fields.map((f) => f.name) })),
    ...schema.vectors.map((t) => ({ kind: "V", label: t.name, fields: t.fields.map((f) => f.name) })),
    // Edges last: an importer needs their end nodes first.
    ...schema.edges.map((t) => ({ kind: "E", label: t.name, fields: t.fields.map((f) => f.name) })),
  ].map(({ kind, label, fields }) => ({ kind, label, query: `StrandExport${kind}_${label}`, fields }));
  const header = [
    "// Export queries for moving this project's data to Strand, generated from its schema by",
    "// Strand's examples/helixdb-export/generate.mjs: deploy them with the project, then run export.mjs.",
    "// Each returns the records of one type from `start` (inclusive) to `end` (exclusive).",
  ];
  const queries = types.map((t) =>
    [`QUERY ${t.query}(start: U32, end: U32) =>`, `    items <- ${t.kind}<${t.label}>::RANGE(start, end)`, "    RETURN items"].join("\n"),
  );
  const hx = `${header.join("\n")}\n\n${queries.join("\n\n")}\n`;
  const plan = { format: "strand-helixdb-export", version: 1, types };
  return { hx, plan };
}

/** The schema items of the folder's .hx files (queries left out), compiled by Strand's compiler. */
export async function readSchema(dir, compilerDir) {
  const { parseSource } = await import(pathUrl(path.join(compilerDir, "syntax/parser.js")));
  const { compileProject, formatDiagnostic } = await import(pathUrl(path.join(compilerDir, "index.js")));
  if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) throw new Error(`${dir} is not a folder`);
  const files = fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(".hx") && name !== GENERATED_HX)
    .sort();
  if (files.length === 0) throw new Error(`no .hx files in ${dir}`);
  const sources = [];
  for (const name of files) {
    const file = path.join(dir, name);
    const text = fs.readFileSync(file, "utf8");
    const parsed = parseSource(text, file);
    if (parsed.ast === null) throw new Error(parsed.diagnostics.map((d) => formatDiagnostic(d, new Map([[file, text]]))).join("\n"));
    // Keep each schema item's text where it stands (blank lines elsewhere keep line numbers right).
    let kept = text.replace(/[^\n]/g, " ");
    for (const item of parsed.ast.items) {
      if (item.kind === "Query") continue;
      const { start, end } = item.span;
      kept = kept.slice(0, start.offset) + text.slice(start.offset, end.offset) + kept.slice(end.offset);
    }
    sources.push({ file, text: kept });
  }
  const result = compileProject(sources, { checkOnly: true });
  if (result.schema === null) {
    const byFile = new Map(sources.map((s) => [s.file, s.text]));
    throw new Error(result.diagnostics.map((d) => formatDiagnostic(d, byFile)).join("\n"));
  }
  return result.schema;
}

function pathUrl(file) {
  return pathToFileURL(path.resolve(file)).href;
}

async function main() {
  const { values, positionals } = parseArgs({
    options: { hx: { type: "string" }, plan: { type: "string" }, compiler: { type: "string" } },
    allowPositionals: true,
  });
  if (positionals.length !== 1) {
    process.stderr.write("usage: node generate.mjs <folder of .hx files> [--hx FILE] [--plan FILE]\n");
    return 2;
  }
  const dir = positionals[0];
  const compilerDir = values.compiler ?? path.join(path.dirname(fileURLToPath(import.meta.url)), "../../dist/compiler");
  if (!fs.existsSync(path.join(compilerDir, "index.js"))) {
    process.stderr.write(`generate.mjs: Strand's compiler is not built (${compilerDir}); run \`npm run build\` in the Strand checkout\n`);
    return 1;
  }
  let schema;
  try {
    schema = await readSchema(dir, compilerDir);
  } catch (error) {
    process.stderr.write(`generate.mjs: ${error.message}\n`);
    return 1;
  }
  const { hx, plan } = exportQueries(schema);
  const hxFile = values.hx ?? path.join(dir, GENERATED_HX);
  const planFile = values.plan ?? DEFAULT_PLAN;
  fs.writeFileSync(hxFile, hx);
  fs.writeFileSync(planFile, `${JSON.stringify(plan, null, 2)}\n`);
  process.stdout.write(`wrote ${plan.types.length} export queries to ${hxFile} and the plan to ${planFile}\n`);
  return 0;
}

if (process.argv[1] !== undefined && fs.realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().then((code) => {
    process.exitCode = code;
  });
}
