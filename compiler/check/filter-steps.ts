// Steps that test items or values: WHERE, INTERSECT, the comparisons (EQ, GT, ...) and the
// membership tests CONTAINS and IS_IN.
import type * as A from "../syntax/ast.js";
import { helixTypeName } from "../../core/schema.js";
import type { Ir } from "../ir/ir.js";
import { isNumericType } from "../ir/value-types.js";
import type { ValueType } from "../../core/schema.js";
import type { CompareOp } from "../../core/query-context.js";
import { BOOLEAN_TYPE, ID_VALUE, bad, describeStatic, value, withCard } from "./static-types.js";
import { type Checker, checkItemLambda } from "./context.js";
import { checkExpr } from "./recurse.js";
import { checkCondition } from "./demands.js";
import { planIndexConditions } from "./index-plan.js";

export const COMPARE_OPS: readonly string[] = ["EQ", "NEQ", "GT", "GTE", "LT", "LTE"];

export function checkWhere(cx: Checker, input: Ir, step: A.Step & { kind: "Call" }): Ir {
  // On items of any type the condition may read only id and label (Checker.resolveField).
  const t = cx.requireItems(input, step, "::WHERE", ["node", "edge", "vector"], true);
  if (t === null) return bad();
  if (step.args.length !== 1) {
    cx.report("E209", "WHERE takes one condition, e.g. ::WHERE(_::{age}::GT(18))", step.span);
    return bad();
  }
  // Even when the condition is wrong the output type is known, so later steps are still checked.
  const predicate = checkItemLambda(cx, t, () => checkCondition(cx, step.args[0]!.value));
  const type = withCard(t, t.card === "many" ? "many" : "optional");
  const index = planIndexConditions(cx, input, predicate);
  return index === undefined ? { op: "filter", input, predicate, type } : { op: "filter", input, predicate, index, type };
}

export function checkIntersect(cx: Checker, input: Ir, step: A.Step & { kind: "Call" }): Ir {
  const t = cx.requireItems(input, step, "::INTERSECT", ["node", "edge", "vector"]);
  if (t === null) return bad();
  if (step.args.length !== 1) {
    cx.report("E209", "INTERSECT takes one traversal from each item, e.g. ::INTERSECT(_::In<Follows>)", step.span);
    return bad();
  }
  const sub = checkItemLambda(cx, t, () => checkExpr(cx, step.args[0]!.value));
  const st = sub.body.type;
  if (st.kind === "error") return bad();
  if (st.kind !== "items") {
    cx.report("E206", `INTERSECT needs a traversal of items, but this is ${describeStatic(st)}`, step.args[0]!.span);
    return bad();
  }
  return { op: "intersect", input, sub, type: withCard(st, "many") };
}

/** `::EQ(v)` etc. on a value (or on each value of a list: true when any satisfies it). */
export function checkComparison(cx: Checker, input: Ir, step: A.Step & { kind: "Call" }, cmp: CompareOp): Ir {
  const t = input.type;
  if (t.kind !== "value" && t.kind !== "values") {
    cx.report(
      "E203",
      `::${cmp} compares a value, but its input is ${describeStatic(t)}`,
      step.name.span,
      t.kind === "items" ? "read a property first, e.g. _::{age}::GT(18)" : undefined,
    );
    return bad();
  }
  if (step.args.length !== 1) {
    cx.report("E209", `::${cmp} takes one value`, step.span);
    return bad();
  }
  const ordered = cmp !== "EQ" && cmp !== "NEQ";
  if (ordered && !orderable(t.type)) {
    cx.report("E213", `::${cmp} needs numbers, strings, dates or ids, but this is ${helixTypeName(t.type)}`, step.name.span);
    return bad();
  }
  const right = checkComparable(cx, step.args[0]!.value, t.type, `::${cmp}`);
  return { op: "compare", cmp, left: input, right, type: BOOLEAN_TYPE };
}

