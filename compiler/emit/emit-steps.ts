// Emitters of traversal steps: graph steps, counting, paging, ordering, filtering and grouping.
import type { Ir, IrIndexCondition, ItemKind, Lambda, StaticType } from "../ir/ir.js";
import { adjacencyChain, stepsConstant } from "./adjacency-count.js";
import {
  cast,
  type EmitExpr,
  type Emitters,
  emitLambda,
  emitList,
  emitListLambda,
  type ExpressionContext,
  type IrOf,
  q,
  sameCardinality,
} from "./emit-shared.js";

export const STEP_EMITTERS = {
  adjacent: (ir, ctx, emit) => cast(`db.${ir.direction}(${emitList(ir.input, ctx, emit)}, ${q(ir.label)})`, ir.type, ctx),
  endpoint: (ir, ctx, emit) => sameCardinality(`db.${ir.end}(${emitList(ir.input, ctx, emit)})`, ir.input.type, ir.type, ctx),
  count: (ir, ctx, emit) => {
    const counted = countAdjacent(ir.input, ctx, emit);
    return counted !== null ? `${counted})` : `db.count(${emitList(ir.input, ctx, emit)})`;
  },
  exists: (ir, ctx, emit) => {
    const counted = countAdjacent(ir.input, ctx, emit);
    return counted !== null ? `(${counted}, 1) > 0)` : `(${emitList(ir.input, ctx, emit)}.length > 0)`;
  },
  range: emitRange,
  order: (ir, ctx, emit) => `db.order(${emitList(ir.input, ctx, emit)}, ${emitLambda(ir.key, ctx, emit)}, ${q(ir.direction)})`,
  first: emitFirst,
  dedup: (ir, ctx, emit) => `db.dedup(${emitList(ir.input, ctx, emit)})`,
  filter: emitFilter,
  intersect: (ir, ctx, emit) => cast(`db.intersect(${emitList(ir.input, ctx, emit)}, ${emitListLambda(ir.sub, ctx, emit)})`, ir.type, ctx),
  groupBy: (ir, ctx, emit) => `db.groupBy(${emitList(ir.input, ctx, emit)}, ${JSON.stringify(ir.properties)})`,
  aggregateBy: (ir, ctx, emit) => `db.aggregateBy(${emitList(ir.input, ctx, emit)}, ${JSON.stringify(ir.properties)})`,
  shortestPath: emitShortestPath,
} satisfies Partial<Emitters>;

/**
 * For COUNT and EXISTS of a chain of graph steps: `db.countAdjacent(base, $stepsN` without its
 * last argument and closing parenthesis, which each adds (adjacency-count.ts); null otherwise.
 */
function countAdjacent(input: Ir, ctx: ExpressionContext, emit: EmitExpr): string | null {
  const chain = adjacencyChain(input);
  return chain && `db.countAdjacent(${emitList(chain.base, ctx, emit)}, ${stepsConstant(chain.steps, ctx.constants)}`;
}

function emitRange(ir: IrOf<"range">, ctx: ExpressionContext, emit: EmitExpr): string {
  const scan = labelScan(ir.input);
  if (scan !== null) return emitScan(scan, `, ${emit(ir.start, ctx)}, ${emit(ir.end, ctx)}`, ctx, emit);
  return `db.range(${emitList(ir.input, ctx, emit)}, ${emit(ir.start, ctx)}, ${emit(ir.end, ctx)})`;
}

function emitFirst(ir: IrOf<"first">, ctx: ExpressionContext, emit: EmitExpr): string {
  const scan = labelScan(ir.input);
  if (scan !== null) return `db.first(${emitScan(scan, ", 0, 1", ctx, emit)})`;
  return `db.first(${emitList(ir.input, ctx, emit)})`;
}

function emitFilter(ir: IrOf<"filter">, ctx: ExpressionContext, emit: EmitExpr): string {
  if (ir.input.op === "searchVectors") return emitFilteredSearch(ir.input, ir, ctx, emit);
  if (ir.input.op === "searchBM25") return emitFilteredKeywordSearch(ir.input, ir, ctx, emit);
  const scan = labelScan(ir);
  const filtered =
    scan !== null ? emitScan(scan, "", ctx, emit) : `db.filter(${emitList(ir.input, ctx, emit)}, ${emitLambda(ir.predicate, ctx, emit)})`;
  return ir.type.kind === "items" && ir.type.card === "many" ? filtered : `db.first(${filtered})`;
}

