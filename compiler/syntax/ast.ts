// The HelixQL abstract syntax tree. The grammar's actions build exactly these shapes and nothing
// else; every meaning (which step a name denotes, whether a type exists) is decided later by the
// analyzer. Every node carries the span of source text it came from, for diagnostics.
import type { ScalarName } from "../../core/schema.js";

export type { Position, Span } from "../diagnostics/span.js";
import type { Span } from "../diagnostics/span.js";

export interface Spanned {
  span: Span;
}

export interface Identifier extends Spanned {
  name: string;
}

// ---------------------------------------------------------------- types

/** The scalar types of HelixQL: the same set the runtime validates values against. */
export type ScalarTypeName = ScalarName;

export type TypeExpr =
  | ({ kind: "ScalarType"; name: ScalarTypeName } & Spanned)
  /** `[T]` */
  | ({ kind: "ArrayType"; element: TypeExpr } & Spanned)
  /** `{a: T, b: U}` (nested object; in parameters and schema fields) */
  | ({ kind: "ObjectType"; fields: ObjectTypeField[] } & Spanned)
  /** A bare name that is not a scalar: a schema type used as a parameter type (e.g. `user: User`). */
  | ({ kind: "NamedType"; name: string } & Spanned);

export interface ObjectTypeField extends Spanned {
  name: Identifier;
  optional: boolean;
  type: TypeExpr;
}

// ---------------------------------------------------------------- schema

export type DefaultValue = ({ kind: "DefaultLiteral"; value: Literal } & Spanned) | ({ kind: "DefaultNow" } & Spanned);

export interface FieldDef extends Spanned {
  name: Identifier;
  type: TypeExpr;
  /** `INDEX` → "index", `UNIQUE INDEX` → "unique" */
  index: "none" | "index" | "unique";
  default: DefaultValue | null;
}

export interface NodeSchema extends Spanned {
  kind: "NodeSchema";
  name: Identifier;
  fields: FieldDef[];
}

export interface VectorSchema extends Spanned {
  kind: "VectorSchema";
  name: Identifier;
  fields: FieldDef[];
}

export interface EdgeSchema extends Spanned {
  kind: "EdgeSchema";
  name: Identifier;
  /** `E::T UNIQUE {..}` */
  unique: boolean;
  /** null when the body omits `From:` (the analyzer reports it). */
  from: Identifier | null;
  to: Identifier | null;
  /** Empty when `Properties` is omitted or `{}`. */
  fields: FieldDef[];
}

export type SchemaItem = NodeSchema | VectorSchema | EdgeSchema;

/** `schema::2 { N::User {..} ... }` */
export interface SchemaVersionBlock extends Spanned {
  kind: "SchemaVersionBlock";
  version: number;
  items: SchemaItem[];
}

/** One `N::User => _::{ a: b, c: d AS U32 }` entry inside a MIGRATION block. */
export interface MigrationItem extends Spanned {
  itemKind: "N" | "E" | "V";
  from: Identifier;
  to: Identifier;
  mappings: MigrationMapping[];
}

export interface MigrationMapping extends Spanned {
  field: Identifier;
  value: Expr;
  /** `AS T` cast, null when absent */
  cast: TypeExpr | null;
}

export interface Migration extends Spanned {
  kind: "Migration";
  fromVersion: number;
  toVersion: number;
  items: MigrationItem[];
}

// ---------------------------------------------------------------- queries

export interface Param extends Spanned {
  name: Identifier;
  optional: boolean;
  type: TypeExpr;
}

/** `#[mcp]`, `#[model("openai:text-embedding-3-small")]` */
export interface Attribute extends Spanned {
  name: Identifier;
  args: Literal[];
}

export interface QueryDef extends Spanned {
  kind: "Query";
  attributes: Attribute[];
  name: Identifier;
  params: Param[];
  body: Statement[];
  /** null when the query has no RETURN */
  returns: ReturnClause | null;
}

export type ReturnClause =
  | ({ kind: "ReturnNone" } & Spanned)
  /** `RETURN a, b::{x}, "ok", {k: v}` */
  | ({ kind: "ReturnValues"; values: Expr[] } & Spanned);

export type Statement =
  /** `name <- expr` */
  | ({ kind: "Assign"; name: Identifier; value: Expr } & Spanned)
  /** `DROP expr` */
  | ({ kind: "Drop"; target: Expr } & Spanned)
  /** `FOR x IN xs { .. }` / `FOR {a, b} IN xs { .. }` */
  | ({ kind: "For"; binding: ForBinding; iterable: Expr; body: Statement[] } & Spanned)
  /** a bare expression evaluated for its effect, e.g. `AddE<Follows>::From(a)::To(b)` */
  | ({ kind: "ExprStatement"; expr: Expr } & Spanned);

export type ForBinding = ({ kind: "ForName"; name: Identifier } & Spanned) | ({ kind: "ForDestructure"; names: Identifier[] } & Spanned);

