// Expressions that are not traversals: literals, names, `a.b` members, object and array
// literals, and calls of built-in functions (AND/OR/EXISTS, math, aggregates, Embed, RerankRRF).
import type * as A from "../syntax/ast.js";
import { helixTypeName } from "../../core/schema.js";
import { closest } from "../diagnostics/diagnostic.js";
import type { Ir, IrProp } from "../ir/ir.js";
import { assignable, isIntegerType, isNumericType } from "../ir/value-types.js";
import type { ValueType } from "../../core/schema.js";
import type { CompareOp } from "../../core/query-context.js";
import { AGGREGATE_FNS, INTEGER_PRESERVING, INTEGER_RESULT, MATH_ARITY, isMathFn, type AggregateFn } from "../../core/functions.js";
import { BOOLEAN_TYPE, COUNT_TYPE, F64_VALUE, STRING_VALUE, VECTOR_VALUE, bad, describeStatic, value } from "./static-types.js";
import type { Checker, ExprOptions } from "./context.js";
import { checkExpr, checkTraversal } from "./recurse.js";
import { inferParam } from "./infer-params.js";
import { checkIdent, checkLiteral } from "./leaves.js";
import { checkCondition, checkNumber, checkValueFor } from "./demands.js";
import { checkRerankRRF } from "./search.js";

/** Sources written without their type argument parse as calls. */
const SOURCE_NAMES = ["AddN", "AddE", "AddV", "UpsertN", "UpsertE", "UpsertV", "SearchV", "SearchBM25"];

const CALLS = [
  "AND",
  "OR",
  "EXISTS",
  "Embed",
  "RerankRRF",
  "EQ",
  "NEQ",
  "GT",
  "GTE",
  "LT",
  "LTE",
  ...Object.keys(MATH_ARITY),
  ...AGGREGATE_FNS,
];

/** The implementation behind checkExpr (recurse.ts); other modules call that. */
export function checkExpression(cx: Checker, expr: A.Expr, options: ExprOptions = {}): Ir {
  switch (expr.kind) {
    case "Traversal":
      return checkTraversal(cx, expr, options.fieldValue ?? false);
    case "Ident":
      if (cx.offered !== null && cx.lookup(expr.name) === undefined && cx.offered.has(expr.name)) {
        return inferParam(cx, expr.name, expr.span, options.expected ?? null);
      }
      return checkIdent(cx, expr.name, expr.span);
    case "Literal":
      return checkLiteral(cx, expr.literal, options.expected ?? null);
    case "Member":
      return checkMember(cx, expr);
    case "Object":
      return checkObjectLiteral(cx, expr);
    case "Array":
      return checkArrayLiteral(cx, expr, options.expected ?? null);
    case "Not":
      return { op: "not", operand: checkCondition(cx, expr.operand), type: BOOLEAN_TYPE };
    case "Call":
      return checkCall(cx, expr);
  }
}

function checkMember(cx: Checker, expr: A.Expr & { kind: "Member" }): Ir {
  const input = checkExpr(cx, expr.object);
  const t = input.type;
  if (t.kind === "error") return bad();
  const name = expr.property.name;
  if (t.kind === "value" && t.type.kind === "object") {
    const field = t.type.fields.find((f) => f.name === name);
    if (field === undefined) {
      const guess = closest(
        name,
        t.type.fields.map((f) => f.name),
      );
      cx.report(
        "E110",
        `unknown field '${name}' in ${helixTypeName(t.type)}`,
        expr.property.span,
        guess !== undefined ? `did you mean '${guess}'?` : undefined,
      );
      return bad();
    }
    return { op: "member", input, name, type: value(field.type, field.optional || t.nullable === true) };
  }
  if (t.kind === "items" && t.card !== "many") {
    const field = cx.resolveField(t.item, t.label, expr.property);
    if (field === null) return bad();
    return { op: "prop", input, name: field.name, type: value(field.type, field.default === null || t.card === "optional") };
  }
  cx.report(
    "E206",
    `'.${name}' reads a field of an object, but this is ${describeStatic(t)}`,
    expr.property.span,
    t.kind === "items" ? "use ::{field} to read a property of several items" : undefined,
  );
  return bad();
}

