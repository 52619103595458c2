// Wires the checker: a Checker for one query whose recursive entry points (CheckEntryPoints) are
// the real expression and traversal checkers. The only module that knows both.
import type * as A from "../syntax/ast.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { CheckedSchema } from "../schema/schema-check.js";
import { Checker, type CheckEntryPoints } from "./context.js";
import { checkExpression } from "./expressions.js";
import { checkTraversalSteps } from "./steps.js";

const ENTRY_POINTS: CheckEntryPoints = { expr: checkExpression, traversal: checkTraversalSteps };

/** A Checker for `query`; `bm25`/`bm25Origin` as in QueryCheckOptions. */
export function createChecker(
  query: A.QueryDef,
  schema: CheckedSchema,
  diagnostics: Diagnostic[],
  bm25: boolean,
  bm25Origin?: string,
): Checker {
  return new Checker(query, schema, diagnostics, ENTRY_POINTS, bm25, bm25Origin);
}
