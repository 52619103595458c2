// Expressions that are not traversals: literals, names, `a.b` members, object and array
// literals, and calls of built-in functions (AND/OR/EXISTS, math, aggregates, Embed, RerankRRF).
// Also the helpers every checker uses to demand a value of a given type (an id, an integer, a
// condition, a number).
import type * as A from "../syntax/ast.js";
import { closest } from "../diagnostics/diagnostic.js";
import { ANY_LABEL, ITEM_LETTER, type AbsentNote, type Ir, type IrProp } from "../ir/ir.js";
import { assignable, describeValueType, f32LiteralProblem, isIntegerType, isNumericType, literalFitsType, numberLiteralProblem } from "../ir/value-types.js";
import type { ValueType } from "../../core/schema.js";
import type { CompareOp } from "../../core/query-context.js";
import { AGGREGATE_FNS, INTEGER_PRESERVING, INTEGER_RESULT, MATH_ARITY, isMathFn, type AggregateFn } from "../../core/functions.js";
import {
  BOOLEAN_TYPE,
  COUNT_TYPE,
  Checker,
  F64_VALUE,
  ID_VALUE,
  STRING_VALUE,
  VECTOR_VALUE,
  bad,
  describeStatic,
  value,
} from "./checker.js";
import { checkTraversal } from "./steps.js";
import { checkRerankRRF } from "./search.js";

export interface ExprOptions {
  /** the type the context expects (a field's type, a parameter's), used to type literals */
  expected?: ValueType | null;
  /**
   * A single-field projection `x::{f}` at the end yields f itself (not `{f: ..}`): `true` for the
   * value of an object member when x is one item; `"any"` also for a list (aggregate arguments).
   */
  fieldValue?: boolean | "any";
}

/** Sources written without their type argument parse as calls. */
const SOURCE_NAMES = ["AddN", "AddE", "AddV", "UpsertN", "UpsertE", "UpsertV", "SearchV", "SearchBM25"];

const CALLS = ["AND", "OR", "EXISTS", "Embed", "RerankRRF", "EQ", "NEQ", "GT", "GTE", "LT", "LTE", ...Object.keys(MATH_ARITY), ...AGGREGATE_FNS];