function checkObjectLiteral(cx: Checker, expr: A.Expr & { kind: "Object" }): Ir {
  const entries: IrProp[] = [];
  const seen = new Set<string>();
  for (const entry of expr.entries) {
    if (seen.has(entry.key.name)) {
      cx.report("E105", `member '${entry.key.name}' is given twice`, entry.key.span);
      continue;
    }
    seen.add(entry.key.name);
    entries.push({ name: entry.key.name, value: checkExpr(cx, entry.value, { fieldValue: true }) });
  }
  return {
    op: "objectLit",
    entries,
    type: { kind: "object", card: "one", fields: entries.map((e) => ({ name: e.name, type: e.value.type })) },
  };
}

function checkArrayLiteral(cx: Checker, expr: A.Expr & { kind: "Array" }, expected: ValueType | null): Ir {
  const element = expected?.kind === "array" ? expected.element : null;
  const elements = expr.elements.map((e) => checkExpr(cx, e, { expected: element }));
  if (elements.some((e) => e.type.kind === "error")) return bad();
  // An array of plain values of one type is a value of array type (a vector literal, an IS_IN list).
  const types = elements.map((e) => (e.type.kind === "value" ? e.type.type : null));
  if (types.every((t) => t !== null)) {
    const first = element ?? types[0] ?? F64_VALUE;
    const numeric = types.every((t) => isNumericType(t!));
    const elementType: ValueType = element ?? (numeric && types.some((t) => !isIntegerType(t!)) ? F64_VALUE : first);
    if (types.every((t) => assignable(t!, elementType)))
      return { op: "arrayLit", elements, type: value({ kind: "array", element: elementType }) };
  }
  return { op: "arrayLit", elements, type: { kind: "array", elements: elements.map((e) => e.type) } };
}

function checkCall(cx: Checker, expr: A.Expr & { kind: "Call" }): Ir {
  const name = expr.callee.name;
  const named = expr.args.find((a) => a.name !== null && name !== "RerankRRF");
  if (named !== undefined) {
    cx.report("E209", `${name} takes no named arguments`, named.span);
    return bad();
  }
  switch (name) {
    case "AND":
    case "OR":
      if (expr.args.length < 1) {
        cx.report("E209", `${name} needs at least one condition`, expr.span);
        return bad();
      }
      return {
        op: "logic",
        kind: name === "AND" ? "and" : "or",
        args: expr.args.map((a) => checkCondition(cx, a.value)),
        type: BOOLEAN_TYPE,
      };
    case "EXISTS": {
      if (expr.args.length !== 1) {
        cx.report("E209", "EXISTS takes one traversal, e.g. EXISTS(_::Out<Follows>)", expr.span);
        return bad();
      }
      const input = checkExpr(cx, expr.args[0]!.value);
      if (input.type.kind === "error") return bad();
      if (input.type.kind !== "items" && input.type.kind !== "values") {
        cx.report("E206", `EXISTS needs a traversal of items, but this is ${describeStatic(input.type)}`, expr.args[0]!.span);
        return bad();
      }
      return { op: "exists", input, type: BOOLEAN_TYPE };
    }
    case "Embed": {
      if (expr.args.length !== 1) {
        cx.report("E209", "Embed takes one text, e.g. Embed(question)", expr.span);
        return bad();
      }
      const text = checkValueFor(cx, expr.args[0]!.value, STRING_VALUE, "the text to embed", true);
      return { op: "embed", text, model: null, type: value(VECTOR_VALUE) };
    }
    case "RerankRRF":
      return checkRerankRRF(cx, expr.args, null, expr.span);
    case "EQ":
    case "NEQ":
    case "GT":
    case "GTE":
    case "LT":
    case "LTE":
      return checkCompareCall(cx, expr, name);
  }
  if (expr.args.length === 1 && (AGGREGATE_FNS as readonly string[]).includes(name)) {
    const arg = checkExpr(cx, expr.args[0]!.value, { fieldValue: "any" });
    if (arg.type.kind !== "error" || name === "COUNT") {
      const agg = aggregate(cx, name as AggregateFn, arg, expr.args[0]!.span);
      if (agg !== null) return agg;
      if (name !== "MIN" && name !== "MAX") return bad();
    } else return bad();
  }
  if (isMathFn(name)) {
    const arity = MATH_ARITY[name];
    if ((name === "MIN" || name === "MAX") && expr.args.length === 1) {
      cx.report("E206", `${name} takes two numbers, or one list of numbers such as ${name}(_::Out<Rated>::{stars})`, expr.args[0]!.span);
      return bad();
    }
    if (expr.args.length !== arity) {
      cx.report("E209", `${name} takes ${arity} argument${arity === 1 ? "" : "s"}, found ${expr.args.length}`, expr.span);
      return bad();
    }
    const args = expr.args.map((a) => checkNumber(cx, a.value, `argument of ${name}`));
    if (args.some((a) => a.type.kind === "error")) return bad();
    const allIntegers = args.every((a) => a.type.kind === "value" && isIntegerType(a.type.type));
    const integer = INTEGER_RESULT.has(name) || (INTEGER_PRESERVING.has(name) && allIntegers && args.length > 0);
    return { op: "math", fn: name, args, type: value(integer ? { kind: "scalar", name: "I64" } : F64_VALUE) };
  }
  if (SOURCE_NAMES.includes(name)) {
    cx.report("E209", `${name} needs a type argument`, expr.callee.span, `write ${name}<Type>(..)`);
    return bad();
  }
  const guess = closest(name, CALLS);
  cx.report("E902", `unknown function '${name}'`, expr.callee.span, guess !== undefined ? `did you mean '${guess}'?` : undefined);
  return bad();
}

