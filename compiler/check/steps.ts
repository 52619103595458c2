// Traversals: a source followed by `::steps`. Each step takes the static type of its input and
// gives the type of its output; a step that does not fit its input is E203.
import type * as A from "../syntax/ast.js";
import { closest } from "../diagnostics/diagnostic.js";
import type { Ir, Lambda, StaticType } from "../ir/ir.js";
import { describeValueType, isNumericType } from "../ir/value-types.js";
import type { CompareOp } from "../../core/query-context.js";
import type { ValueType } from "../../core/schema.js";
import { BOOLEAN_TYPE, COUNT_TYPE, Checker, ID_VALUE, bad, describeStatic, items, value, withCard, type ItemsType } from "./checker.js";
import { checkExpr, checkIdExpr, checkIntegerArg, checkNumber, checkCondition, checkVectorArg } from "./expressions.js";
import { checkSource, checkPropsArg } from "./sources.js";
import { checkProjectionStep } from "./projections.js";
import { checkRerankMMR, checkRerankRRF } from "./search.js";

const COMPARE_OPS: readonly string[] = ["EQ", "NEQ", "GT", "GTE", "LT", "LTE"];

const STEPS = [
  "Out", "In", "OutE", "InE", "FromN", "ToN", "FromV", "ToV", "COUNT", "RANGE", "ORDER", "FIRST", "Dedup",
  "GROUP_BY", "AGGREGATE_BY", "UPDATE", "WHERE", "INTERSECT", "ID", "ShortestPath", "ShortestPathBFS",
  "ShortestPathDijkstras", "ShortestPathAStar", "UpsertN", "UpsertE", "UpsertV", "RerankRRF", "RerankMMR",
  ...COMPARE_OPS, "CONTAINS", "IS_IN",
];

type StepResult = { ir: Ir; extra: number };

/**
 * @param fieldValue the traversal is the value of an object member: a final single-field
 *   projection `x::{f}` on one item then yields the field's value rather than `{f: ..}`.
 */
export function checkTraversal(cx: Checker, t: A.Expr & { kind: "Traversal" }, fieldValue: boolean | "any" = false): Ir {
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
      if (t.kind === "values" || (t.kind === "object" && t.card === "many")) return one({ op: "count", input, type: COUNT_TYPE });
      if (cx.requireItems(input, step, "::COUNT", ["node", "edge", "vector"], true) === null) return one(bad());
      const next = rest[0];
      // `::COUNT::GROUP_BY(p)` gives the same count summaries as `::GROUP_BY(p)`.
      if (next !== undefined && next.kind === "Call" && next.name.name === "GROUP_BY") return { ir: checkGrouping(cx, input, next, "groupBy"), extra: 1 };
      return one({ op: "count", input, type: COUNT_TYPE });
    }
    case "RANGE":
      return one(checkRange(cx, input, step));
    case "ORDER":
      return one(checkOrder(cx, input, step));
    case "FIRST": {
      const t = listLike(cx, input, step, "::FIRST");
      if (t === null) return one(bad());
      return one({ op: "first", input, type: t.kind === "items" ? withCard(t, "optional") : t.kind === "object" ? { ...t, card: "optional" } : value((t as { type: ValueType }).type, true) });
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
      return one({ op: "idOf", input, type: t.card === "many" ? { kind: "values", type: ID_VALUE } : value(ID_VALUE, t.card === "optional") });
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
        cx.report("E902", `unknown step '::${name}'`, step.name.span, guess !== undefined ? `did you mean '::${guess}'?` : undefined);
      }
      return one(bad());
  }
}

/** Items, values or projected objects held as a list (RANGE, FIRST, ORDER accept all three). */
function listLike(cx: Checker, input: Ir, step: A.Step & { kind: "Call" }, what: string): StaticType | null {
  const t = input.type;
  if (t.kind === "items" || t.kind === "values" || (t.kind === "object" && t.card === "many")) return t;
  if (t.kind === "error") return null;
  cx.report("E203", `${what} works on a list, but its input is ${describeStatic(t)}`, step.name.span);
  return null;
}