export function checkExpr(cx: Checker, expr: A.Expr, options: ExprOptions = {}): Ir {
  switch (expr.kind) {
    case "Traversal":
      return checkTraversal(cx, expr, options.fieldValue ?? false);
    case "Ident":
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

export function checkIdent(cx: Checker, name: string, span: A.Span): Ir {
  const binding = cx.lookup(name);
  if (binding === undefined) {
    const guess = closest(name, cx.visibleNames());
    cx.report("E120", `'${name}' is not a parameter or variable of query '${cx.query.name.name}'`, span, guess !== undefined ? `did you mean '${guess}'?` : undefined);
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

function checkMember(cx: Checker, expr: A.Expr & { kind: "Member" }): Ir {
  const input = checkExpr(cx, expr.object);
  const t = input.type;
  if (t.kind === "error") return bad();
  const name = expr.property.name;
  if (t.kind === "value" && t.type.kind === "object") {
    const field = t.type.fields.find((f) => f.name === name);
    if (field === undefined) {
      const guess = closest(name, t.type.fields.map((f) => f.name));
      cx.report("E110", `unknown field '${name}' in ${describeValueType(t.type)}`, expr.property.span, guess !== undefined ? `did you mean '${guess}'?` : undefined);
      return bad();
    }
    return { op: "member", input, name, type: value(field.type, field.optional || t.nullable === true) };
  }
  if (t.kind === "items" && t.card !== "many") {
    const field = cx.resolveField(t.item, t.label, expr.property);
    if (field === null) return bad();
    return { op: "prop", input, name: field.name, type: value(field.type, field.default === null || t.card === "optional") };
  }
  cx.report("E206", `'.${name}' reads a field of an object, but this is ${describeStatic(t)}`, expr.property.span, t.kind === "items" ? "use ::{field} to read a property of several items" : undefined);
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
  return { op: "objectLit", entries, type: { kind: "object", card: "one", fields: entries.map((e) => ({ name: e.name, type: e.value.type })) } };
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
    if (types.every((t) => assignable(t!, elementType))) return { op: "arrayLit", elements, type: value({ kind: "array", element: elementType }) };
  }
  return { op: "arrayLit", elements, type: { kind: "array", elements: elements.map((e) => e.type) } };
}

// ---------------------------------------------------------------- calls

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
      return { op: "logic", kind: name === "AND" ? "and" : "or", args: expr.args.map((a) => checkCondition(cx, a.value)), type: BOOLEAN_TYPE };
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
      cx.report("E214", `${fn} needs numbers, but this array holds ${describeValueType(element)} values`, span);
      return null;
    }
    const integer = fn === "COUNT" || ((fn === "SUM" || fn === "MIN" || fn === "MAX") && isIntegerType(element));
    return { op: "aggregate", fn, input: arg, type: value(integer ? { kind: "scalar", name: "I64" } : F64_VALUE, fn !== "COUNT" && fn !== "SUM") };
  }
  if (t.kind !== "values") {
    if (fn === "MIN" || fn === "MAX") return null;
    cx.report("E206", `${fn} needs a list of numbers, e.g. ${fn}(_::Out<Rated>::{stars}), but this is ${describeStatic(t)}`, span);
    return null;
  }
  if (!isNumericType(t.type)) {
    cx.report("E214", `${fn} needs numbers, but the list holds ${describeValueType(t.type)} values`, span);
    return null;
  }
  const integer = fn === "COUNT" || ((fn === "SUM" || fn === "MIN" || fn === "MAX") && isIntegerType(t.type));
  return { op: "aggregate", fn, input: arg, type: value(integer ? { kind: "scalar", name: "I64" } : F64_VALUE, fn !== "COUNT" && fn !== "SUM") };
}

// ---------------------------------------------------------------- demanded values

/** A condition: an expression of boolean type. */
export function checkCondition(cx: Checker, expr: A.Expr): Ir {
  const ir = checkExpr(cx, expr, { fieldValue: true });
  if (ir.type.kind === "error" || ir.type.kind === "boolean") return ir;
  if (ir.type.kind === "value" && ir.type.type.kind === "scalar" && ir.type.type.name === "Boolean") {
    // A Boolean field may be absent: only true passes.
    if (ir.type.nullable !== true) return ir;
    return { op: "compare", cmp: "EQ", left: ir, right: { op: "literal", value: true, type: value(ir.type.type) }, type: BOOLEAN_TYPE };
  }
  cx.report("E212", `expected a condition, but this is ${describeStatic(ir.type)}`, expr.span, "compare it, e.g. _::{age}::GT(18), or test a traversal with EXISTS(..)");
  return bad();
}

/** A number (math arguments, weights). */
export function checkNumber(cx: Checker, expr: A.Expr, what: string): Ir {
  const ir = checkExpr(cx, expr, { fieldValue: true });
  if (ir.type.kind === "error") return ir;
  if (ir.type.kind === "value" && isNumericType(ir.type.type)) return ir;
  cx.report("E214", `${what} must be a number, but this is ${describeStatic(ir.type)}`, expr.span);
  return bad();
}

/**
 * A value written into a field or compared with one. `required`: an optional parameter (which
 * may be absent) is refused, as where a missing value has no meaning (a search text, a lookup).
 */