function orderable(t: ValueType): boolean {
  return t.kind === "scalar" && t.name !== "Boolean";
}

/** The right side of a comparison: a value comparable with `left`. */
function checkComparable(cx: Checker, expr: A.Expr, left: ValueType, what: string): Ir {
  const ir = checkExpr(cx, expr, { expected: left, fieldValue: true });
  const t = ir.type;
  if (t.kind === "error") return ir;
  if (t.kind === "items" && t.card === "one" && left.kind === "scalar" && left.name === "ID")
    return { op: "idOf", input: ir, type: value(ID_VALUE) };
  if (t.kind !== "value") {
    cx.report("E206", `${what} compares with one value, but this is ${describeStatic(t)}`, expr.span);
    return bad();
  }
  if (!comparable(left, t.type)) {
    cx.report("E213", `cannot compare ${helixTypeName(left)} with ${helixTypeName(t.type)}`, expr.span);
    return bad();
  }
  return ir;
}

function comparable(a: ValueType, b: ValueType): boolean {
  if (a.kind === "scalar" && b.kind === "scalar") {
    if (isNumericType(a) && isNumericType(b)) return true;
    const textual = (n: string): boolean => n === "String" || n === "ID" || n === "Date";
    if (textual(a.name) && textual(b.name)) return a.name === b.name || a.name === "String" || b.name === "String";
    return a.name === b.name;
  }
  return a.kind === b.kind;
}

/** `::CONTAINS(x)`: substring of a String or element of an array; `::IS_IN(list)`: element of the list. */
export function checkMembership(cx: Checker, input: Ir, step: A.Step & { kind: "Call" }, name: "CONTAINS" | "IS_IN"): Ir {
  const t = input.type;
  if (t.kind !== "value") {
    cx.report("E203", `::${name} works on a value, but its input is ${describeStatic(t)}`, step.name.span);
    return bad();
  }
  if (step.args.length !== 1) {
    cx.report("E209", `::${name} takes one value`, step.span);
    return bad();
  }
  if (name === "CONTAINS") {
    const isString = t.type.kind === "scalar" && t.type.name === "String";
    if (!isString && t.type.kind !== "array") {
      cx.report("E213", `::CONTAINS works on a String or an array, but this is ${helixTypeName(t.type)}`, step.name.span);
      return bad();
    }
    const needle = t.type.kind === "array" ? t.type.element : t.type;
    return { op: "contains", left: input, right: checkComparable(cx, step.args[0]!.value, needle, "::CONTAINS"), type: BOOLEAN_TYPE };
  }
  // An array value (`_::{scores}` with scores: [I64]) is in a list of its elements' type when any
  // of its elements is; against a list of arrays it is compared whole.
  const argument = step.args[0]!.value;
  const byElement = t.type.kind === "array" && !(argument.kind === "Array" && argument.elements.some((e) => e.kind === "Array"));
  const wanted = byElement && t.type.kind === "array" ? t.type.element : t.type;
  const list = checkExpr(cx, argument, { expected: { kind: "array", element: wanted }, fieldValue: "any" });
  const lt = list.type;
  if (lt.kind === "error") return bad();
  const element = lt.kind === "value" && lt.type.kind === "array" ? lt.type.element : lt.kind === "values" ? lt.type : null;
  if (element !== null && comparable(t.type, element))
    return { op: "isIn", left: input, right: list, anyElement: false, type: BOOLEAN_TYPE };
  if (element !== null && t.type.kind === "array" && comparable(t.type.element, element)) {
    return { op: "isIn", left: input, right: list, anyElement: true, type: BOOLEAN_TYPE };
  }
  const want =
    t.type.kind === "array"
      ? `${helixTypeName(t.type.element)} values (any element of this ${helixTypeName(t.type)} value)`
      : `${helixTypeName(t.type)} values`;
  cx.report("E206", `::IS_IN needs a list of ${want}, but this is ${describeStatic(lt)}`, argument.span);
  return bad();
}
