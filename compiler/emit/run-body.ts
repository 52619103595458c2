// The body of a query's `run(db, params)`, as lines: its statements, then its RETURN; and the
// QueryModule object around it. Shared by the TypeScript module (query-module.ts) and the
// JavaScript one (query-script.ts); `ctx.types` says which the expressions are written in.
import type { QueryIr } from "../ir/ir.js";
import { emitExpr, localName, propertyKey, type ExpressionContext } from "./expressions.js";
import { boundNames, countOccurrences, emitStatements } from "./statements.js";

export function runBody(query: QueryIr, ctx: ExpressionContext): string[] {
  const lines = emitStatements(query.statements, ctx);
  if (query.params.length === 0) lines.unshift("void params;");
  // Variables bound but never used are still evaluated (they may write); keep tsc quiet about them.
  const returnText =
    query.returns === null
      ? ""
      : query.returns.kind === "value"
        ? emitExpr(query.returns.value, ctx)
        : query.returns.members.map((r) => emitExpr(r.value, ctx)).join("\n");
  for (const name of boundNames(query.statements)) {
    if (countOccurrences([...lines, returnText], localName(name)) <= 1) lines.push(`void ${localName(name)};`);
  }
  if (query.returns === null) {
    lines.push("return null;");
  } else if (query.returns.kind === "value") {
    lines.push(`return ${returnText};`);
  } else {
    const parts = query.returns.members.map((r) => {
      const value = emitExpr(r.value, ctx);
      return value === r.key ? value : `${propertyKey(r.key)}: ${value}`;
    });
    lines.push(`return { ${parts.join(", ")} };`);
  }
  return lines;
}

/** `const query = { name, params, writes, mcp, returns, run };` as lines, `declaration` its first words. */
export function queryObjectLines(query: QueryIr, declaration: string): string[] {
  return [
    `${declaration} = {`,
    `  name: ${JSON.stringify(query.name)},`,
    `  params: ${JSON.stringify(query.params)},`,
    `  writes: ${query.writes},`,
    `  mcp: ${query.mcp},`,
    `  returns: ${JSON.stringify(query.returns?.kind === "members" ? query.returns.members.map((r) => r.key) : [])},`,
    "  run,",
    "};",
  ];
}
