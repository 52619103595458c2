// The shape of one compiled query, as emitted by the compiler into `generated/queries/<Name>.ts`.
import type { QueryContext } from "./query-context.js";
import type { ValueType } from "./schema.js";

export interface ParamSpec {
  name: string;
  type: ValueType;
  optional: boolean;
  /**
   * Present (true) when the query uses the parameter as a vector (AddV, UpsertV, SearchV): its
   * numbers must then also fit in F32, the vector index's element type.
   */
  vector?: true;
}

export interface QueryModule<P = Record<string, unknown>, R = unknown> {
  name: string;
  params: ParamSpec[];
  /** True when the query writes: it then runs in a (serialized, durable) write transaction. */
  writes: boolean;
  /** `#[mcp]` */
  mcp: boolean;
  /** The names of the RETURN object's members, in order (for introspection). */
  returns: string[];
  run(db: QueryContext, params: P): R;
}
