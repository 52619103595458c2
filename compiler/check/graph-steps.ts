// Steps that walk the graph: Out/In/OutE/InE, the endpoints of edges (FromN, ToN, FromV, ToV)
// and the ShortestPath family.
import type * as A from "../syntax/ast.js";
import { helixTypeName } from "../../core/schema.js";
import { ANY_LABEL, type Ir, type Lambda, type StaticType } from "../ir/ir.js";
import { isNumericType } from "../ir/value-types.js";
import { F64_VALUE, bad, items, value } from "./static-types.js";
import { type Checker, checkItemLambda, type StepResult } from "./context.js";
import { checkIdExpr, checkNumber } from "./demands.js";

export function checkAdjacent(cx: Checker, input: Ir, step: A.Step & { kind: "Call" }, name: "Out" | "In" | "OutE" | "InE"): Ir {
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
      outward && edge.to === t.label
        ? `did you mean ::${name === "Out" ? "In" : "InE"}<${label}>?`
        : !outward && edge.from === t.label
          ? `did you mean ::${name === "In" ? "Out" : "OutE"}<${label}>?`
          : undefined,
    );
    return bad();
  }
  const direction = name === "Out" ? "out" : name === "In" ? "in" : name === "OutE" ? "outE" : "inE";
  const target = name === "Out" ? edge.to : edge.from;
  const type: StaticType =
    name === "Out" || name === "In" ? items(cx.itemKindOf(target) ?? "node", target, "many") : items("edge", label, "many");
  return { op: "adjacent", direction, input, label, type };
}

export function checkEndpoint(cx: Checker, input: Ir, step: A.Step & { kind: "Call" }, name: "FromN" | "ToN" | "FromV" | "ToV"): Ir {
  const t = cx.requireItems(input, step, `::${name}`, ["edge"]);
  if (t === null) return bad();
  const edge = cx.schema.edges.get(t.label)!;
  const from = name === "FromN" || name === "FromV";
  const label = from ? edge.from : edge.to;
  const kind = cx.itemKindOf(label) ?? "node";
  const wantVector = name === "FromV" || name === "ToV";
  if (wantVector !== (kind === "vector")) {
    const other = from ? (wantVector ? "FromN" : "FromV") : wantVector ? "ToN" : "ToV";
    cx.report(
      "E204",
      `the ${from ? "source" : "target"} of ${t.label} is ${kind === "vector" ? "the vector type" : "the node type"} ${label}`,
      step.name.span,
      `use ::${other}`,
    );
    return bad();
  }
  return { op: "endpoint", end: from ? "fromN" : "toN", input, type: items(kind, label, t.card) };
}

