// Traversals: a source followed by `::steps`. Each step takes the static type of its input and
// gives the type of its output; a step that does not fit its input is E203. The steps themselves
// live with their concern: graph-steps.ts, list-steps.ts, filter-steps.ts, writes.ts, search.ts,
// projections.ts.
import type * as A from "../syntax/ast.js";
import { closest } from "../diagnostics/diagnostic.js";
import type { Ir } from "../ir/ir.js";
import type { ValueType } from "../../core/schema.js";
import type { CompareOp } from "../../core/query-context.js";
import { COUNT_TYPE, ID_VALUE, bad, value, withCard } from "./static-types.js";
import type { Checker, StepResult } from "./context.js";
import { checkRerankMMR, checkRerankRRF, checkSearchVStep } from "./search.js";
import { checkProjectionStep } from "./projections.js";
import { checkUpdate, checkUpsert } from "./writes.js";
import { checkSource } from "./sources.js";
import { foreignStepHint } from "./step-hints.js";
import { checkGrouping, checkOrder, checkRange, listLike } from "./list-steps.js";
import { COMPARE_OPS, checkComparison, checkIntersect, checkMembership, checkWhere } from "./filter-steps.js";
import { checkAdjacent, checkEndpoint, checkShortestPath } from "./graph-steps.js";

const STEPS = [
  "Out",
  "In",
  "OutE",
  "InE",
  "FromN",
  "ToN",
  "FromV",
  "ToV",
  "COUNT",
  "RANGE",
  "ORDER",
  "FIRST",
  "Dedup",
  "GROUP_BY",
  "AGGREGATE_BY",
  "UPDATE",
  "WHERE",
  "INTERSECT",
  "ID",
  "ShortestPath",
  "ShortestPathBFS",
  "ShortestPathDijkstras",
  "ShortestPathAStar",
  "UpsertN",
  "UpsertE",
  "UpsertV",
  "RerankRRF",
  "RerankMMR",
  "SearchV",
  ...COMPARE_OPS,
  "CONTAINS",
  "IS_IN",
];

/** The implementation behind checkTraversal (recurse.ts): the source, then each step in turn. */
export function checkTraversalSteps(cx: Checker, t: A.Expr & { kind: "Traversal" }, fieldValue: boolean | "any" = false): Ir {
  let { ir, consumed } = checkSource(cx, t.source, t.steps);
  for (let i = consumed; i < t.steps.length; ) {
    const rest = t.steps.slice(i + 1);
    const r = checkStep(cx, ir, t.steps[i]!, rest, fieldValue);
    ir = r.ir;
    i += 1 + r.extra;
    if (ir.type.kind === "error") break;
  }
  return ir;
}

function checkStep(cx: Checker, input: Ir, step: A.Step, rest: readonly A.Step[], fieldValue: boolean | "any"): StepResult {
  if (input.type.kind === "error") return { ir: bad(), extra: 0 };
  if (step.kind !== "Call") {
    const single = input.type.kind === "items" && input.type.card !== "many";
    const bare = rest.length > 0 || fieldValue === "any" || (fieldValue === true && single);
    return { ir: checkProjectionStep(cx, input, step, bare), extra: 0 };
  }
  const name = step.name.name;
  const one = (ir: Ir): StepResult => ({ ir, extra: 0 });
  switch (name) {
    case "Out":
    case "In":
    case "OutE":
    case "InE":
      return one(checkAdjacent(cx, input, step, name));
    case "FromN":
    case "ToN":
    case "FromV":
    case "ToV":
      return one(checkEndpoint(cx, input, step, name));
    case "COUNT": {
      const t = input.type;
      // Every list counts: values, projected objects, the paths of a ShortestPath step, groups.
      const list = t.kind === "values" || (t.kind === "object" && t.card === "many") || t.kind === "paths";
      if (list || t.kind === "groups" || t.kind === "aggregates") return one({ op: "count", input, type: COUNT_TYPE });
      if (cx.requireItems(input, step, "::COUNT", ["node", "edge", "vector"], true) === null) return one(bad());
      const next = rest[0];
      // `::COUNT::GROUP_BY(p)` gives the same count summaries as `::GROUP_BY(p)`; so does
      // `::COUNT::AGGREGATE_BY(p)`, as in HelixDB: COUNT asks for the counts, not the items.
      if (next !== undefined && next.kind === "Call" && (next.name.name === "GROUP_BY" || next.name.name === "AGGREGATE_BY"))
        return { ir: checkGrouping(cx, input, next, "groupBy"), extra: 1 };
      return one({ op: "count", input, type: COUNT_TYPE });
    }
    case "RANGE":
      return one(checkRange(cx, input, step));
    case "ORDER":
      return one(checkOrder(cx, input, step));
    case "FIRST": {
      // A single value or object is its own first (`_::ToN::{file_id}::FIRST` in a projection).
      const single = input.type.kind === "value" || (input.type.kind === "object" && input.type.card !== "many");
      if (single) return one(input);
      const t = listLike(cx, input, step, "::FIRST");
      if (t === null) return one(bad());
      return one({
        op: "first",
        input,
        type:
          t.kind === "items"
            ? withCard(t, "optional")
            : t.kind === "object"
              ? { ...t, card: "optional" }
              : value((t as { type: ValueType }).type, true),
      });
    }
    case "Dedup": {
      const t = cx.requireItems(input, step, "::Dedup", ["node", "edge", "vector"], true);
      if (t === null) return one(bad());
      return one({ op: "dedup", input, type: t });
    }
    case "GROUP_BY":
      return one(checkGrouping(cx, input, step, "groupBy"));
    case "AGGREGATE_BY":
      return one(checkGrouping(cx, input, step, "aggregateBy"));
    case "UPDATE":
      return one(checkUpdate(cx, input, step));
    case "WHERE":
      return one(checkWhere(cx, input, step));
    case "INTERSECT":
      return one(checkIntersect(cx, input, step));
    case "ID": {
      const t = cx.requireItems(input, step, "::ID", ["node", "edge", "vector"], true);
      if (t === null) return one(bad());
      return one({
        op: "idOf",
        input,
        type: t.card === "many" ? { kind: "values", type: ID_VALUE } : value(ID_VALUE, t.card === "optional"),
      });
    }
    case "ShortestPath":
    case "ShortestPathBFS":
    case "ShortestPathDijkstras":
    case "ShortestPathAStar":
      return checkShortestPath(cx, input, step, rest);
    case "UpsertN":
    case "UpsertE":
    case "UpsertV":
      return checkUpsert(cx, input, step, rest);
    case "RerankRRF": {
      if (cx.requireItems(input, step, "::RerankRRF", ["node", "vector"]) === null) return one(bad());
      return one(checkRerankRRF(cx, step.args, input, step.span));
    }
    case "RerankMMR":
      return one(checkRerankMMR(cx, input, step));
    case "SearchV":
      return one(checkSearchVStep(cx, input, step));
    case "CONTAINS":
    case "IS_IN":
      return one(checkMembership(cx, input, step, name));
    case "To":
    case "From":
      cx.report("E209", `::${name} only follows AddE, UpsertE or a ShortestPath step`, step.name.span);
      return one(bad());
    default:
      if (COMPARE_OPS.includes(name)) return one(checkComparison(cx, input, step, name as CompareOp));
      {
        const guess = closest(name, STEPS);
        const hint = foreignStepHint(step) ?? (guess !== undefined ? `did you mean '::${guess}'?` : undefined);
        cx.report("E902", `unknown step '::${name}'`, step.name.span, hint);
      }
      return one(bad());
  }
}
