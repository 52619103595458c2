// The state of checking one query: its scopes, the stack of items `_` stands for, whether it
// writes, and how it reports diagnostics. The checking functions take a Checker and return IR;
// none of them throws on user input.
import type * as A from "../syntax/ast.js";
import { closest, error, warning, type Diagnostic } from "../diagnostics/diagnostic.js";
import type { ErrorCode, WarningCode } from "../diagnostics/table.js";
import { ANY_LABEL, ITEM_LETTER, ITEM_WORD, type Ir, type ItemKind, type Lambda, type StaticType } from "../ir/ir.js";
import type { CheckedSchema } from "../schema/schema-check.js";
import type { FieldDescriptor, ValueType } from "../../core/schema.js";
import { F64_VALUE, ID_VALUE, STRING_VALUE, VECTOR_VALUE, bad, describeStatic, withCard, type ItemsType } from "./static-types.js";

export type Binding =
  | { kind: "param"; type: ValueType; optional: boolean; span: A.Span }
  /** `origin`: the expression a `name <- expr` statement bound (to say what an empty variable looked up) */
  | { kind: "var"; type: StaticType; span: A.Span; used: boolean; origin?: Ir };

export interface ExprOptions {
  /** the type the context expects (a field's type, a parameter's), used to type literals */
  expected?: ValueType | null;
  /**
   * A single-field projection `x::{f}` at the end yields f itself (not `{f: ..}`): `true` for the
   * value of an object member when x is one item; `"any"` also for a list (aggregate arguments).
   */
  fieldValue?: boolean | "any";
}

/**
 * The two entry points that recurse through every other checking module: an expression holds
 * traversals, and a traversal's steps hold expressions. Modules reach them through the Checker
 * (recurse.ts), so none imports another in a circle; checker.ts supplies the implementations.
 */
export interface CheckEntryPoints {
  expr(cx: Checker, expr: A.Expr, options: ExprOptions): Ir;
  traversal(cx: Checker, t: A.Expr & { kind: "Traversal" }, fieldValue: boolean | "any"): Ir;
}

/** What a step yields, and how many of the following steps it consumed (`::To`, `::From`, ...). */
export type StepResult = { ir: Ir; extra: number };

export class Checker {
  private readonly scopes: Map<string, Binding>[] = [new Map()];
  /** item types that `_` stands for, innermost last */
  readonly anon: StaticType[] = [];
  writes = false;
  /** Parameters used as a vector (AddV, UpsertV, SearchV): their numbers must fit in F32. */
  readonly vectorParams = new Set<string>();
  private readonly errorsBefore: number;
  /**
   * An ad-hoc query body (compiler/adhoc.ts): the values of its parameters, which it does not
   * declare; each is declared where it is first used, typed by what that place expects (or, where
   * nothing is expected, by its JSON value). `inferred` holds them in the order met.
   */
  offered: ReadonlyMap<string, unknown> | null = null;
  readonly inferred: { name: string; type: ValueType }[] = [];

  constructor(
    readonly query: A.QueryDef,
    readonly schema: CheckedSchema,
    readonly diagnostics: Diagnostic[],
    /** checkExpr and checkTraversal (recurse.ts), supplied by checker.ts */
    readonly entry: CheckEntryPoints,
    /** false when the project disables BM25 (strand.toml `bm25 = false`) */
    readonly bm25: boolean,
    /** Where `bm25 = false` is set, for the E310 hint: "strand.toml" or "helix.toml [local.dev]" */
    readonly bm25Origin = "strand.toml",
  ) {
    this.errorsBefore = diagnostics.length;
  }

  get failed(): boolean {
    return this.diagnostics.length > this.errorsBefore && this.diagnostics.slice(this.errorsBefore).some((d) => d.severity === "error");
  }

  // ---- scopes

