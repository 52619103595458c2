// `::{a, b: c, n: _::In<Follows>::COUNT, ..}`, `::!{a, b}` and `::|u|{ .. }`: reshaping items into
// objects. A single-field projection that more steps follow (`_::{age}::GT(18)`), or that is the
// value of an object member (`{name: u::{name}}`), reads the property itself instead.
import type * as A from "../syntax/ast.js";
import { ANY_LABEL, type Ir, type IrProjField, type ObjectFieldType } from "../ir/ir.js";
import { bad, describeStatic, value, withCard } from "./static-types.js";
import type { Checker } from "./context.js";
import { checkExpr } from "./recurse.js";

export function checkProjectionStep(cx: Checker, input: Ir, step: Exclude<A.Step, { kind: "Call" }>, bare: boolean): Ir {
  const t = input.type;
  if (t.kind === "error") return bad();
  if (t.kind !== "items") {
    cx.report("E203", `a projection works on nodes, edges or vectors, but its input is ${describeStatic(t)}`, step.span);
    return bad();
  }
  if (step.kind === "Projection" && bare && step.fields.length === 1 && step.fields[0]!.value === null && !step.spread) {
    const field = cx.resolveField(t.item, t.label, step.fields[0]!.key);
    if (field === null) return bad();
    const name = field.name;
    const nullable = field.default === null || t.card === "optional";
    return { op: "prop", input, name, type: t.card === "many" ? { kind: "values", type: field.type } : value(field.type, nullable) };
  }
  if (t.label === ANY_LABEL && (step.kind === "Exclusion" || step.spread)) {
    cx.reportUntyped(t, step.span, step.kind === "Exclusion" ? "a projection ::!{..}" : "a projection with '..'");
    return bad();
  }
  const one = withCard(t, "one");
  const closureVar = step.kind === "Closure" ? step.param.name : null;
  const { result, depth } = cx.withAnon(one, () =>
    cx.inScope(() => {
      if (step.kind === "Closure") cx.declare(step.param.name, { kind: "var", type: one, span: step.param.span, used: true });
      if (step.kind === "Exclusion") return { fields: [] as IrProjField[], omit: checkExclusions(cx, t.item, t.label, step.fields) };
      return { fields: checkFields(cx, t.item, t.label, step.fields), omit: [] as string[] };
    }),
  );
  const keepAll = step.kind === "Exclusion" || step.spread;
  const fieldTypes: ObjectFieldType[] = result.fields.map((f) => ({ name: f.name, type: f.value.type }));
  const omit = [...result.omit, ...(keepAll ? result.fields.map((f) => f.name) : [])];
  return {
    op: "project",
    input,
    depth,
    fields: result.fields,
    keepAll,
    omit: result.omit,
    closureVar,
    type: { kind: "object", card: t.card, fields: fieldTypes, ...(keepAll ? { base: { label: t.label, omit } } : {}) },
  };
}

function checkFields(cx: Checker, item: "node" | "edge" | "vector", label: string, fields: readonly A.ProjectionField[]): IrProjField[] {
  const out: IrProjField[] = [];
  const seen = new Set<string>();
  const anon = (): Ir => ({ op: "anon", depth: cx.anon.length - 1, type: cx.anon[cx.anon.length - 1]! });
  for (const f of fields) {
    if (seen.has(f.key.name)) {
      cx.report("E105", `'${f.key.name}' appears twice in this projection`, f.key.span);
      continue;
    }
    seen.add(f.key.name);
    // `{a}` and `{b: a}` (a a field of the item, or ID) read the property; anything else is an expression.
    const source =
      f.value === null
        ? f.key
        : f.value.kind === "Ident" && isFieldName(cx, item, label, f.value.name)
          ? { name: f.value.name, span: f.value.span }
          : null;
    if (source !== null) {
      const field = cx.resolveField(item, label, source);
      if (field === null) continue;
      const read: Ir =
        field.name === "id"
          ? { op: "idOf", input: anon(), type: value(field.type) }
          : { op: "prop", input: anon(), name: field.name, type: value(field.type, field.default === null) };
      out.push({ name: f.key.name, value: read });
      continue;
    }
    const v = checkExpr(cx, f.value!, { fieldValue: true });
    out.push({ name: f.key.name, value: v });
  }
  return out;
}

function isFieldName(cx: Checker, item: "node" | "edge" | "vector", label: string, name: string): boolean {
  if (name === "ID") return true;
  if (cx.lookup(name) !== undefined) return false;
  return cx.fieldsOf(item, label).some((f) => f.name === name) || cx.implicitFields(item, label).some((f) => f.name === name);
}

function checkExclusions(cx: Checker, item: "node" | "edge" | "vector", label: string, names: readonly A.Identifier[]): string[] {
  const out: string[] = [];
  for (const n of names) {
    const field = cx.resolveField(item, label, n);
    if (field !== null && !out.includes(field.name)) out.push(field.name);
  }
  return out;
}
