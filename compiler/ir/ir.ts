// The checked intermediate representation: what the analyzer hands the code generator. Every
// expression carries its static type, so the generator never re-derives meaning from syntax.
// Static types are items of a label (node, edge or vector) with a cardinality, a value or a list of
// values, projected objects, a condition, group counts or paths. Cardinality decides the wire
// shape: `N<T>(id)` is an object (404 when absent); `::FIRST` and a lookup by an indexed field are
// an object or null; steps yield arrays; an AddE or UpsertE with a list at an end is a list of edges.
import type { ParamSpec } from "../../core/query-module.js";
import type { CompareOp } from "../../core/query-context.js";
import type { AggregateFn, MathFn } from "../../core/functions.js";
import type { JsonValue, ValueType } from "../../core/schema.js";

/** How many items a traversal holds: exactly one (else 404), zero or one, or a list. */
export type Cardinality = "one" | "optional" | "many";
/** Vectors are graph items like nodes (they have edges), with an embedding and a search score. */
export type ItemKind = "node" | "edge" | "vector";
/** The source letter of each kind: `N<T>`, `E<T>`, `V<T>` (runtime/query/context.ts maps back for messages). */
export const ITEM_LETTER: Readonly<Record<ItemKind, "N" | "E" | "V">> = { node: "N", edge: "E", vector: "V" };
/** Each kind as a word in messages: "node", "edge", "vector". */
export const ITEM_WORD: Readonly<Record<ItemKind, string>> = { node: "node", edge: "edge", vector: "vector" };

export interface ObjectFieldType {
  name: string;
  type: StaticType;
}

/**
 * The label of items of any type of their kind: what the untyped sources `N`, `E`, `V`, `N(id)`,
 * `E(id)`, `V(id)` and `N(a, b)` hold. No HelixQL type can be named `*`. Only steps that need no
 * field of a type accept it (RETURN, COUNT, RANGE, FIRST, Dedup, ID, `::{id, label}`, WHERE on
 * id/label, DROP, FOR); the rest are E217 (`Checker.requireItems`, `Checker.resolveField`).
 * Generated code types such items as the union of the kind's record types.
 */
export const ANY_LABEL = "*";

export type StaticType =
  | { kind: "items"; item: ItemKind /** a type name, or ANY_LABEL */; label: string; card: Cardinality }
  /** one value; `nullable` when it may be absent (a field without a default, an optional param) */
  | { kind: "value"; type: ValueType; nullable?: boolean }
  /** a list of values: a property read across several items */
  | { kind: "values"; type: ValueType }
  /** projected objects (one, zero-or-one, or a list), or an object literal (card "one") */
  | { kind: "object"; fields: ObjectFieldType[]; card: Cardinality; base?: { label: string; omit: string[] } }
  /** an array literal of mixed content */
  | { kind: "array"; elements: StaticType[] }
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