  lookup(name: string): Binding | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const b = this.scopes[i]!.get(name);
      if (b !== undefined) return b;
    }
    return undefined;
  }

  declare(name: string, binding: Binding): void {
    this.scopes[this.scopes.length - 1]!.set(name, binding);
  }

  /** A parameter of an ad-hoc body, declared at its first use (for the whole query). */
  declareInferred(name: string, type: ValueType, span: A.Span): void {
    this.scopes[0]!.set(name, { kind: "param", type, optional: false, span });
    this.inferred.push({ name, type });
  }

  visibleNames(): string[] {
    return this.scopes.flatMap((s) => [...s.keys()]);
  }

  /** Runs fn in a nested scope (a FOR body); reports the scope's unused variables afterwards. */
  inScope<T>(fn: () => T): T {
    this.scopes.push(new Map());
    try {
      return fn();
    } finally {
      this.warnUnused(this.scopes.pop()!);
    }
  }

  finish(): void {
    this.warnUnused(this.scopes[0]!);
  }

  private warnUnused(scope: Map<string, Binding>): void {
    for (const [name, b] of scope) {
      if (b.kind !== "var" || b.used || name.startsWith("_")) continue;
      // After an error the rest of its expression is not checked, so a use there was never seen:
      // a name the query mentions is not reported as unused then.
      if (this.failed && this.mentionedNames().has(name)) continue;
      // A write whose result is not needed is the normal way to write; only pure reads are suspicious.
      this.diagnostics.push(
        warning("W002", `variable '${name}' is never used`, b.span, "remove it, use it, or start its name with '_' to keep it"),
      );
    }
  }

  /** Evaluates fn with `_` bound to one item of `t`; returns its result and the lambda depth. */
  withAnon<T>(t: StaticType, fn: () => T): { result: T; depth: number } {
    this.anon.push(t);
    const depth = this.anon.length - 1;
    try {
      return { result: fn(), depth };
    } finally {
      this.anon.pop();
    }
  }

  // ---- schema

  /**
   * The type `name` names, or null after E101. `fields`: the fields to show in the declaration an
   * undeclared vector type's hint suggests (AddV's properties), `text: String` when not given.
   */
  resolveLabel(name: A.Identifier, item: ItemKind, fields?: string): string | null {
    const table = this.table(item);
    if (table.has(name.name)) return name.name;
    const kinds: ItemKind[] = ["node", "edge", "vector"];
    const actual = kinds.find((k) => k !== item && this.table(k).has(name.name));
    const guess = closest(name.name, table.keys());
    // A HelixDB user meets vector types first in AddV/SearchV: show how one is declared.
    const declare =
      item === "vector"
        ? `declare it in the schema, e.g. V::${name.name} { ${fields ?? "text: String"} } (the fields each vector carries besides the vector itself)`
        : undefined;
    const hint =
      actual !== undefined
        ? `'${name.name}' is a${actual === "edge" ? "n" : ""} ${actual} type`
        : guess !== undefined
          ? `did you mean '${guess}'?`
          : declare;
    this.report("E101", `unknown ${item} type '${name.name}'`, name.span, hint);
    return null;
  }

  /** A type name that may be a node or a vector type (N<T> and V<T> sources both accept either). */
  itemKindOf(label: string): ItemKind | null {
    if (this.schema.nodes.has(label)) return "node";
    if (this.schema.vectors.has(label)) return "vector";
    if (this.schema.edges.has(label)) return "edge";
    return null;
  }

  private table(item: ItemKind): ReadonlyMap<string, { fields: readonly FieldDescriptor[] }> {
    return item === "node" ? this.schema.nodes : item === "edge" ? this.schema.edges : this.schema.vectors;
  }

  fieldsOf(item: ItemKind, label: string): readonly FieldDescriptor[] {
    return this.table(item).get(label)?.fields ?? [];
  }

  /** The members every record of this kind carries besides its fields. */
  implicitFields(item: ItemKind, label: string): FieldDescriptor[] {
    const f = (name: string, type: ValueType): FieldDescriptor => ({
      name,
      type,
      index: "none",
      default: { kind: "literal", value: null },
    });
    const out = [f("id", ID_VALUE), f("label", STRING_VALUE)];
    if (item === "edge") out.push(f("from_node", ID_VALUE), f("to_node", ID_VALUE));
    // Items of any type (untyped N, E, V) are never search results and may lack `data`.
    if (label === ANY_LABEL) return out;
    if (item === "vector" && !this.fieldsOf(item, label).some((x) => x.name === "embedding")) out.push(f("data", VECTOR_VALUE));
    // Search results (SearchV, SearchBM25, RerankRRF) carry their score; elsewhere it is absent.
    if (item !== "edge") out.push({ name: "score", type: F64_VALUE, index: "none", default: null });
    return out;
  }

  /** A declared field (or, when `implicit`, also id/label/from_node/to_node/data/score for reading). */
  resolveField(item: ItemKind, label: string, key: A.Identifier, implicit = true): FieldDescriptor | null {
    const fields = this.fieldsOf(item, label);
    const found = fields.find((f) => f.name === key.name);
    if (found !== undefined) return found;
    if (implicit) {
      const imp = this.implicitFields(item, label).find((f) => f.name === key.name);
      if (imp !== undefined) return imp;
      if (key.name === "ID") return this.implicitFields(item, label)[0]!;
    }
    if (label === ANY_LABEL) {
      const common = this.implicitFields(item, label)
        .map((f) => f.name)
        .join(", ");
      const declaring = [...this.table(item)].find(([, t]) => t.fields.some((x) => x.name === key.name))?.[0];
      this.report(
        "E217",
        `these are ${ITEM_WORD[item]}s of any type (untyped ${ITEM_LETTER[item]}), so they have no field '${key.name}': only ${common}`,
        key.span,
        `${ITEM_LETTER[item]} holds ${ITEM_WORD[item]}s of every type; write ${ITEM_LETTER[item]}<${declaring ?? this.exampleLabel(item)}> to read '${key.name}'`,
      );
      return null;
    }
    const guess = closest(
      key.name,
      fields.map((f) => f.name),
    );
    this.report(
      "E110",
      `unknown field '${key.name}' on ${label}`,
      key.span,
      guess !== undefined
        ? `did you mean '${guess}'?`
        : fields.length > 0
          ? `${label} has: ${fields.map((f) => f.name).join(", ")}`
          : `${label} has no fields`,
    );
    return null;
  }

  // ---- diagnostics

  /** A type name of this kind for hints ("Type" when the schema declares none). */
  exampleLabel(item: ItemKind): string {
    return this.table(item).keys().next().value ?? (item === "edge" ? "EdgeType" : item === "vector" ? "VectorType" : "NodeType");
  }

  /**
   * The input's items type when it is items of one of `kinds`. Items of any type (untyped N, E,
   * V) are accepted only with `anyType`: every other step needs the type's fields or edges (E217).
   */
  requireItems(
    input: Ir,
    at: A.Spanned & { name?: A.Identifier },
    what: string,
    kinds: readonly ItemKind[],
    anyType = false,
  ): ItemsType | null {
    const t = input.type;
    if (t.kind === "error") return null;
    if (t.kind === "items" && kinds.includes(t.item) && t.label === ANY_LABEL && !anyType) {
      this.reportUntyped(t, at.name?.span ?? at.span, what);
      return null;
    }
    if (t.kind === "items" && kinds.includes(t.item)) return t;
    const want = kinds.map((k) => `${k}s`).join(" or ");
    this.report("E203", `${what} works on ${want}, but its input is ${describeStatic(t)}`, at.name?.span ?? at.span);
    return null;
  }

  /** E217: `what` needs items of one type, but `t` holds items of any type. */
  reportUntyped(t: ItemsType, span: A.Span, what: string): void {
    const letter = ITEM_LETTER[t.item];
    this.report(
      "E217",
      `${what} needs ${ITEM_WORD[t.item]}s of one type, but this is ${describeStatic(t)} (untyped ${letter})`,
      span,
      `${letter} holds ${ITEM_WORD[t.item]}s of every type; write ${letter}<${this.exampleLabel(t.item)}> (or another ${ITEM_WORD[t.item]} type) to use ${what}`,
    );
  }

  requiredHere(name: string, span: A.Span, what: string): Ir {
    this.report(
      "E206",
      `optional parameter '${name}' cannot be used as ${what}: it may be absent`,
      span,
      `declare it as '${name}: ...' (without '?')`,
    );
    return bad();
  }

  private mentioned: Set<string> | undefined;

  /** Every name the query's body mentions as a variable (`x`, `x::Out<E>`), whether checked or not. */
  private mentionedNames(): Set<string> {
    if (this.mentioned !== undefined) return this.mentioned;
    const names = new Set<string>();
    const visit = (node: unknown): void => {
      if (typeof node !== "object" || node === null) return;
      if (Array.isArray(node)) {
        for (const child of node) visit(child);
        return;
      }
      const n = node as { kind?: unknown; name?: unknown };
      if (n.kind === "Ident" && typeof n.name === "string") names.add(n.name);
      if (n.kind === "Var" && typeof n.name === "object" && n.name !== null) names.add((n.name as { name: string }).name);
      for (const [key, child] of Object.entries(node)) if (key !== "span") visit(child);
    };
    visit(this.query);
    this.mentioned = names;
    return names;
  }

  report(code: ErrorCode, message: string, span: A.Span, hint?: string): void {
    this.diagnostics.push(error(code, message, span, hint));
  }

  warn(code: WarningCode, message: string, span: A.Span, hint?: string): void {
    this.diagnostics.push(warning(code, message, span, hint));
  }
}

/** Checks fn with `_` bound to one item of `t`. */
export function checkItemLambda(cx: Checker, t: ItemsType, fn: () => Ir): Lambda {
  const { result, depth } = cx.withAnon(withCard(t, "one"), fn);
  return { depth, body: result };
}
