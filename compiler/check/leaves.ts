// The leaves of expressions: names (parameters and variables) and literals.
import type * as A from "../syntax/ast.js";
import { closest } from "../diagnostics/diagnostic.js";
import { ANY_LABEL, type Ir } from "../ir/ir.js";
import { literalFitsType, numberLiteralProblem } from "../ir/value-types.js";
import type { ValueType } from "../../core/schema.js";
import { STRING_VALUE, bad, value } from "./static-types.js";
import type { Checker } from "./context.js";

export function checkIdent(cx: Checker, name: string, span: A.Span): Ir {
  const binding = cx.lookup(name);
  if (binding === undefined) {
    // An ad-hoc body's parameters are names it may mean too (infer-params.ts).
    const guess = closest(name, [...cx.visibleNames(), ...(cx.offered?.keys() ?? [])]);
    const field = fieldOfItem(cx, name);
    cx.report(
      "E120",
      `'${name}' is not a parameter or variable of query '${cx.query.name.name}'`,
      span,
      field !== null
        ? `'${name}' is a field of ${field}: read it from the item as _::{${name}}`
        : guess !== undefined
          ? `did you mean '${guess}'?`
          : undefined,
    );
    return bad();
  }
  if (binding.kind === "param") return { op: "param", name, optional: binding.optional, type: value(binding.type, binding.optional) };
  binding.used = true;
  return { op: "var", name, type: binding.type };
}

export function checkLiteral(cx: Checker, literal: A.Literal, expected: ValueType | null): Ir {
  if (literal.kind === "Now") return { op: "now", type: value({ kind: "scalar", name: "Date" }) };
  if (expected !== null) {
    const fit = literalFitsType(literal, expected);
    if (!fit.ok) {
      cx.report("E201", fit.message, literal.span);
      return bad();
    }
    return { op: "literal", value: fit.value, type: value(expected, fit.value === null) };
  }
  switch (literal.kind) {
    case "String":
      return { op: "literal", value: literal.value, type: value(STRING_VALUE) };
    case "Number": {
      const problem = numberLiteralProblem(literal);
      if (problem !== null) {
        cx.report("E201", problem, literal.span);
        return bad();
      }
      return { op: "literal", value: literal.value, type: value({ kind: "scalar", name: literal.isFloat ? "F64" : "I64" }) };
    }
    case "Boolean":
      return { op: "literal", value: literal.value, type: value({ kind: "scalar", name: "Boolean" }) };
    case "None":
      return { op: "literal", value: null, type: { kind: "value", type: STRING_VALUE, nullable: true } };
  }
}

/** The type of the item `_` stands for when it has a field `name` (a bare field name in ORDER, WHERE ..), else null. */
function fieldOfItem(cx: Checker, name: string): string | null {
  const t = cx.anon[cx.anon.length - 1];
  if (t === undefined || t.kind !== "items" || t.label === ANY_LABEL) return null;
  return cx.fieldsOf(t.item, t.label).some((f) => f.name === name) ? t.label : null;
}