export function checkValueFor(cx: Checker, expr: A.Expr, type: ValueType, what: string, required = false): Ir {
  const ir = checkExpr(cx, expr, { expected: type, fieldValue: true });
  const t = ir.type;
  if (t.kind === "error") return ir;
  if (required && ir.op === "param" && ir.optional) return cx.requiredHere(ir.name, expr.span, what);
  if (t.kind === "value") {
    // Computed numbers (math, aggregates) are checked at run time when written to an integer field.
    const computed = ir.op === "math" || ir.op === "aggregate" || ir.op === "count";
    if (!assignable(t.type, type) && !(computed && isNumericType(t.type) && isNumericType(type))) {
      cx.report("E206", `${what} is ${describeValueType(type)}, but this is ${describeValueType(t.type)}`, expr.span);
      return bad();
    }
    return ir;
  }
  if (t.kind === "items" && t.card === "one" && type.kind === "scalar" && type.name === "ID") return { op: "idOf", input: ir, type: value(ID_VALUE) };
  if (t.kind === "values" && type.kind === "array" && assignable(t.type, type.element)) return ir;
  cx.report("E206", `${what} is ${describeValueType(type)}, but this is ${describeStatic(t)}`, expr.span);
  return bad();
}

/**
 * An expression that names one item: an ID parameter, a string literal, or a single item.
 * `place` names the position in messages (`AddE<Knows>::To`, `N<Person>`): a zero-or-one item
 * that turns out absent is a 404 saying which variable was empty and what it looked up.
 */
export function checkIdExpr(cx: Checker, expr: A.Expr, place: string, expectedLabel?: string): Ir {
  if (expr.kind === "Literal") return checkLiteral(cx, expr.literal, ID_VALUE);
  const ir = checkExpr(cx, expr, { fieldValue: true });
  const t = ir.type;
  if (t.kind === "error") return ir;
  if (ir.op === "param" && ir.optional) return cx.requiredHere(ir.name, expr.span, "an id");
  // `x::ID` of a zero-or-one item names what `x` names: the item's id, or a 404 when it is absent.
  if (ir.op === "idOf" && ir.absent === undefined && ir.input.type.kind === "items" && ir.input.type.card === "optional") {
    return checkItemAsId(cx, ir.input, expr, place, expectedLabel);
  }
  if (t.kind === "value" && t.nullable === true) {
    cx.report("E206", "this value may be absent, so it cannot name an item", expr.span, absentValueHint(ir));
    return bad();
  }
  if (t.kind === "value" && t.type.kind === "scalar" && (t.type.name === "ID" || t.type.name === "String")) return ir;
  if (t.kind === "items" && t.card !== "many") return checkItemAsId(cx, ir, expr, place, expectedLabel);
  cx.report("E206", `expected an ID or a single item, found ${describeStatic(t)}`, expr.span, t.kind === "items" ? "add ::FIRST to pick one item" : undefined);
  return bad();
}

/** Why a value may be absent, and what to do, for the E206 of an id position; undefined when there is nothing to suggest. */
function absentValueHint(ir: Ir): string | undefined {
  const from = ir.op === "member" || ir.op === "prop" ? ir.input.type : null;
  if (from !== null && (from.kind === "items" || from.kind === "object") && from.card === "optional") {
    return "it is a field of an item that may be absent";
  }
  if (from !== null && from.kind === "value" && from.nullable === true) return "it is read from an object that may be absent";
  if (ir.op === "member") return `declare the field '${ir.name}' without '?'`;
  if (ir.op === "prop") return `'${ir.name}' has no DEFAULT, so a record may lack it; give it one`;
  return undefined;
}

/** One item, or zero-or-one (a UNIQUE INDEX lookup, ::FIRST), naming an id: absent, it names nothing (404). */
function checkItemAsId(cx: Checker, ir: Ir, expr: A.Expr, place: string, expectedLabel: string | undefined): Ir {
  const t = ir.type;
  if (t.kind !== "items") throw new Error("checkItemAsId: not items");
  // An item of any type names an id like an ID parameter does: the runtime checks its type.
  if (expectedLabel !== undefined && t.label !== expectedLabel && t.label !== ANY_LABEL) {
    cx.report("E204", `expected a ${expectedLabel}, but this is a ${t.label}`, expr.span);
    return bad();
  }
  if (t.card === "one") return { op: "idOf", input: ir, type: value(ID_VALUE) };
  return { op: "idOf", input: ir, absent: absentNote(cx, ir, place), type: value(ID_VALUE) };
}

