// `queries/<Name>.js`: what `strand serve` runs of a query, JavaScript written directly (no
// TypeScript to print or strip, so serving never loads ts-morph or TypeScript): the same
// `run(db, params)` as query-module.ts's, without its types, and the QueryModule object as the
// default export. Printed as text: a query script is a handful of top-level statements.
import type { QueryIr } from "../ir/ir.js";
import type { ExpressionContext, KindLabels } from "./expressions.js";
import { queryObjectLines, runBody } from "./run-body.js";
import { GENERATED_HEADER, type GeneratedFile } from "./structures.js";

export function queryScript(query: QueryIr, labels: KindLabels): GeneratedFile {
  const ctx: ExpressionContext = { usesList: false, usedTypes: new Set(), labels, constants: new Map(), types: false };
  const body = runBody(query, ctx);
  const parts: string[] = [];
  if (ctx.usesList) parts.push("/** Zero or one item as a list. */\nfunction list(item) {\n  return item === null ? [] : [item];\n}");
  if (ctx.constants.size > 0) {
    // The initializers are written for TypeScript (`[..] as const`); the assertion is all that is TypeScript in them.
    parts.push([...ctx.constants].map(([init, name]) => `const ${name} = ${init.replace(/ as const$/, "")};`).join("\n"));
  }
  parts.push(`function run(db, params) {\n${body.map((line) => `  ${line}`).join("\n")}\n}`);
  parts.push([...queryObjectLines(query, "const query"), "export default query;"].join("\n"));
  return { path: `queries/${query.name}.js`, text: `${GENERATED_HEADER}${parts.join("\n\n")}\n` };
}