/**
 * `SearchV<T>(v, k)::WHERE(p)`: the best k of the vectors that pass, not the best k filtered
 * afterwards (which left fewer than k, or none); conditions an INDEX serves go along.
 */
function emitFilteredSearch(search: IrOf<"searchVectors">, ir: IrOf<"filter">, ctx: ExpressionContext, emit: EmitExpr): string {
  const ef = search.ef === null ? "null" : emit(search.ef, ctx);
  const index =
    ir.index === undefined
      ? ""
      : `, [${ir.index.map((c) => `{ field: ${q(c.field)}, op: ${q(c.op)}, value: ${emit(c.value, ctx)} }`).join(", ")}]`;
  const call = cast(
    `db.searchVectorsWhere(${q(search.label)}, ${emit(search.vector, ctx)}, ${emit(search.k, ctx)}, ${ef}, ${emitLambda(ir.predicate, ctx, emit)}${index})`,
    search.type,
    ctx,
  );
  return ir.type.kind === "items" && ir.type.card === "many" ? call : `db.first(${call})`;
}

/** `SearchBM25<T>(text, limit)::WHERE(p)`: the best `limit` of the documents that pass. */
function emitFilteredKeywordSearch(search: IrOf<"searchBM25">, ir: IrOf<"filter">, ctx: ExpressionContext, emit: EmitExpr): string {
  const call = cast(
    `db.searchBM25Where(${q(search.label)}, ${emit(search.text, ctx)}, ${emit(search.limit, ctx)}, ${emitLambda(ir.predicate, ctx, emit)})`,
    search.type,
    ctx,
  );
  return ir.type.kind === "items" && ir.type.card === "many" ? call : `db.first(${call})`;
}

function emitShortestPath(ir: IrOf<"shortestPath">, ctx: ExpressionContext, emit: EmitExpr): string {
  const endpoint = `{ ${ir.endpoint}: ${emit(ir.target, ctx)} }`;
  const weight = ir.weight === null ? "null" : emitLambda(ir.weight, ctx, emit);
  const heuristic = ir.heuristic === null ? "" : `, ${q(ir.heuristic)}`;
  const label = ir.label !== null ? q(ir.label) : ir.among !== null ? JSON.stringify(ir.among) : "null";
  return `db.shortestPath(${emitList(ir.input, ctx, emit)}, ${label}, ${endpoint}, ${weight}${heuristic})`;
}

interface LabelScan {
  item: ItemKind;
  label: string;
  predicate: Lambda;
  index: readonly IrIndexCondition[] | undefined;
  type: StaticType & { kind: "items" };
}

/**
 * `N<T>::WHERE(p)` (nodes or vectors): one pass over the label that keeps only matches, so
 * RANGE and FIRST after it stop early instead of decoding every record first. With conditions
 * an INDEX serves (also on edges), the candidates come from the index instead.
 */
function labelScan(ir: Ir): LabelScan | null {
  if (ir.op !== "filter" || ir.input.op !== "byLabel" || ir.type.kind !== "items" || ir.type.card !== "many") return null;
  if (ir.input.item === "edge" && ir.index === undefined) return null;
  return { item: ir.input.item, label: ir.input.label, predicate: ir.predicate, index: ir.index, type: ir.type };
}

/** The scan as a call; `bounds` is "" or `, start, end`. */
function emitScan(scan: LabelScan, bounds: string, ctx: ExpressionContext, emit: EmitExpr): string {
  const predicate = emitLambda(scan.predicate, ctx, emit);
  const type = { ...scan.type, card: "many" as const };
  if (scan.index === undefined) return cast(`db.nodesWhere(${q(scan.label)}, ${predicate}${bounds})`, type, ctx);
  const conditions = scan.index.map((c) => `{ field: ${q(c.field)}, op: ${q(c.op)}, value: ${emit(c.value, ctx)} }`);
  const kind = scan.item === "edge" ? "E" : "N";
  return cast(`db.itemsWhereIndexed(${q(kind)}, ${q(scan.label)}, [${conditions.join(", ")}], ${predicate}${bounds})`, type, ctx);
}
