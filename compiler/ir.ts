// The checked intermediate representation: what the analyzer hands the code generator. Every
// expression carries its static type, so the generator never re-derives meaning from syntax.
import type { ParamSpec } from "../runtime/query-module.js";
import type { CompareOp } from "../runtime/query-context.js";
import type { JsonValue, ValueType } from "../runtime/schema.js";

/** How many items a traversal holds: exactly one (else 404), zero or one, or a list. */
export type Cardinality = "one" | "optional" | "many";
export type ItemKind = "node" | "edge";

export type StaticType =
  | { kind: "items"; item: ItemKind; label: string; card: Cardinality }
  | { kind: "value"; type: ValueType }
  | { kind: "boolean" }
  | { kind: "groups" }
  | { kind: "aggregates"; item: ItemKind; label: string }
  | { kind: "paths" }
  /** produced after an error was reported, so one mistake does not cascade into many */
  | { kind: "error" };

export interface IrProp {
  name: string;
  value: Ir;
}

export type IrNode =
  /** `optional`: declared `p?: T`; absent in the request, it reads as null (a field "not given"). */
  | { op: "param"; name: string; optional: boolean }
  | { op: "var"; name: string }
  /** the item `_` stands for inside a lambda; depth counts nested lambdas from 0 */
  | { op: "anon"; depth: number }
  | { op: "literal"; value: JsonValue }
  | { op: "now" }
  | { op: "nodeById"; label: string; id: Ir }
  | { op: "nodesByLabel"; label: string }
  | { op: "nodesByIndex"; label: string; field: string; value: Ir }
  | { op: "edgeById"; label: string; id: Ir }
  | { op: "edgesByLabel"; label: string }
  | { op: "addNode"; label: string; props: IrProp[] }
  | { op: "addEdge"; label: string; props: IrProp[]; from: Ir; to: Ir }
  | { op: "update"; input: Ir; props: IrProp[] }
  | { op: "adjacent"; direction: "out" | "in" | "outE" | "inE"; input: Ir; label: string }
  | { op: "endpoint"; end: "fromN" | "toN"; input: Ir }
  | { op: "count"; input: Ir }
  | { op: "range"; input: Ir; start: Ir; end: Ir }
  | { op: "order"; input: Ir; key: Lambda; direction: "asc" | "desc" }
  | { op: "first"; input: Ir }
  | { op: "filter"; input: Ir; predicate: Lambda }
  | { op: "groupBy"; input: Ir; properties: string[] }
  | { op: "aggregateBy"; input: Ir; properties: string[] }
  | { op: "shortestPath"; input: Ir; label: string; endpoint: "to" | "from"; target: Ir; weight: Lambda | null }
  | { op: "prop"; input: Ir; name: string }
  | { op: "compare"; cmp: CompareOp; left: Ir; right: Ir }
  | { op: "logic"; kind: "and" | "or"; args: Ir[] }
  | { op: "not"; operand: Ir }
  /** the id of a single item, or an ID value passed through */
  | { op: "idOf"; input: Ir };

export type Ir = IrNode & { type: StaticType };

/** A one-argument function over the item `_` (at `depth`). */
export interface Lambda {
  depth: number;
  body: Ir;
}

export type IrStatement = { kind: "let"; name: string; value: Ir } | { kind: "eval"; value: Ir };

export interface IrReturn {
  key: string;
  value: Ir;
}

export interface QueryIr {
  name: string;
  params: ParamSpec[];
  writes: boolean;
  mcp: boolean;
  /** `#[model("...")]`, null when absent */
  model: string | null;
  statements: IrStatement[];
  /** null for a query without RETURN; [] for RETURN NONE */
  returns: IrReturn[] | null;
  /** the source file the query came from, for the generated header */
  file: string;
}
