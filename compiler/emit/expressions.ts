// Turns IR expressions into TypeScript expression text over the QueryContext `db`.
// Items keep their schema type through casts (`as User[]`), so the generated handler's result is
// checked against its declared result type by `tsc --strict`.
// Each IR op has one emitter in a table (emit-sources.ts, emit-writes.ts, emit-search.ts,
// emit-steps.ts, emit-values.ts); `Emitters` requires a key for every op.
import type { Ir } from "../ir/ir.js";
import type { Emitters, ExpressionContext, IrOf } from "./emit-shared.js";
import { SEARCH_EMITTERS } from "./emit-search.js";
import { SOURCE_EMITTERS } from "./emit-sources.js";
import { STEP_EMITTERS } from "./emit-steps.js";
import { VALUE_EMITTERS } from "./emit-values.js";
import { WRITE_EMITTERS } from "./emit-writes.js";

export {
  type ExpressionContext,
  type KindLabels,
  lambdaParam,
  localName,
  propertyKey,
  tsTypeOfStatic,
} from "./emit-shared.js";

const EMITTERS: Emitters = { ...SOURCE_EMITTERS, ...WRITE_EMITTERS, ...SEARCH_EMITTERS, ...STEP_EMITTERS, ...VALUE_EMITTERS };

/** Generic over the op, so `EMITTERS[ir.op]` types as the emitter of exactly that op: no cast. */
export function emitExpr<K extends Ir["op"]>(ir: IrOf<K>, ctx: ExpressionContext): string {
  return EMITTERS[ir.op](ir, ctx, emitExpr);
}