// ---------------------------------------------------------------- expressions

export type Literal =
  | ({ kind: "String"; value: string } & Spanned)
  /** `raw` keeps the source text; `isFloat` is true when it had a `.` or an exponent */
  | ({ kind: "Number"; value: number; raw: string; isFloat: boolean } & Spanned)
  | ({ kind: "Boolean"; value: boolean } & Spanned)
  | ({ kind: "None" } & Spanned)
  | ({ kind: "Now" } & Spanned);

export type Expr =
  | ({ kind: "Literal"; literal: Literal } & Spanned)
  /** a variable or parameter name */
  | ({ kind: "Ident"; name: string } & Spanned)
  | ({ kind: "Array"; elements: Expr[] } & Spanned)
  /** `{key: expr, ...}` as a value (AddN props, RETURN object, UPDATE props, ...) */
  | ({ kind: "Object"; entries: ObjectEntry[] } & Spanned)
  /** `source::step::step...` (also a bare source such as `N<User>`) */
  | ({ kind: "Traversal"; source: Source; steps: Step[] } & Spanned)
  /** `NAME(args)` that is not a source: AND, OR, EXISTS, math functions, Embed, ... */
  | ({ kind: "Call"; callee: Identifier; args: Arg[] } & Spanned)
  /** `!expr` */
  | ({ kind: "Not"; operand: Expr } & Spanned)
  /**
   * `user.name`, `a.b.c` (nested left to right): a field of an object value, e.g. of a FOR variable
   * bound to an array of objects (`FOR user IN users { AddN<User>({ name: user.name }) }`).
   * `object` is an Ident or another Member; no steps follow a member access.
   */
  | ({ kind: "Member"; object: Expr; property: Identifier } & Spanned);

export interface ObjectEntry extends Spanned {
  key: Identifier;
  value: Expr;
}

/** A call argument; `name` is set for named arguments such as `RerankRRF(k: 60)`. */
export interface Arg extends Spanned {
  name: Identifier | null;
  value: Expr;
}

export type Source =
  /**
   * `N<T>`, `N<T>(id)`, `N<T>(id1, id2)`, `N<T>({field: v})`, `E<T>(..)`, `V<T>(..)`, `N`, `E`, `V`.
   * `typeArg` is null for untyped `N`/`E`/`V`.
   */
  | ({ kind: "Lookup"; item: "N" | "E" | "V"; typeArg: Identifier | null; args: Arg[]; hasParens: boolean } & Spanned)
  /**
   * Generic-call sources: AddN, AddE, AddV, UpsertN, UpsertE, UpsertV, SearchV, SearchBM25 and any
   * other `Name<T>(..)`. `args` is empty and `hasParens` false for `AddN<User>`.
   */
  | ({ kind: "GenericCall"; name: Identifier; typeArg: Identifier | null; args: Arg[]; hasParens: boolean } & Spanned)
  /** a variable: `user::Out<Follows>` */
  | ({ kind: "Var"; name: Identifier } & Spanned)
  /** `_` — the item under consideration inside WHERE, ORDER, projections, ... */
  | ({ kind: "Anonymous" } & Spanned);

export type Step =
  /**
   * Every `::Name`, `::Name<T>`, `::Name(args)`, `::Name<T>(args)` step: Out, In, OutE, InE, FromN,
   * ToN, FromV, ToV, COUNT, RANGE, ORDER, FIRST, GROUP_BY, AGGREGATE_BY, UPDATE, WHERE,
   * ShortestPath*, To, From, EQ, NEQ, GT, GTE, LT, LTE, CONTAINS, IS_IN, ID, INTERSECT, RerankRRF,
   * RerankMMR, ... The analyzer gives the name its meaning.
   */
  | ({ kind: "Call"; name: Identifier; typeArg: Identifier | null; args: Arg[]; hasParens: boolean } & Spanned)
  /** `::{a, b: c, d: _::Out<X>::COUNT, ..}` */
  | ({ kind: "Projection"; fields: ProjectionField[]; spread: boolean } & Spanned)
  /** `::!{a, b}` */
  | ({ kind: "Exclusion"; fields: Identifier[] } & Spanned)
  /** `::|u|{ name: u::{name}, ... }` */
  | ({ kind: "Closure"; param: Identifier; fields: ProjectionField[]; spread: boolean } & Spanned);

/**
 * One field of a projection. `{a}` → key a, value null (the property itself);
 * `{b: c}` → key b, value Ident c; `{n: _::Out<X>::COUNT}` → key n, value the traversal.
 */
export interface ProjectionField extends Spanned {
  key: Identifier;
  value: Expr | null;
}

// ---------------------------------------------------------------- files

export type TopLevelItem = SchemaItem | SchemaVersionBlock | Migration | QueryDef;

export interface SourceFile extends Spanned {
  kind: "SourceFile";
  items: TopLevelItem[];
}
