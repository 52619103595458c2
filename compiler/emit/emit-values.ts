// Emitters of values: properties, projections, comparisons, logic, math, aggregates and ids.
import { ITEM_LETTER, type Ir } from "../ir/ir.js";
import { tsTypeOf } from "../ir/value-types.js";
import {
  type EmitExpr,
  type Emitters,
  emitList,
  type ExpressionContext,
  type IrOf,
  lambdaParam,
  nonNull,
  localName,
  propertyAccess,
  propertyKey,
  q,
  tsTypeOfStatic,
} from "./emit-shared.js";

export const VALUE_EMITTERS = {
  prop: emitProp,
  project: emitProject,
  compare: emitCompare,
  contains: (ir, ctx, emit) => `db.contains(${emit(ir.left, ctx)}, ${emit(ir.right, ctx)})`,
  isIn: emitIsIn,
  logic: (ir, ctx, emit) => `(${ir.args.map((a) => emit(a, ctx)).join(ir.kind === "and" ? " && " : " || ")})`,
  not: (ir, ctx, emit) => `!${emit(ir.operand, ctx)}`,
  math: emitMath,
  pluck: (ir, ctx, emit) =>
    `${emit(ir.input, ctx)}.map((o) => o${propertyAccess(ir.name).startsWith("[") ? "" : "."}${propertyAccess(ir.name)})`,
  aggregate: emitAggregate,
  idOf: emitIdOf,
} satisfies Partial<Emitters>;

function emitProp(ir: IrOf<"prop">, ctx: ExpressionContext, emit: EmitExpr): string {
  const t = ir.input.type;
  const valueType =
    ir.type.kind === "value" ? tsTypeOfStatic(ir.type, ctx) : ir.type.kind === "values" ? `${tsTypeOf(ir.type.type)} | null` : "unknown";
  const as = ctx.types === false ? "" : ` as ${valueType}`;
  if (t.kind === "items" && t.card === "many") return `${emitList(ir.input, ctx, emit)}.map((v) => db.prop(v, ${q(ir.name)})${as})`;
  return `(db.prop(${emit(ir.input, ctx)}, ${q(ir.name)})${as})`;
}

function emitProject(ir: IrOf<"project">, ctx: ExpressionContext, emit: EmitExpr): string {
  const it = lambdaParam(ir.depth);
  const parts: string[] = [];
  if (ir.keepAll) parts.push(ir.omit.length === 0 ? `...${it}` : `...db.omit(${it}, ${JSON.stringify(ir.omit)})`);
  for (const f of ir.fields) parts.push(`${propertyKey(f.name)}: ${emit(f.value, ctx)}`);
  const object = `({ ${parts.join(", ")} })`;
  const body = ir.closureVar === null ? object : `{ const ${localName(ir.closureVar)} = ${it}; return ${object}; }`;
  const t = ir.input.type;
  const oneType = ir.type.kind === "object" ? tsTypeOfStatic({ ...ir.type, card: "one" }, ctx) : "unknown";
  const fn = ctx.types === false ? `(${it}) => ${body}` : `(${it}): ${oneType} => ${body}`;
  if (t.kind === "items" && t.card === "many") return `${emit(ir.input, ctx)}.map(${fn})`;
  if (t.kind === "items" && t.card === "optional") {
    ctx.usesList = true;
    return `db.first(list(${emit(ir.input, ctx)}).map(${fn}))`;
  }
  return `[${emit(ir.input, ctx)}].map(${fn})[0]${nonNull(ctx)}`;
}

function emitCompare(ir: IrOf<"compare">, ctx: ExpressionContext, emit: EmitExpr): string {
  // Right before left: module constants ($math0, $steps0 ..) are numbered in emission order.
  const right = emit(ir.right, ctx);
  if (ir.left.type.kind === "values") return `${emit(ir.left, ctx)}.some((v) => db.compare(${q(ir.cmp)}, v, ${right}))`;
  return `db.compare(${q(ir.cmp)}, ${emit(ir.left, ctx)}, ${right})`;
}