function checkAdjacent(cx: Checker, input: Ir, step: A.Step & { kind: "Call" }, name: "Out" | "In" | "OutE" | "InE"): Ir {
  const t = cx.requireItems(input, step, `::${name}`, ["node", "vector"]);
  if (t === null) return bad();
  if (step.typeArg === null) {
    cx.report("E209", `::${name} needs an edge type`, step.span, `write ::${name}<EdgeType>`);
    return bad();
  }
  const label = cx.resolveLabel(step.typeArg, "edge");
  if (label === null) return bad();
  const edge = cx.schema.edges.get(label)!;
  const outward = name === "Out" || name === "OutE";
  const expected = outward ? edge.from : edge.to;
  if (expected !== t.label) {
    cx.report(
      "E204",
      `edge type ${label} goes from ${edge.from} to ${edge.to}, so ::${name}<${label}> cannot start at ${t.label}`,
      step.span,
      outward && edge.to === t.label ? `did you mean ::${name === "Out" ? "In" : "InE"}<${label}>?` : !outward && edge.from === t.label ? `did you mean ::${name === "In" ? "Out" : "OutE"}<${label}>?` : undefined,
    );
    return bad();
  }
  const direction = name === "Out" ? "out" : name === "In" ? "in" : name === "OutE" ? "outE" : "inE";
  const target = name === "Out" ? edge.to : edge.from;
  const type: StaticType = name === "Out" || name === "In" ? items(cx.itemKindOf(target) ?? "node", target, "many") : items("edge", label, "many");
  return { op: "adjacent", direction, input, label, type };
}

function checkEndpoint(cx: Checker, input: Ir, step: A.Step & { kind: "Call" }, name: "FromN" | "ToN" | "FromV" | "ToV"): Ir {
  const t = cx.requireItems(input, step, `::${name}`, ["edge"]);
  if (t === null) return bad();
  const edge = cx.schema.edges.get(t.label)!;
  const from = name === "FromN" || name === "FromV";
  const label = from ? edge.from : edge.to;
  const kind = cx.itemKindOf(label) ?? "node";
  const wantVector = name === "FromV" || name === "ToV";
  if (wantVector !== (kind === "vector")) {
    const other = from ? (wantVector ? "FromN" : "FromV") : wantVector ? "ToN" : "ToV";
    cx.report("E204", `the ${from ? "source" : "target"} of ${t.label} is ${kind === "vector" ? "the vector type" : "the node type"} ${label}`, step.name.span, `use ::${other}`);
    return bad();
  }
  return { op: "endpoint", end: from ? "fromN" : "toN", input, type: items(kind, label, t.card) };
}

function checkRange(cx: Checker, input: Ir, step: A.Step & { kind: "Call" }): Ir {
  const t = listLike(cx, input, step, "::RANGE");
  if (t === null) return bad();
  if (step.args.length !== 2) {
    cx.report("E209", "RANGE takes two arguments: RANGE(start, end)", step.span);
    return bad();
  }
  const start = checkIntegerArg(cx, step.args[0]!.value, "RANGE start");
  const end = checkIntegerArg(cx, step.args[1]!.value, "RANGE end");
  if (start.op === "literal" && end.op === "literal" && typeof start.value === "number" && typeof end.value === "number" && end.value < start.value) {
    cx.report("E205", `RANGE end (${end.value}) is before its start (${start.value})`, step.args[1]!.span);
    return bad();
  }
  return { op: "range", input, start, end, type: t.kind === "items" ? withCard(t, "many") : t };
}

function checkOrder(cx: Checker, input: Ir, step: A.Step & { kind: "Call" }): Ir {
  const t = cx.requireItems(input, step, "::ORDER", ["node", "edge", "vector"]);
  if (t === null) return bad();
  const dir = step.typeArg?.name;
  if (dir !== "Asc" && dir !== "Desc") {
    cx.report("E208", `ORDER needs a direction: ORDER<Asc>(..) or ORDER<Desc>(..)`, step.typeArg?.span ?? step.span);
    return bad();
  }
  if (step.args.length !== 1) {
    cx.report("E209", `ORDER takes one key, e.g. ORDER<${dir}>(_::{age})`, step.span);
    return bad();
  }
  const key = checkItemLambda(cx, t, () => checkExpr(cx, step.args[0]!.value, { fieldValue: true }));
  if (key.body.type.kind === "error") return bad();
  if (key.body.type.kind !== "value" || key.body.type.type.kind !== "scalar") {
    const what = key.body.type.kind === "value" ? describeValueType(key.body.type.type) : describeStatic(key.body.type);
    cx.report("E206", `an ORDER key must be a number, string, date, id or boolean, but this is ${what}`, step.args[0]!.span);
    return bad();
  }
  return { op: "order", input, key, direction: dir === "Asc" ? "asc" : "desc", type: withCard(t, "many") };
}