export function checkShortestPath(cx: Checker, input: Ir, step: A.Step & { kind: "Call" }, rest: readonly A.Step[]): StepResult {
  const name = step.name.name;
  const none: StepResult = { ir: bad(), extra: 0 };
  // Without `<EdgeType>` a path may take edges of any type (A* needs the type of its heuristic).
  const anyEdge = step.typeArg === null && name !== "ShortestPathAStar";
  const t = cx.requireItems(input, step, `::${name}`, ["node", "vector"], anyEdge);
  if (t === null) return none;
  if (step.typeArg === null && !anyEdge) {
    cx.report("E209", `::${name} needs an edge type`, step.span, `write ::${name}<EdgeType>`);
    return none;
  }
  const label = step.typeArg === null ? null : cx.resolveLabel(step.typeArg, "edge");
  if (step.typeArg !== null && label === null) return none;
  const edge = label === null ? null : cx.schema.edges.get(label)!;
  const shown = label ?? "EdgeType";
  let weight: Lambda | null = null;
  let heuristic: string | null = null;
  /** without <E>: the edge types a `_::{f}` weight walks (those declaring f), else null (all) */
  let among: string[] | null = null;
  if (name === "ShortestPathDijkstras" || name === "ShortestPathAStar") {
    const want = name === "ShortestPathAStar" ? 2 : 1;
    if (step.args.length !== want) {
      cx.report(
        "E209",
        name === "ShortestPathAStar"
          ? `ShortestPathAStar takes the edge weight and the name of the node property holding the heuristic, e.g. ShortestPathAStar<${shown}>(_::{distance}, "estimate")`
          : `ShortestPathDijkstras takes the edge weight, e.g. ShortestPathDijkstras<${shown}>(_::{weight})`,
        step.span,
      );
      return none;
    }
    const w = step.args[0]!.value;
    if (w.kind === "Literal" && w.literal.kind === "Number" && w.literal.value < 0) {
      cx.report("E207", `a path weight must not be negative, found ${w.literal.raw}`, w.span);
      return none;
    }
    weight =
      label === null
        ? checkAnyEdgeWeight(cx, w, (types) => (among = types))
        : checkItemLambda(cx, items("edge", label, "one"), () => checkNumber(cx, w, "the weight"));
    if (weight === null || weight.body.type.kind === "error") {
      const last = cx.diagnostics[cx.diagnostics.length - 1];
      if (last !== undefined && last.code === "E214") last.code = "E207";
      return none;
    }
    if (name === "ShortestPathAStar" && edge !== null) {
      const h = step.args[1]!.value;
      if (h.kind !== "Literal" || h.literal.kind !== "String") {
        cx.report("E209", "the heuristic is the name of a numeric node property, as a string", h.span);
        return none;
      }
      const field = cx.resolveField(cx.itemKindOf(edge.to) ?? "node", edge.to, { name: h.literal.value, span: h.span }, false);
      if (field === null) return none;
      if (!isNumericType(field.type)) {
        cx.report("E207", `the heuristic property must be numeric; '${field.name}' is ${helixTypeName(field.type)}`, h.span);
        return none;
      }
      heuristic = field.name;
    }
  } else if (step.args.length > 0) {
    cx.report("E209", `::${name} takes no arguments (it counts hops); use ShortestPathDijkstras for weights`, step.span);
    return none;
  }
  if (edge !== null && edge.from !== t.label) {
    cx.report("E204", `edge type ${label} goes from ${edge.from}, so a path over it cannot start at ${t.label}`, step.span);
    return none;
  }
  const next = rest[0];
  if (next === undefined || next.kind !== "Call" || (next.name.name !== "To" && next.name.name !== "From") || next.args.length !== 1) {
    cx.report("E304", `::${name} must be followed by ::To(id) or ::From(id)`, step.span);
    return none;
  }
  const toEnd = next.name.name === "To";
  const target = checkIdExpr(
    cx,
    next.args[0]!.value,
    `${name}${label === null ? "" : `<${label}>`}::${next.name.name}`,
    edge === null ? undefined : toEnd ? edge.to : edge.from,
  );
  return {
    ir: { op: "shortestPath", input, label, among, endpoint: toEnd ? "to" : "from", target, weight, heuristic, type: { kind: "paths" } },
    extra: 1,
  };
}

/**
 * The weight of a path over edges of any type: `_::{f}` reads f, so the path walks only the edge
 * types that declare it (`walk` receives them), where it must be numeric (an edge whose f is
 * absent is INVALID_WEIGHT at run time, as with a typed step); anything else is checked with `_`
 * as an edge of any type (id, label, from_node, to_node only) and walks every edge type.
 */
function checkAnyEdgeWeight(cx: Checker, w: A.Expr, walk: (edgeTypes: string[]) => void): Lambda | null {
  const anyEdge = items("edge", ANY_LABEL, "one");
  const step = w.kind === "Traversal" && w.source.kind === "Anonymous" && w.steps.length === 1 ? w.steps[0]! : null;
  const field = step?.kind === "Projection" && step.fields.length === 1 && step.fields[0]!.value === null ? step.fields[0]!.key : null;
  if (field === null) {
    const lambda = checkItemLambda(cx, anyEdge, () => checkNumber(cx, w, "the weight"));
    const last = cx.diagnostics[cx.diagnostics.length - 1];
    // E217's usual hint (write E<Type>) does not fit a path step: name the two ways that do.
    if (lambda.body.type.kind === "error" && last?.code === "E217")
      last.hint = `over edges of any type a weight reads one field alone, as _::{field}; or give the step an edge type, e.g. ShortestPathDijkstras<${cx.exampleLabel("edge")}>(..)`;
    return lambda;
  }
  const declaring = [...cx.schema.edges].filter(([, e]) => e.fields.some((f) => f.name === field.name));
  if (declaring.length === 0) {
    cx.report("E110", `no edge type declares '${field.name}', so it cannot weigh a path`, field.span);
    return null;
  }
  for (const [edgeName, e] of declaring) {
    const f = e.fields.find((x) => x.name === field.name)!;
    if (!isNumericType(f.type)) {
      cx.report("E207", `a path weight must be a number, but '${field.name}' of ${edgeName} is ${helixTypeName(f.type)}`, field.span);
      return null;
    }
  }
  walk(declaring.map(([edgeName]) => edgeName));
  const { result, depth } = cx.withAnon(anyEdge, () => cx.anon.length - 1);
  const anon: Ir = { op: "anon", depth: result, type: anyEdge };
  return { depth, body: { op: "prop", input: anon, name: field.name, type: value(F64_VALUE, true) } };
}
