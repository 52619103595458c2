// Emitters of writes: adding, updating and upserting nodes, edges and vectors.
import type { Ir } from "../ir/ir.js";
import {
  cast,
  type EmitExpr,
  type Emitters,
  emitList,
  emitProps,
  type ExpressionContext,
  type IrOf,
  lambdaParam,
  q,
  sameCardinality,
} from "./emit-shared.js";

export const WRITE_EMITTERS = {
  addNode: (ir, ctx, emit) => cast(`db.addNode(${q(ir.label)}, ${emitProps(ir.props, ctx, emit)})`, ir.type, ctx),
  addEdge: emitAddEdge,
  addVector: (ir, ctx, emit) =>
    cast(`db.addVector(${q(ir.label)}, ${emit(ir.vector, ctx)}, ${emitProps(ir.props, ctx, emit)})`, ir.type, ctx),
  update: emitUpdate,
  upsertNode: (ir, ctx, emit) =>
    cast(`db.upsertNode(${q(ir.label)}, ${emitList(ir.input, ctx, emit)}, ${emitProps(ir.props, ctx, emit)})`, ir.type, ctx),
  upsertEdge: emitUpsertEdge,
  upsertVector: (ir, ctx, emit) =>
    cast(
      `db.upsertVector(${q(ir.label)}, ${emitList(ir.input, ctx, emit)}, ${emit(ir.vector, ctx)}, ${emitProps(ir.props, ctx, emit)})`,
      ir.type,
      ctx,
    ),
} satisfies Partial<Emitters>;

function emitAddEdge(ir: IrOf<"addEdge">, ctx: ExpressionContext, emit: EmitExpr): string {
  if (isIdList(ir.from) || isIdList(ir.to))
    return cast(
      `db.addEdges(${q(ir.label)}, ${emitProps(ir.props, ctx, emit)}, ${emitIds(ir.from, ctx, emit)}, ${emitIds(ir.to, ctx, emit)})`,
      ir.type,
      ctx,
    );
  return cast(`db.addEdge(${q(ir.label)}, ${emitProps(ir.props, ctx, emit)}, ${emit(ir.from, ctx)}, ${emit(ir.to, ctx)})`, ir.type, ctx);
}

function emitUpdate(ir: IrOf<"update">, ctx: ExpressionContext, emit: EmitExpr): string {
  const method = ir.type.kind === "items" && ir.type.item === "edge" ? "updateEdges" : "updateNodes";
  // Values that use `_` are computed per item, from the item as stored when it is updated.
  const props =
    ir.itemDepth === null ? emitProps(ir.props, ctx, emit) : `(${lambdaParam(ir.itemDepth)}) => (${emitProps(ir.props, ctx, emit)})`;
  return sameCardinality(`db.${method}(${emitList(ir.input, ctx, emit)}, ${props})`, ir.input.type, ir.type, ctx);
}

function emitUpsertEdge(ir: IrOf<"upsertEdge">, ctx: ExpressionContext, emit: EmitExpr): string {
  const head = `${q(ir.label)}, ${emitList(ir.input, ctx, emit)}, ${emitProps(ir.props, ctx, emit)}`;
  if (isIdList(ir.from) || isIdList(ir.to))
    return cast(`db.upsertEdges(${head}, ${emitIds(ir.from, ctx, emit)}, ${emitIds(ir.to, ctx, emit)})`, ir.type, ctx);
  return cast(`db.upsertEdge(${head}, ${emit(ir.from, ctx)}, ${emit(ir.to, ctx)})`, ir.type, ctx);
}

/** An edge end that names several items: ids of a list of items, or a list of ID values. */
function isIdList(end: Ir): boolean {
  return end.type.kind === "values" || (end.type.kind === "value" && end.type.type.kind === "array");
}

/** An edge end as an array of ids: a list as it is, one id as a list of one. */
function emitIds(end: Ir, ctx: ExpressionContext, emit: EmitExpr): string {
  return isIdList(end) ? emit(end, ctx) : `[${emit(end, ctx)}]`;
}