/** One member of a projection: its output name and its value as a function of the item. */
export interface IrProjField {
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
  | { op: "member"; input: Ir; name: string }
  | { op: "objectLit"; entries: IrProp[] }
  | { op: "arrayLit"; elements: Ir[] }
  // ---- sources
  | { op: "byId"; item: ItemKind; label: string; id: Ir }
  | { op: "byIds"; item: ItemKind; label: string; ids: Ir[] }
  | { op: "byLabel"; item: ItemKind; label: string }
  | { op: "byIndex"; item: ItemKind; label: string; field: string; value: Ir }
  /** untyped `N`, `E`, `V`: every item of the kind, by type name (code point order), then id */
  | { op: "allOfKind"; item: ItemKind }
  /** untyped `N(id)`, `E(id)`, `V(id)`: the item of the kind with that id, whatever its type (404 when none) */
  | { op: "anyById"; item: ItemKind; id: Ir }
  | { op: "anyByIds"; item: ItemKind; ids: Ir[] }
  // ---- writes
  | { op: "addNode"; label: string; props: IrProp[] }
  | { op: "addEdge"; label: string; props: IrProp[]; from: Ir; to: Ir }
  | { op: "addVector"; label: string; vector: Ir; props: IrProp[] }
  /** `itemDepth`: the lambda depth of `_` when the values use the item being updated, else null */
  | { op: "update"; input: Ir; props: IrProp[]; itemDepth: number | null }
  | { op: "upsertNode"; input: Ir; label: string; props: IrProp[] }
  | { op: "upsertEdge"; input: Ir; label: string; props: IrProp[]; from: Ir; to: Ir }
  | { op: "upsertVector"; input: Ir; label: string; vector: Ir; props: IrProp[] }
  // ---- search
  | { op: "searchVectors"; label: string; vector: Ir; k: Ir /** `ef: n`, or null for the default breadth */; ef: Ir | null }
  /** `trav::SearchV<T>(vector, k)`: exact search over the vectors of T the input holds */
  | { op: "searchAmong"; input: Ir; label: string; vector: Ir; k: Ir }
  | { op: "searchBM25"; label: string; text: Ir; limit: Ir }
  | { op: "embed"; text: Ir; model: string | null }
  | { op: "rerankRRF"; inputs: Ir[]; k: Ir | null }
  | { op: "rerankMMR"; input: Ir; lambda: Ir; distance: "cosine" | "euclidean" | "dotproduct" }
  // ---- steps
  | { op: "adjacent"; direction: "out" | "in" | "outE" | "inE"; input: Ir; label: string }
  | { op: "endpoint"; end: "fromN" | "toN"; input: Ir }
  | { op: "count"; input: Ir }
  | { op: "range"; input: Ir; start: Ir; end: Ir }
  | { op: "order"; input: Ir; key: Lambda; direction: "asc" | "desc" }
  | { op: "first"; input: Ir }
  | { op: "dedup"; input: Ir }
  /** `index`: conjuncts of the predicate an INDEX may serve (WHERE over every item of a type) */
  | { op: "filter"; input: Ir; predicate: Lambda; index?: IrIndexCondition[] }
  | { op: "intersect"; input: Ir; sub: Lambda }
  | { op: "groupBy"; input: Ir; properties: string[] }
  | { op: "aggregateBy"; input: Ir; properties: string[] }
  | {
      op: "shortestPath";
      input: Ir;
      /** the edge type, or null: edges of any type */
      label: string | null;
      /** with label null: the edge types the path may take (null: every type) */
      among: string[] | null;
      endpoint: "to" | "from";
      target: Ir;
      weight: Lambda | null;
      /** A*: the node property holding the heuristic (estimated remaining cost) */
      heuristic: string | null;
    }
  // ---- values
  /** a property of one item (value) or of each item of a list (values) */
  | { op: "prop"; input: Ir; name: string }
  /** `::{..}`, `::!{..}`, `::|x|{..}`: each field a function of the item at `depth` */
  | { op: "project"; input: Ir; depth: number; fields: IrProjField[]; keepAll: boolean; omit: string[]; closureVar: string | null }
  | { op: "compare"; cmp: CompareOp; left: Ir; right: Ir }
  | { op: "contains"; left: Ir; right: Ir }
  /** `anyElement`: left is an array value and is in the list when any of its elements is */
  | { op: "isIn"; left: Ir; right: Ir; anyElement: boolean }
  | { op: "logic"; kind: "and" | "or"; args: Ir[] }
  | { op: "not"; operand: Ir }
  | { op: "exists"; input: Ir }
  | { op: "math"; fn: MathFn; args: Ir[] }
  /** one member of each projected object of a list (aggregating a saved one-field projection) */
  | { op: "pluck"; input: Ir; name: string }
  | { op: "aggregate"; fn: AggregateFn; input: Ir }
  /**
   * the id of a single item (or of each item of a list), or an ID value passed through; `absent`
   * says what to report (NOT_FOUND) when a zero-or-one item in an id position is absent
   */
  | { op: "idOf"; input: Ir; absent?: AbsentNote };

export type Ir = IrNode & { type: StaticType };

/** What an id position reports when the zero-or-one item that should name it is absent. */
export interface AbsentNote {
  /** where the id is needed: `AddE<Knows>::To`, `N<Person>`, `ShortestPathBFS<Road>::To` */
  place: string;
  /** the variable holding the item, or null when the argument is the lookup itself */
  name: string | null;
  /** the index lookup that found nothing, as the text around its value, and the value */
  lookup: { before: string; after: string; value: Ir } | null;
}

/** `_::{field}::OP(value)` in a WHERE, with a value that does not depend on the item. */
export interface IrIndexCondition {
  field: string;
  op: "EQ" | "GT" | "GTE" | "LT" | "LTE";
  value: Ir;
}

/** A one-argument function over the item `_` (at `depth`). */
export interface Lambda {
  depth: number;
  body: Ir;
}

export type IrStatement =
  | { kind: "let"; name: string; value: Ir }
  | { kind: "eval"; value: Ir }
  | { kind: "drop"; target: Ir }
  /** `names` has one entry for `FOR x IN ..`, several for `FOR {a, b} IN ..` */
  | { kind: "for"; names: string[]; destructure: boolean; iterable: Ir; body: IrStatement[] };

export interface IrReturn {
  key: string;
  value: Ir;
}

/** `RETURN a, b` → an object of members; `RETURN {..}` / `RETURN NONE` → that value itself. */
export type IrReturns = { kind: "members"; members: IrReturn[] } | { kind: "value"; value: Ir };

export interface QueryIr {
  name: string;
  params: ParamSpec[];
  writes: boolean;
  mcp: boolean;
  /** `#[model("...")]`, null when absent */
  model: string | null;
  statements: IrStatement[];
  /** null for a query without RETURN */
  returns: IrReturns | null;
  /** the source file the query came from, for the generated header */
  file: string;
}