/** What a 404 says when `ir` (a zero-or-one item in an id position) is absent. */
function absentNote(cx: Checker, ir: Ir, place: string): AbsentNote {
  const name = ir.op === "var" ? ir.name : null;
  const binding = name === null ? undefined : cx.lookup(name);
  const origin = name === null ? ir : binding?.kind === "var" ? binding.origin : undefined;
  let lookup: AbsentNote["lookup"] = null;
  // The looked-up value is shown when evaluating it again is free: a parameter, literal or variable.
  if (origin?.op === "byIndex" && (origin.value.op === "param" || origin.value.op === "literal" || origin.value.op === "var")) {
    lookup = { before: `${ITEM_LETTER[origin.item]}<${origin.label}>({${origin.field}: `, after: "})", value: origin.value };
  }
  return { place, name, lookup };
}

/**
 * An integer of at least `min` (default 0): RANGE bounds, k, limits, ef. A literal must also be
 * at most 2^53 - 1, the largest integer a request (JSON number) carries exactly.
 */
export function checkIntegerArg(cx: Checker, expr: A.Expr, what: string, min = 0): Ir {
  if (expr.kind === "Literal") {
    const lit = expr.literal;
    const wanted = min === 0 ? "a non-negative integer" : `an integer >= ${min}`;
    if (lit.kind !== "Number" || lit.isFloat || lit.value < min) {
      cx.report("E205", `${what} must be ${wanted}, found ${lit.kind === "Number" ? lit.raw : lit.kind.toLowerCase()}`, expr.span);
      return bad();
    }
    // Written without `.` or exponent, so an integer: only its range is left to check.
    const problem = numberLiteralProblem(lit, true);
    if (problem !== null) {
      cx.report("E205", `${what} must be ${wanted}, but ${problem}`, expr.span);
      return bad();
    }
    return { op: "literal", value: lit.value, type: COUNT_TYPE };
  }
  const ir = checkExpr(cx, expr, { fieldValue: true });
  if (ir.type.kind === "error") return ir;
  if (ir.op === "param" && ir.optional) return cx.requiredHere(ir.name, expr.span, what);
  if (ir.type.kind === "value" && isIntegerType(ir.type.type)) return ir;
  cx.report("E205", `${what} must be an integer, but this is ${describeStatic(ir.type)}`, expr.span, "declare the parameter as U32, I64, ...");
  return bad();
}

/** A vector: a [F64] parameter or variable, an array literal, or Embed(text). */
export function checkVectorArg(cx: Checker, expr: A.Expr, what: string): Ir {
  const ir = checkExpr(cx, expr, { expected: VECTOR_VALUE });
  const t = ir.type;
  if (t.kind === "error") return ir;
  if (ir.op === "param" && ir.optional) return cx.requiredHere(ir.name, expr.span, what);
  if (ir.op === "arrayLit" && ir.elements.length === 0) {
    cx.report("E206", `${what} is empty; a vector has at least one number`, expr.span);
    return bad();
  }
  if (expr.kind === "Array") {
    // The vector index stores f32: a literal component it would turn into ±Infinity is an error.
    for (const e of expr.elements) {
      const problem = e.kind === "Literal" && e.literal.kind === "Number" ? f32LiteralProblem(e.literal, "the F32 range of vector components") : null;
      if (problem !== null) {
        cx.report("E201", problem, e.span);
        return bad();
      }
    }
  }
  if (ir.op === "param") cx.vectorParams.add(ir.name);
  if (t.kind === "value" && t.type.kind === "array" && isNumericType(t.type.element)) return ir;
  cx.report("E206", `${what} must be a vector ([F64]) or Embed(text), but this is ${describeStatic(t)}`, expr.span);
  return bad();
}
