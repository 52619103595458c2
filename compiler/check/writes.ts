// Steps and helpers that write: ::UPDATE, the Upsert family (as a step or a source), the
// `::From(..)::To(..)` ends of a new edge, and the `({field: value})` property objects of writes.
import type * as A from "../syntax/ast.js";
import type { Ir, IrProp, ItemKind } from "../ir/ir.js";
import { bad, items, withCard } from "./static-types.js";
import type { Checker, StepResult } from "./context.js";
import { checkIdExpr, checkValueFor, checkVectorArg } from "./demands.js";

export function checkUpdate(cx: Checker, input: Ir, step: A.Step & { kind: "Call" }): Ir {
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

/**
 * `existing::UpsertN({..})`: update the first item of the input, or create one.
 * `existing::UpsertE({..})::From(a)::To(b)`, `existing::UpsertV(vector, {..})`.
 */
export function checkUpsert(cx: Checker, input: Ir, step: A.Step & { kind: "Call" }, rest: readonly A.Step[]): StepResult {
  const name = step.name.name as "UpsertN" | "UpsertE" | "UpsertV";
  const kind = name === "UpsertN" ? "node" : name === "UpsertE" ? "edge" : "vector";
  const t = cx.requireItems(input, step, `::${name}`, [kind]);
  if (t === null) return { ir: bad(), extra: 0 };
  if (step.typeArg !== null && step.typeArg.name !== t.label) {
    cx.report(
      "E204",
      `::${name}<${step.typeArg.name}> on ${t.label} items`,
      step.typeArg.span,
      `the type comes from the input; write ::${name}(..)`,
    );
    return { ir: bad(), extra: 0 };
  }
  return upsert(cx, name, input, t.label, step.args, step, rest);
}

export function upsert(
  cx: Checker,
  name: "UpsertN" | "UpsertE" | "UpsertV",
  input: Ir,
  label: string,
  args: readonly A.Arg[],
  at: A.Spanned,
  rest: readonly A.Step[],
): StepResult {
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
  return {
    ir: {
      op: "upsertEdge",
      input,
      label,
      props,
      from: ends.from,
      to: ends.to,
      type: items("edge", label, isEndList(ends.from) || isEndList(ends.to) ? "many" : "one"),
    },
    extra: ends.consumed,
  };
}

/** `::From(a)::To(b)` (either order) after AddE / UpsertE. */
export function edgeEnds(
  cx: Checker,
  label: string,
  steps: readonly A.Step[],
  at: A.Spanned,
  form: string,
): { from: Ir; to: Ir; consumed: number } | null {
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
    // Several items (or ids) at an end: one edge per item, a cross product when both are lists.
    const end = checkIdExpr(
      cx,
      step.args[0]!.value,
      `${form}<${label}>::${step.name.name}`,
      step.name.name === "From" ? edge.from : edge.to,
      true,
    );
    if (step.name.name === "From") from = end;
    else to = end;
    consumed++;
  }
  if (from === null || to === null) {
    cx.report(
      "E303",
      `${form}<${label}> needs both ::From(..) and ::To(..)`,
      at.span,
      `e.g. ${form}<${label}>::From(${edge.from.toLowerCase()}Id)::To(${edge.to.toLowerCase()}Id)`,
    );
    return null;
  }
  return { from, to, consumed };
}

/** Whether an edge end names several items (a list of ids): the write then yields a list of edges. */
export function isEndList(end: Ir): boolean {
  return end.type.kind === "values" || (end.type.kind === "value" && end.type.type.kind === "array");
}

/** `({field: value, ...})` of AddN/AddE/AddV/UPDATE/Upsert*, checked against the type's fields. */
export function checkPropsArg(cx: Checker, args: readonly A.Arg[], item: ItemKind, label: string): IrProp[] {
  if (args.length === 0) return [];
  const arg = args[0]!.value;
  if (args.length > 1 || arg.kind !== "Object") {
    cx.report("E209", `expected one object of properties, e.g. ({name: name})`, args.length > 1 ? args[1]!.span : arg.span);
    return [];
  }
  const props: IrProp[] = [];
  const seen = new Set<string>();
  for (const entry of arg.entries) {
    const field = cx.resolveField(item, label, entry.key, false);
    if (field === null) continue;
    if (seen.has(field.name)) {
      cx.report("E105", `property '${field.name}' is given twice`, entry.key.span);
      continue;
    }
    seen.add(field.name);
    props.push({ name: field.name, value: checkValueFor(cx, entry.value, field.type, `field '${field.name}'`) });
  }
  return props;
}
