// The checker's recursive entry points, called through the Checker so that a module may use them
// without importing the module that implements them (see CheckEntryPoints in context.ts).
import type * as A from "../syntax/ast.js";
import type { Ir } from "../ir/ir.js";
import type { Checker, ExprOptions } from "./context.js";

export function checkExpr(cx: Checker, expr: A.Expr, options: ExprOptions = {}): Ir {
  return cx.entry.expr(cx, expr, options);
}

/**
 * @param fieldValue the traversal is the value of an object member: a final single-field
 *   projection `x::{f}` on one item then yields the field's value rather than `{f: ..}`.
 */
export function checkTraversal(cx: Checker, t: A.Expr & { kind: "Traversal" }, fieldValue: boolean | "any" = false): Ir {
  return cx.entry.traversal(cx, t, fieldValue);
}
