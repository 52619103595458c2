// The helpers every checker uses to demand a value of a given kind where the position needs it:
// a condition, a number, a value for a field, an id, an integer, a vector.
import type * as A from "../syntax/ast.js";
import { helixTypeName } from "../../core/schema.js";
import { ANY_LABEL, ITEM_LETTER, type AbsentNote, type Ir } from "../ir/ir.js";
import { assignable, f32LiteralProblem, isIntegerType, isNumericType, numberLiteralProblem } from "../ir/value-types.js";
import type { ValueType } from "../../core/schema.js";
import { BOOLEAN_TYPE, COUNT_TYPE, ID_VALUE, VECTOR_VALUE, bad, describeStatic, value } from "./static-types.js";
import type { Checker } from "./context.js";
import { checkExpr } from "./recurse.js";
import { checkLiteral } from "./leaves.js";

/** A condition: an expression of boolean type. */
export function checkCondition(cx: Checker, expr: A.Expr): Ir {
  const ir = checkExpr(cx, expr, { fieldValue: true });
  if (ir.type.kind === "error" || ir.type.kind === "boolean") return ir;
  if (ir.type.kind === "value" && ir.type.type.kind === "scalar" && ir.type.type.name === "Boolean") {
    // A Boolean field may be absent: only true passes.
    if (ir.type.nullable !== true) return ir;
    return { op: "compare", cmp: "EQ", left: ir, right: { op: "literal", value: true, type: value(ir.type.type) }, type: BOOLEAN_TYPE };
  }
  cx.report(
    "E212",
    `expected a condition, but this is ${describeStatic(ir.type)}`,
    expr.span,
    "compare it, e.g. _::{age}::GT(18), or test a traversal with EXISTS(..)",
  );
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
      cx.report("E206", `${what} is ${helixTypeName(type)}, but this is ${helixTypeName(t.type)}`, expr.span);
      return bad();
    }
    return ir;
  }
  if (t.kind === "items" && t.card === "one" && type.kind === "scalar" && type.name === "ID")
    return { op: "idOf", input: ir, type: value(ID_VALUE) };
  if (t.kind === "values" && type.kind === "array" && assignable(t.type, type.element)) return ir;
  cx.report("E206", `${what} is ${helixTypeName(type)}, but this is ${describeStatic(t)}`, expr.span);
  return bad();
}

/**
 * An expression that names one item: an ID parameter, a string literal, or a single item.
 * `place` names the position in messages (`AddE<Knows>::To`, `N<Person>`): a zero-or-one item
 * that turns out absent is a 404 saying which variable was empty and what it looked up.
 */
export function checkIdExpr(cx: Checker, expr: A.Expr, place: string, expectedLabel?: string, allowList = false): Ir {
  if (expr.kind === "Literal") return checkLiteral(cx, expr.literal, ID_VALUE);
  const ir = checkExpr(cx, expr, { fieldValue: true, expected: ID_VALUE });
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
  if (allowList) {
    const list = checkIdList(cx, ir, expr, expectedLabel);
    if (list !== null) return list;
  }
  cx.report(
    "E206",
    allowList
      ? `expected an ID, an item, or a list of items or IDs, found ${describeStatic(t)}`
      : `expected an ID or a single item, found ${describeStatic(t)}`,
    expr.span,
    t.kind === "items" ? "add ::FIRST to pick one item" : undefined,
  );
  return bad();
}

/**
 * Several items naming their ids (an AddE/UpsertE end: one edge per item), or a list of ID
 * values: the ids as a list (`values` of ID); null when `ir` is no such list.
 */
function checkIdList(cx: Checker, ir: Ir, expr: A.Expr, expectedLabel: string | undefined): Ir | null {
  const t = ir.type;
  if (t.kind === "items" && t.card === "many") {
    if (expectedLabel !== undefined && t.label !== expectedLabel && t.label !== ANY_LABEL) {
      cx.report("E204", `expected ${expectedLabel}s, but these are ${t.label}s`, expr.span);
      return bad();
    }
    return { op: "idOf", input: ir, type: { kind: "values", type: ID_VALUE } };
  }
  const element = t.kind === "values" ? t.type : t.kind === "value" && t.type.kind === "array" ? t.type.element : null;
  if (element?.kind === "scalar" && element.name === "ID") return ir;
  return null;
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
  cx.report(
    "E205",
    `${what} must be an integer, but this is ${describeStatic(ir.type)}`,
    expr.span,
    "declare the parameter as U32, I64, ...",
  );
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
      const problem =
        e.kind === "Literal" && e.literal.kind === "Number" ? f32LiteralProblem(e.literal, "the F32 range of vector components") : null;
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