/** Checks fn with `_` bound to one item of `t`. */
export function checkItemLambda(cx: Checker, t: ItemsType, fn: () => Ir): Lambda {
  const { result, depth } = cx.withAnon(withCard(t, "one"), fn);
  return { depth, body: result };
}

function checkGrouping(cx: Checker, input: Ir, step: A.Step & { kind: "Call" }, op: "groupBy" | "aggregateBy"): Ir {
  // GROUP_BY of items of any type may group by label (or id); AGGREGATE_BY keeps typed items.
  const t = cx.requireItems(input, step, `::${step.name.name}`, ["node", "edge", "vector"], op === "groupBy");
  if (t === null) return bad();
  if (step.args.length === 0) {
    cx.report("E209", `::${step.name.name} needs at least one property`, step.span);
    return bad();
  }
  const properties: string[] = [];
  for (const arg of step.args) {
    const v = arg.value;
    const ident = v.kind === "Ident" ? { name: v.name, span: v.span } : v.kind === "Traversal" && v.source.kind === "Var" && v.steps.length === 0 ? v.source.name : null;
    if (ident === null) {
      cx.report("E209", `::${step.name.name} takes property names, e.g. ::${step.name.name}(city, age)`, v.span);
      return bad();
    }
    const field = cx.resolveField(t.item, t.label, ident, true);
    if (field === null) return bad();
    properties.push(field.name);
  }
  return op === "groupBy" ? { op, input, properties, type: { kind: "groups" } } : { op, input, properties, type: { kind: "aggregates", item: t.item, label: t.label } };
}

function checkUpdate(cx: Checker, input: Ir, step: A.Step & { kind: "Call" }): Ir {
  const t = cx.requireItems(input, step, "::UPDATE", ["node", "edge", "vector"]);
  if (t === null) return bad();
  const arg = step.args[0]?.value;
  if (step.args.length !== 1 || arg === undefined || arg.kind !== "Object") {
    cx.report("E209", "UPDATE takes one object of properties, e.g. ::UPDATE({name: name})", step.span);
    return bad();
  }
  // Values may use `_`, the item being updated: ::UPDATE({n: ADD(_::{n}, 1)}).
  const { result: props, depth } = cx.withAnon(withCard(t, "one"), () => checkPropsArg(cx, step.args, t.item, t.label));
  cx.writes = true;
  return { op: "update", input, props, itemDepth: props.some((p) => usesAnon(p.value, depth)) ? depth : null, type: t };
}

/** Whether `ir` refers to the `_` of lambda depth `depth` (IR nesting is bounded by MAX_NESTING). */
function usesAnon(ir: unknown, depth: number): boolean {
  if (typeof ir !== "object" || ir === null) return false;
  if (Array.isArray(ir)) return ir.some((x) => usesAnon(x, depth));
  const node = ir as { op?: unknown; depth?: unknown };
  if (node.op === "anon" && node.depth === depth) return true;
  return Object.values(ir).some((x) => usesAnon(x, depth));
}

function checkWhere(cx: Checker, input: Ir, step: A.Step & { kind: "Call" }): Ir {
  // On items of any type the condition may read only id and label (Checker.resolveField).
  const t = cx.requireItems(input, step, "::WHERE", ["node", "edge", "vector"], true);
  if (t === null) return bad();
  if (step.args.length !== 1) {
    cx.report("E209", "WHERE takes one condition, e.g. ::WHERE(_::{age}::GT(18))", step.span);
    return bad();
  }
  // Even when the condition is wrong the output type is known, so later steps are still checked.
  const predicate = checkItemLambda(cx, t, () => checkCondition(cx, step.args[0]!.value));
  return { op: "filter", input, predicate, type: withCard(t, t.card === "many" ? "many" : "optional") };
}

