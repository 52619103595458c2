// Emitters of vector and keyword search, embedding and reranking.
import { cast, type Emitters, emitList, q } from "./emit-shared.js";

export const SEARCH_EMITTERS = {
  searchVectors: (ir, ctx, emit) =>
    cast(
      `db.searchVectors(${q(ir.label)}, ${emit(ir.vector, ctx)}, ${emit(ir.k, ctx)}${ir.ef === null ? "" : `, ${emit(ir.ef, ctx)}`})`,
      ir.type,
      ctx,
    ),
  searchAmong: (ir, ctx, emit) =>
    cast(`db.searchVectorsIn(${q(ir.label)}, ${emitList(ir.input, ctx, emit)}, ${emit(ir.vector, ctx)}, ${emit(ir.k, ctx)})`, ir.type, ctx),
  searchBM25: (ir, ctx, emit) => cast(`db.searchBM25(${q(ir.label)}, ${emit(ir.text, ctx)}, ${emit(ir.limit, ctx)})`, ir.type, ctx),
  embed: (ir, ctx, emit) => `db.embed(${emit(ir.text, ctx)}, ${ir.model === null ? "null" : q(ir.model)})`,
  rerankRRF: (ir, ctx, emit) =>
    cast(
      `db.rerankRRF([${ir.inputs.map((i) => emitList(i, ctx, emit)).join(", ")}], ${ir.k === null ? "60" : emit(ir.k, ctx)})`,
      ir.type,
      ctx,
    ),
  rerankMMR: (ir, ctx, emit) =>
    cast(`db.rerankMMR(${emitList(ir.input, ctx, emit)}, ${emit(ir.lambda, ctx)}, ${q(ir.distance)})`, ir.type, ctx),
} satisfies Partial<Emitters>;
