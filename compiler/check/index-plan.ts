// Which conjuncts of `N<T>::WHERE(..)` (also E<T>, V<T>) an index can serve: comparisons
// `_::{field}::EQ/GT/GTE/LT/LTE(v)` of an INDEX or UNIQUE INDEX field of T with a value that does
// not depend on the item. The runtime (QueryContext.itemsWhereIndexed) reads the candidates from
// the index and still applies the whole condition to each, so the result is the scan's; it
// falls back to the scan when no condition can be served for the values a request brings.
import type { CompareOp } from "../../core/query-context.js";
import type { Ir, IrIndexCondition, Lambda } from "../ir/ir.js";
import type { Checker } from "./context.js";

const RANGE_OPS: ReadonlySet<CompareOp> = new Set<CompareOp>(["EQ", "GT", "GTE", "LT", "LTE"]);

/**
 * The index conditions of a WHERE over every item of a type; undefined when there is none, or
 * when evaluating the condition could fail (then skipping items would skip their errors too).
 */
export function planIndexConditions(cx: Checker, input: Ir, predicate: Lambda): IrIndexCondition[] | undefined {
  // A label's scan, or a vector search the WHERE filters (SearchV(…)::WHERE).
  if (input.op !== "byLabel" && input.op !== "searchVectors") return undefined;
  const kind = cx.itemKindOf(input.label);
  if (kind === null || !cannotFail(predicate.body)) return undefined;
  const indexed = new Set(
    cx
      .fieldsOf(kind, input.label)
      .filter((f) => f.index !== "none")
      .map((f) => f.name),
  );
  const conditions: IrIndexCondition[] = [];
  for (const c of conjuncts(predicate.body)) {
    if (c.op !== "compare" || !RANGE_OPS.has(c.cmp) || c.right.type.kind !== "value") continue;
    const left = c.left;
    if (left.op !== "prop" || left.input.op !== "anon" || left.input.depth !== predicate.depth) continue;
    if (!indexed.has(left.name) || !closed(c.right, predicate.depth)) continue;
    conditions.push({ field: left.name, op: c.cmp as IrIndexCondition["op"], value: c.right });
  }
  return conditions.length === 0 ? undefined : conditions;
}

/** The operands of a top-level AND (nested ANDs flattened), or the condition itself. */
function conjuncts(ir: Ir): Ir[] {
  if (ir.op === "logic" && ir.kind === "and") return ir.args.flatMap(conjuncts);
  return [ir];
}

/**
 * A value evaluated once instead of per item: parameters, literals, variables and their
 * members or properties, and `_` of an enclosing step. Not NOW: the scan reads the clock per item.
 */
function closed(ir: Ir, depth: number): boolean {
  switch (ir.op) {
    case "param":
    case "literal":
    case "var":
      return true;
    case "anon":
      return ir.depth < depth;
    case "member":
    case "prop":
      return closed(ir.input, depth);
    case "idOf":
      return ir.input.type.kind === "items" && ir.input.type.card === "one" && closed(ir.input, depth);
    default:
      return false;
  }
}

/** Whether evaluating `ir` can never throw (no math, no id that may be absent, ...). */
function cannotFail(ir: Ir): boolean {
  switch (ir.op) {
    case "param":
    case "literal":
    case "var":
    case "anon":
    case "now":
      return true;
    case "member":
    case "prop":
    case "exists":
    case "count":
    case "endpoint":
    case "adjacent":
      return cannotFail(ir.input);
    case "idOf":
      return ir.input.type.kind === "items" && ir.input.type.card !== "optional" && cannotFail(ir.input);
    case "compare":
    case "contains":
    case "isIn":
      return cannotFail(ir.left) && cannotFail(ir.right);
    case "logic":
      return ir.args.every(cannotFail);
    case "not":
      return cannotFail(ir.operand);
    case "arrayLit":
      return ir.elements.every(cannotFail);
    default:
      return false;
  }
}