function checkIntersect(cx: Checker, input: Ir, step: A.Step & { kind: "Call" }): Ir {
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
function checkComparison(cx: Checker, input: Ir, step: A.Step & { kind: "Call" }, cmp: CompareOp): Ir {
  const t = input.type;
  if (t.kind !== "value" && t.kind !== "values") {
    cx.report("E203", `::${cmp} compares a value, but its input is ${describeStatic(t)}`, step.name.span, t.kind === "items" ? "read a property first, e.g. _::{age}::GT(18)" : undefined);
    return bad();
  }
  if (step.args.length !== 1) {
    cx.report("E209", `::${cmp} takes one value`, step.span);
    return bad();
  }
  const ordered = cmp !== "EQ" && cmp !== "NEQ";
  if (ordered && !orderable(t.type)) {
    cx.report("E213", `::${cmp} needs numbers, strings, dates or ids, but this is ${describeValueType(t.type)}`, step.name.span);
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
  if (t.kind === "items" && t.card === "one" && left.kind === "scalar" && left.name === "ID") return { op: "idOf", input: ir, type: value(ID_VALUE) };
  if (t.kind !== "value") {
    cx.report("E206", `${what} compares with one value, but this is ${describeStatic(t)}`, expr.span);
    return bad();
  }
  if (!comparable(left, t.type)) {
    cx.report("E213", `cannot compare ${describeValueType(left)} with ${describeValueType(t.type)}`, expr.span);
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
function checkMembership(cx: Checker, input: Ir, step: A.Step & { kind: "Call" }, name: "CONTAINS" | "IS_IN"): Ir {
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
      cx.report("E213", `::CONTAINS works on a String or an array, but this is ${describeValueType(t.type)}`, step.name.span);
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
  if (element !== null && comparable(t.type, element)) return { op: "isIn", left: input, right: list, anyElement: false, type: BOOLEAN_TYPE };
  if (element !== null && t.type.kind === "array" && comparable(t.type.element, element)) {
    return { op: "isIn", left: input, right: list, anyElement: true, type: BOOLEAN_TYPE };
  }
  const want = t.type.kind === "array" ? `${describeValueType(t.type.element)} values (any element of this ${describeValueType(t.type)} value)` : `${describeValueType(t.type)} values`;
  cx.report("E206", `::IS_IN needs a list of ${want}, but this is ${describeStatic(lt)}`, argument.span);
  return bad();
}

function checkShortestPath(cx: Checker, input: Ir, step: A.Step & { kind: "Call" }, rest: readonly A.Step[]): StepResult {
  const name = step.name.name;
  const t = cx.requireItems(input, step, `::${name}`, ["node", "vector"]);
  if (t === null) return { ir: bad(), extra: 0 };
  if (step.typeArg === null) {
    cx.report("E209", `::${name} needs an edge type`, step.span, `write ::${name}<EdgeType>`);
    return { ir: bad(), extra: 0 };
  }
  const label = cx.resolveLabel(step.typeArg, "edge");
  if (label === null) return { ir: bad(), extra: 0 };
  const edge = cx.schema.edges.get(label)!;
  let weight: Lambda | null = null;
  let heuristic: string | null = null;
  if (name === "ShortestPathDijkstras" || name === "ShortestPathAStar") {
    const want = name === "ShortestPathAStar" ? 2 : 1;
    if (step.args.length !== want) {
      cx.report(
        "E209",
        name === "ShortestPathAStar"
          ? `ShortestPathAStar takes the edge weight and the name of the node property holding the heuristic, e.g. ShortestPathAStar<${label}>(_::{distance}, "estimate")`
          : `ShortestPathDijkstras takes the edge weight, e.g. ShortestPathDijkstras<${label}>(_::{weight})`,
        step.span,
      );
      return { ir: bad(), extra: 0 };
    }
    const w = step.args[0]!.value;
    if (w.kind === "Literal" && w.literal.kind === "Number" && w.literal.value < 0) {
      cx.report("E207", `a path weight must not be negative, found ${w.literal.raw}`, w.span);
      return { ir: bad(), extra: 0 };
    }
    weight = checkItemLambda(cx, items("edge", label, "one"), () => checkNumber(cx, w, "the weight"));
    if (weight.body.type.kind === "error") {
      const last = cx.diagnostics[cx.diagnostics.length - 1];
      if (last !== undefined && last.code === "E214") last.code = "E207";
      return { ir: bad(), extra: 0 };
    }
    if (name === "ShortestPathAStar") {
      const h = step.args[1]!.value;
      if (h.kind !== "Literal" || h.literal.kind !== "String") {
        cx.report("E209", "the heuristic is the name of a numeric node property, as a string", h.span);
        return { ir: bad(), extra: 0 };
      }
      const field = cx.resolveField(cx.itemKindOf(edge.to) ?? "node", edge.to, { name: h.literal.value, span: h.span }, false);
      if (field === null) return { ir: bad(), extra: 0 };
      if (!isNumericType(field.type)) {
        cx.report("E207", `the heuristic property must be numeric; '${field.name}' is ${describeValueType(field.type)}`, h.span);
        return { ir: bad(), extra: 0 };
      }
      heuristic = field.name;
    }
  } else if (step.args.length > 0) {
    cx.report("E209", `::${name} takes no arguments (it counts hops); use ShortestPathDijkstras for weights`, step.span);
    return { ir: bad(), extra: 0 };
  }
  if (edge.from !== t.label) {
    cx.report("E204", `edge type ${label} goes from ${edge.from}, so a path over it cannot start at ${t.label}`, step.span);
    return { ir: bad(), extra: 0 };
  }
  const next = rest[0];
  if (next === undefined || next.kind !== "Call" || (next.name.name !== "To" && next.name.name !== "From") || next.args.length !== 1) {
    cx.report("E304", `::${name} must be followed by ::To(id) or ::From(id)`, step.span);
    return { ir: bad(), extra: 0 };
  }
  const target = checkIdExpr(cx, next.args[0]!.value, `${name}<${label}>::${next.name.name}`, next.name.name === "To" ? edge.to : edge.from);
  return { ir: { op: "shortestPath", input, label, endpoint: next.name.name === "To" ? "to" : "from", target, weight, heuristic, type: { kind: "paths" } }, extra: 1 };
}

/**
 * `existing::UpsertN({..})`: update the first item of the input, or create one.
 * `existing::UpsertE({..})::From(a)::To(b)`, `existing::UpsertV(vector, {..})`.
 */
function checkUpsert(cx: Checker, input: Ir, step: A.Step & { kind: "Call" }, rest: readonly A.Step[]): StepResult {
  const name = step.name.name as "UpsertN" | "UpsertE" | "UpsertV";
  const kind = name === "UpsertN" ? "node" : name === "UpsertE" ? "edge" : "vector";
  const t = cx.requireItems(input, step, `::${name}`, [kind]);
  if (t === null) return { ir: bad(), extra: 0 };
  if (step.typeArg !== null && step.typeArg.name !== t.label) {
    cx.report("E204", `::${name}<${step.typeArg.name}> on ${t.label} items`, step.typeArg.span, `the type comes from the input; write ::${name}(..)`);
    return { ir: bad(), extra: 0 };
  }
  return upsert(cx, name, input, t.label, step.args, step, rest);
}

export function upsert(cx: Checker, name: "UpsertN" | "UpsertE" | "UpsertV", input: Ir, label: string, args: readonly A.Arg[], at: A.Spanned, rest: readonly A.Step[]): StepResult {
  cx.writes = true;
  if (name === "UpsertN") {
    const props = checkPropsArg(cx, args, "node", label);
    return { ir: { op: "upsertNode", input, label, props, type: items("node", label, "one") }, extra: 0 };
  }
  if (name === "UpsertV") {
    if (args.length < 1 || args.length > 2) {
      cx.report("E209", `UpsertV takes a vector and an optional object of properties`, at.span);
      return { ir: bad(), extra: 0 };
    }
    const vector = checkVectorArg(cx, args[0]!.value, "the vector");
    const props = checkPropsArg(cx, args.slice(1), "vector", label);
    return { ir: { op: "upsertVector", input, label, vector, props, type: items("vector", label, "one") }, extra: 0 };
  }
  const props = checkPropsArg(cx, args, "edge", label);
  const ends = edgeEnds(cx, label, rest, at, "UpsertE");
  if (ends === null) return { ir: bad(), extra: 0 };
  return { ir: { op: "upsertEdge", input, label, props, from: ends.from, to: ends.to, type: items("edge", label, "one") }, extra: ends.consumed };
}

/** `::From(a)::To(b)` (either order) after AddE / UpsertE. */
export function edgeEnds(cx: Checker, label: string, steps: readonly A.Step[], at: A.Spanned, form: string): { from: Ir; to: Ir; consumed: number } | null {
  const edge = cx.schema.edges.get(label)!;
  let from: Ir | null = null;
  let to: Ir | null = null;
  let consumed = 0;
  for (const step of steps.slice(0, 2)) {
    if (step.kind !== "Call" || (step.name.name !== "From" && step.name.name !== "To")) break;
    if (step.args.length !== 1) {
      cx.report("E209", `::${step.name.name} takes one item (or id)`, step.span);
      return null;
    }
    const end = checkIdExpr(cx, step.args[0]!.value, `${form}<${label}>::${step.name.name}`, step.name.name === "From" ? edge.from : edge.to);
    if (step.name.name === "From") from = end;
    else to = end;
    consumed++;
  }
  if (from === null || to === null) {
    cx.report("E303", `${form}<${label}> needs both ::From(..) and ::To(..)`, at.span, `e.g. ${form}<${label}>::From(${edge.from.toLowerCase()}Id)::To(${edge.to.toLowerCase()}Id)`);
    return null;
  }
  return { from, to, consumed };
}

