// Emitters of leaves (parameters, variables, literals, member reads) and of sources: the items a
// traversal starts from.
import { ITEM_LETTER, type ItemKind } from "../ir/ir.js";
import {
  cast,
  type EmitExpr,
  type Emitters,
  emitProps,
  type ExpressionContext,
  type IrOf,
  lambdaParam,
  localName,
  propertyAccess,
  q,
} from "./emit-shared.js";

export const SOURCE_EMITTERS = {
  param: (ir) => (ir.optional ? `(params.${ir.name} ?? null)` : `params.${ir.name}`),
  var: (ir) => localName(ir.name),
  anon: (ir) => lambdaParam(ir.depth),
  literal: (ir) => JSON.stringify(ir.value),
  now: () => "db.now()",
  member: emitMember,
  objectLit: (ir, ctx, emit) => emitProps(ir.entries, ctx, emit),
  arrayLit: (ir, ctx, emit) =>
    ir.type.kind === "items" ? cast("[]", ir.type, ctx) : `[${ir.elements.map((e) => emit(e, ctx)).join(", ")}]`,
  byId: (ir, ctx, emit) => cast(`db.${byIdMethod(ir.item)}(${q(ir.label)}, ${emit(ir.id, ctx)})`, ir.type, ctx),
  byIds: (ir, ctx, emit) =>
    cast(`[${ir.ids.map((i) => emit(i, ctx)).join(", ")}].map((id) => db.${byIdMethod(ir.item)}(${q(ir.label)}, id))`, ir.type, ctx),
  allOfKind: (ir, ctx) => cast(`db.itemsOfKind(${q(ITEM_LETTER[ir.item])})`, ir.type, ctx),
  anyById: (ir, ctx, emit) => cast(`db.itemOfKindById(${q(ITEM_LETTER[ir.item])}, ${emit(ir.id, ctx)})`, ir.type, ctx),
  anyByIds: (ir, ctx, emit) =>
    cast(`[${ir.ids.map((i) => emit(i, ctx)).join(", ")}].map((id) => db.itemOfKindById(${q(ITEM_LETTER[ir.item])}, id))`, ir.type, ctx),
  byLabel: (ir, ctx) =>
    cast(
      `db.${ir.item === "edge" ? "edgesByLabel" : ir.item === "vector" ? "vectorsByLabel" : "nodesByLabel"}(${q(ir.label)})`,
      ir.type,
      ctx,
    ),
  byIndex: emitByIndex,
} satisfies Partial<Emitters>;

function emitMember(ir: IrOf<"member">, ctx: ExpressionContext, emit: EmitExpr): string {
  const nullable = ir.input.type.kind === "value" && ir.input.type.nullable === true;
  const plain = /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(ir.name);
  const access = `${emit(ir.input, ctx)}${nullable ? "?." : plain ? "." : ""}${propertyAccess(ir.name)}`;
  return ir.type.kind === "value" && ir.type.nullable === true ? `(${access} ?? null)` : access;
}

/** A key lookup, UNIQUE INDEX or not: the first match (lowest id) or null, as HelixDB. */
function emitByIndex(ir: IrOf<"byIndex">, ctx: ExpressionContext, emit: EmitExpr): string {
  const lookup = `db.${ir.item === "edge" ? "edgesByIndex" : "nodesByIndex"}(${q(ir.label)}, ${q(ir.field)}, ${emit(ir.value, ctx)}, 1)`;
  return cast(`db.first(${lookup})`, ir.type, ctx);
}

function byIdMethod(item: ItemKind): string {
  return item === "edge" ? "edgeById" : item === "vector" ? "vectorById" : "nodeById";
}