/** `GT(a, b)`: the function form of `a::GT(b)`, for values that are not traversals (math results). */
function checkCompareCall(cx: Checker, expr: A.Expr & { kind: "Call" }, cmp: CompareOp): Ir {
  if (expr.args.length !== 2) {
    cx.report("E209", `${cmp} takes two values, e.g. ${cmp}(DIV(_::{pop}, _::{area}), 100)`, expr.span);
    return bad();
  }
  const left = checkExpr(cx, expr.args[0]!.value, { fieldValue: true });
  if (left.type.kind === "error") return bad();
  if (left.type.kind !== "value") {
    cx.report("E206", `${cmp} compares values, but this is ${describeStatic(left.type)}`, expr.args[0]!.span);
    return bad();
  }
  const right = checkValueFor(cx, expr.args[1]!.value, left.type.type, `the right side of ${cmp}`);
  return { op: "compare", cmp, left, right, type: BOOLEAN_TYPE };
}

/** SUM/AVG/MIN/MAX/COUNT over a list of values (or COUNT over items); null when `arg` is not a list. */
function aggregate(cx: Checker, fn: AggregateFn, input: Ir, span: A.Span): Ir | null {
  let arg = input;
  // A saved one-field projection (`tokens <- ..::{n}` then `SUM(tokens)`) aggregates that field.
  if (arg.type.kind === "object" && arg.type.card === "many" && arg.type.fields.length === 1 && arg.type.base === undefined) {
    const only = arg.type.fields[0]!;
    if (only.type.kind === "value") arg = { op: "pluck", input: arg, name: only.name, type: { kind: "values", type: only.type.type } };
  }
  const t = arg.type;
  if (fn === "COUNT" && (t.kind === "items" || t.kind === "values")) return { op: "count", input: arg, type: COUNT_TYPE };
  // An array field of one item (`AVG(_::{scores})` with scores: [I64]) is a list of its elements.
  if (t.kind === "value" && t.type.kind === "array") {
    const element = t.type.element;
    if (!isNumericType(element) && fn !== "COUNT") {
      cx.report("E214", `${fn} needs numbers, but this array holds ${helixTypeName(element)} values`, span);
      return null;
    }
    const integer = fn === "COUNT" || ((fn === "SUM" || fn === "MIN" || fn === "MAX") && isIntegerType(element));
    return {
      op: "aggregate",
      fn,
      input: arg,
      type: value(integer ? { kind: "scalar", name: "I64" } : F64_VALUE, fn !== "COUNT" && fn !== "SUM"),
    };
  }
  if (t.kind !== "values") {
    if (fn === "MIN" || fn === "MAX") return null;
    cx.report("E206", `${fn} needs a list of numbers, e.g. ${fn}(_::Out<Rated>::{stars}), but this is ${describeStatic(t)}`, span);
    return null;
  }
  if (!isNumericType(t.type)) {
    cx.report("E214", `${fn} needs numbers, but the list holds ${helixTypeName(t.type)} values`, span);
    return null;
  }
  const integer = fn === "COUNT" || ((fn === "SUM" || fn === "MIN" || fn === "MAX") && isIntegerType(t.type));
  return {
    op: "aggregate",
    fn,
    input: arg,
    type: value(integer ? { kind: "scalar", name: "I64" } : F64_VALUE, fn !== "COUNT" && fn !== "SUM"),
  };
}
