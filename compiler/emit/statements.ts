// The body of a query's `run`: its statements (`<-`, DROP, FOR) as lines of TypeScript.
import type { Ir, IrStatement } from "../ir/ir.js";
import { emitExpr, localName, propertyKey, type ExpressionContext } from "./expressions.js";

/**
 * A FOR loop's element path as the inside of a JS template literal (`items[${$i0}]`,
 * `docs[${$i0}].chunks[${$i1}]`): each loop variable maps to the path of its element, so a
 * nested loop over a member of an outer element names the whole path.
 */
type LoopPaths = ReadonlyMap<string, string>;

function iterablePath(ir: Ir, paths: LoopPaths): string | null {
  if (ir.op === "param") return ir.name;
  if (ir.op === "var") return paths.get(ir.name) ?? ir.name;
  if (ir.op === "member") {
    const base = iterablePath(ir.input, paths);
    return base === null ? null : `${base}.${ir.name}`;
  }
  return null;
}

export function emitStatements(
  statements: readonly IrStatement[],
  ctx: ExpressionContext,
  paths: LoopPaths = new Map(),
  depth = 0,
): string[] {
  const lines: string[] = [];
  for (const stmt of statements) {
    switch (stmt.kind) {
      case "let":
        lines.push(`const ${localName(stmt.name)} = ${emitExpr(stmt.value, ctx)};`);
        break;
      case "eval":
        lines.push(`${emitExpr(stmt.value, ctx)};`);
        break;
      case "drop": {
        const t = stmt.target.type;
        const text = emitExpr(stmt.target, ctx);
        const list =
          t.kind === "items" && t.card === "one"
            ? `[${text}]`
            : t.kind === "items" && t.card === "optional"
              ? `[${text}].filter((v) => v !== null)`
              : text;
        lines.push(`db.drop(${list});`);
        break;
      }
      case "for": {
        // A StrandError from an iteration names its element once (`items[1]: ...`); the innermost
        // loop's path is the whole path, so outer loops leave it as it is (QueryContext.atElement).
        const index = `$i${depth}`;
        const element = `${iterablePath(stmt.iterable, paths) ?? "element "}[\${${index}}]`;
        const inner = new Map(paths);
        if (stmt.destructure) for (const n of stmt.names) inner.set(n, `${element}.${n}`);
        else inner.set(stmt.names[0]!, element);
        const binding = stmt.destructure
          ? `{ ${stmt.names.map((n) => (localName(n) === n ? n : `${propertyKey(n)}: ${localName(n)}`)).join(", ")} }`
          : localName(stmt.names[0]!);
        // An indexed loop: no iterator or [index, element] pair per iteration on the bulk-write path.
        const array = `$a${depth}`;
        lines.push(`for (let ${index} = 0, ${array} = ${emitExpr(stmt.iterable, ctx)}; ${index} < ${array}.length; ${index}++) {`);
        lines.push(`  const ${binding} = ${array}[${index}];`);
        const body = emitStatements(stmt.body, ctx, inner, depth + 1);
        for (const name of [...stmt.names, ...boundNames(stmt.body)]) {
          if (countOccurrences(body, localName(name)) === (boundNames(stmt.body).includes(name) ? 1 : 0))
            body.push(`void ${localName(name)};`);
        }
        lines.push("  try {");
        for (const line of body) lines.push(`    ${line}`);
        lines.push("  } catch ($error) {");
        lines.push(`    throw db.atElement($error, \`${element}\`);`);
        lines.push("  }");
        lines.push("}");
        break;
      }
    }
  }
  return lines;
}

/** Names bound by `let` at this level (loop bodies handle their own). */
export function boundNames(statements: readonly IrStatement[]): string[] {
  return statements.flatMap((s) => (s.kind === "let" ? [s.name] : []));
}

/**
 * Uses of a local in generated lines. Text inside a string literal (`name: "dup"`) and an object
 * key (`{ email: params.e }`) are not uses; counting them left an unused local without its `void`.
 * (A key-like `x :` elsewhere only adds a harmless `void`.)
 */
export function countOccurrences(lines: readonly string[], name: string): number {
  const re = new RegExp(`(?<![A-Za-z0-9_$.])${name.replace(/\$/g, "\\$")}(?![A-Za-z0-9_$])(?!\\s*:)`, "g");
  return lines.reduce((n, line) => n + (line.replace(/"(?:[^"\\]|\\.)*"/g, '""').match(re)?.length ?? 0), 0);
}