function emitIsIn(ir: IrOf<"isIn">, ctx: ExpressionContext, emit: EmitExpr): string {
  // An array value is in the list when any of its elements is.
  if (ir.anyElement) return `(${emit(ir.left, ctx)} ?? []).some((v) => db.isIn(v, ${emit(ir.right, ctx)}))`;
  return `db.isIn(${emit(ir.left, ctx)}, ${emit(ir.right, ctx)})`;
}

function emitMath(ir: IrOf<"math">, ctx: ExpressionContext, emit: EmitExpr): string {
  const args = ir.args.map((a) => emit(a, ctx)).join(", ");
  const sources = ir.args.map((a) => mathSource(a));
  if (sources.every((s) => s === null)) return `db.math(${q(ir.fn)}, [${args}])`;
  // The static part of the sources is one module constant per distinct text; only the items
  // (what the message names when an argument is absent) are passed per call.
  const init = `[${sources.map((s) => (s === null ? "null" : `{ text: ${q(s.text)}, kind: ${q(s.kind)} }`)).join(", ")}] as const`;
  let name = ctx.constants.get(init);
  if (name === undefined) {
    name = `$math${ctx.constants.size}`;
    ctx.constants.set(init, name);
  }
  const items = sources.map((s) => (s === null ? "null" : emit(s.item, ctx)));
  while (items.at(-1) === "null") items.pop();
  return `db.math(${q(ir.fn)}, [${args}], ${name}${items.map((i) => `, ${i}`).join("")})`;
}

/**
 * For a math argument that may be absent, where the error says it came from (`_::{n}` of item
 * N::C ..): a property of `_` or of a variable holding one item, whose expression is free to
 * evaluate again (the item); null for anything else.
 */
function mathSource(ir: Ir): { text: string; kind: "N" | "E" | "V"; item: Ir } | null {
  if (ir.op !== "prop" || ir.type.kind !== "value" || ir.type.nullable !== true) return null;
  const input = ir.input;
  const t = input.type;
  if (t.kind !== "items" || t.card === "many" || (input.op !== "anon" && input.op !== "var")) return null;
  return { text: `${input.op === "anon" ? "_" : input.name}::{${ir.name}}`, kind: ITEM_LETTER[t.item], item: input };
}

function emitAggregate(ir: IrOf<"aggregate">, ctx: ExpressionContext, emit: EmitExpr): string {
  // An array value (one item's array field) may be absent: no elements.
  const list = ir.input.type.kind === "value" ? `(${emit(ir.input, ctx)} ?? [])` : emit(ir.input, ctx);
  const call = `db.aggregate(${q(ir.fn)}, ${list})`;
  // SUM and COUNT of an empty list are 0, never null.
  return ir.type.kind === "value" && ir.type.nullable === true ? call : `(${call} ?? 0)`;
}

function emitIdOf(ir: IrOf<"idOf">, ctx: ExpressionContext, emit: EmitExpr): string {
  const t = ir.input.type;
  if (t.kind !== "items") return emit(ir.input, ctx);
  if (t.card === "one") return `${emit(ir.input, ctx)}.id`;
  if (t.card === "many") return `${emitList(ir.input, ctx, emit)}.map((v) => v.id)`;
  if (ir.type.kind === "value" && ir.type.nullable === true) return `(${emit(ir.input, ctx)}?.id ?? null)`;
  // Absent, an item in an id position names nothing: 404 naming the variable and its lookup.
  const a = ir.absent;
  if (a === undefined) return `(${emit(ir.input, ctx)}?.id ?? db.absent(${q("the item")}, null, null))`;
  const lookup = a.lookup === null ? "null" : `[${q(a.lookup.before)}, ${q(a.lookup.after)}], ${emit(a.lookup.value, ctx)}`;
  return `(${emit(ir.input, ctx)}?.id ?? db.absent(${q(a.place)}, ${a.name === null ? "null" : q(a.name)}, ${lookup}))`;
}
