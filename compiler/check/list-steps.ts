// Steps that shape a list: RANGE, ORDER (and FIRST's list check), GROUP_BY and AGGREGATE_BY.
import type * as A from "../syntax/ast.js";
import { helixTypeName } from "../../core/schema.js";
import type { Ir, StaticType } from "../ir/ir.js";

import { bad, describeStatic, withCard } from "./static-types.js";
import { type Checker, checkItemLambda } from "./context.js";
import { checkExpr } from "./recurse.js";
import { checkIntegerArg } from "./demands.js";

/** Items, values or projected objects held as a list (RANGE, FIRST, ORDER accept all three). */
export function listLike(cx: Checker, input: Ir, step: A.Step & { kind: "Call" }, what: string): StaticType | null {
  const t = input.type;
  if (t.kind === "items" || t.kind === "values" || (t.kind === "object" && t.card === "many")) return t;
  if (t.kind === "error") return null;
  cx.report("E203", `${what} works on a list, but its input is ${describeStatic(t)}`, step.name.span);
  return null;
}

export function checkRange(cx: Checker, input: Ir, step: A.Step & { kind: "Call" }): Ir {
  const t = listLike(cx, input, step, "::RANGE");
  if (t === null) return bad();
  if (step.args.length !== 2) {
    cx.report("E209", "RANGE takes two arguments: RANGE(start, end)", step.span);
    return bad();
  }
  const start = checkIntegerArg(cx, step.args[0]!.value, "RANGE start");
  const end = checkIntegerArg(cx, step.args[1]!.value, "RANGE end");
  if (
    start.op === "literal" &&
    end.op === "literal" &&
    typeof start.value === "number" &&
    typeof end.value === "number" &&
    end.value < start.value
  ) {
    cx.report("E205", `RANGE end (${end.value}) is before its start (${start.value})`, step.args[1]!.span);
    return bad();
  }
  return { op: "range", input, start, end, type: t.kind === "items" ? withCard(t, "many") : t };
}

export function checkOrder(cx: Checker, input: Ir, step: A.Step & { kind: "Call" }): Ir {
  const t = cx.requireItems(input, step, "::ORDER", ["node", "edge", "vector"]);
  if (t === null) return bad();
  const dir = step.typeArg?.name;
  if (dir !== "Asc" && dir !== "Desc") {
    // `ORDER(age)`, `ORDER_BY`-style: show the HelixQL form with the key read from the item.
    const arg = step.args.length === 1 ? step.args[0]!.value : null;
    const field = arg?.kind === "Ident" && cx.fieldsOf(t.item, t.label).some((f) => f.name === arg.name) ? arg.name : "field";
    cx.report(
      "E208",
      `ORDER needs a direction: ORDER<Asc>(..) or ORDER<Desc>(..)`,
      step.typeArg?.span ?? step.span,
      `write ::ORDER<Asc>(_::{${field}}) (smallest first) or ::ORDER<Desc>(_::{${field}})`,
    );
    return bad();
  }
  if (step.args.length !== 1) {
    cx.report("E209", `ORDER takes one key, e.g. ORDER<${dir}>(_::{age})`, step.span);
    return bad();
  }
  const key = checkItemLambda(cx, t, () => checkExpr(cx, step.args[0]!.value, { fieldValue: true }));
  if (key.body.type.kind === "error") return bad();
  if (key.body.type.kind !== "value" || key.body.type.type.kind !== "scalar") {
    const what = key.body.type.kind === "value" ? helixTypeName(key.body.type.type) : describeStatic(key.body.type);
    cx.report("E206", `an ORDER key must be a number, string, date, id or boolean, but this is ${what}`, step.args[0]!.span);
    return bad();
  }
  return { op: "order", input, key, direction: dir === "Asc" ? "asc" : "desc", type: withCard(t, "many") };
}

export function checkGrouping(cx: Checker, input: Ir, step: A.Step & { kind: "Call" }, op: "groupBy" | "aggregateBy"): Ir {
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
    const ident =
      v.kind === "Ident"
        ? { name: v.name, span: v.span }
        : v.kind === "Traversal" && v.source.kind === "Var" && v.steps.length === 0
          ? v.source.name
          : null;
    if (ident === null) {
      cx.report("E209", `::${step.name.name} takes property names, e.g. ::${step.name.name}(city, age)`, v.span);
      return bad();
    }
    const field = cx.resolveField(t.item, t.label, ident, true);
    if (field === null) return bad();
    properties.push(field.name);
  }
  return op === "groupBy"
    ? { op, input, properties, type: { kind: "groups" } }
    : { op, input, properties, type: { kind: "aggregates", item: t.item, label: t.label } };
}
