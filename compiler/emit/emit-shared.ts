// What the expression emitters share: the emission context, the table's type, and the helpers
// that name, type and wrap emitted expressions. The emitters (emit-*.ts) recurse through the
// `emit` function they are given, never by importing expressions.ts, so no file imports in a circle.
import { ANY_LABEL, type Ir, type IrProp, type ItemKind, type Lambda, type StaticType } from "../ir/ir.js";
import { tsTypeOf } from "../ir/value-types.js";

export interface ExpressionContext {
  /** set when the emitted code calls the module-local `list()` helper */
  usesList: boolean;
  /** schema type names the module refers to (for its type import) */
  usedTypes: Set<string>;
  /** the type names of each kind in code point order: what items of ANY_LABEL may be */
  labels: KindLabels;
  /**
   * Module-level constants the emitted code refers to, by their initializer text: the static
   * sources of math calls (`const $math0 = [..] as const;`), emitted once before `run`.
   */
  constants: Map<string, string>;
  /**
   * false: JavaScript for serving (query-script.ts): no casts, return types or non-null
   * assertions, which are all the TypeScript the expressions hold. Absent: TypeScript.
   */
  types?: boolean;
}

export type KindLabels = Readonly<Record<ItemKind, readonly string[]>>;

/** The IR node of one op. */
export type IrOf<K extends Ir["op"]> = Extract<Ir, { op: K }>;

/** Emits any IR expression: what an emitter calls for its operands. */
export type EmitExpr = (ir: Ir, ctx: ExpressionContext) => string;

/** One emitter per op; a mapped type, so an op without an emitter does not compile. */
export type Emitters = { [K in Ir["op"]]: (ir: IrOf<K>, ctx: ExpressionContext, emit: EmitExpr) => string };

const RESERVED = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for function if " +
    "import in instanceof new null return super switch this throw true try typeof var void while with yield let static " +
    "implements interface package private protected public await async of db params list undefined NaN Infinity"
  ).split(" "),
);

/** The TypeScript name of a HelixQL variable. */
export function localName(name: string): string {
  return RESERVED.has(name) || /^it\d+$/.test(name) ? `${name}_` : name;
}

export function lambdaParam(depth: number): string {
  return `it${depth}`;
}

/** The TypeScript type of a value of this static type. */
export function tsTypeOfStatic(t: StaticType, ctx: ExpressionContext): string {
  switch (t.kind) {
    case "items": {
      // Items of any type of the kind: the union of its record types (never when it has none).
      const names = t.label === ANY_LABEL ? ctx.labels[t.item] : [t.label];
      for (const n of names) ctx.usedTypes.add(n);
      const one = names.length === 0 ? "never" : names.join(" | ");
      const many = names.length === 1 ? `${one}[]` : `Array<${one}>`;
      return t.card === "many" ? many : t.card === "optional" ? `${one} | null` : one;
    }
    case "value":
      return t.nullable === true ? `${tsTypeOf(t.type)} | null` : tsTypeOf(t.type);
    case "values":
      return `Array<${tsTypeOf(t.type)} | null>`;
    case "object": {
      const members = t.fields.map((f) => `${propertyKey(f.name)}: ${tsTypeOfStatic(f.type, ctx)}`);
      let one = `{ ${members.join("; ")} }`;
      if (t.base !== undefined) {
        ctx.usedTypes.add(t.base.label);
        const base =
          t.base.omit.length === 0 ? t.base.label : `Omit<${t.base.label}, ${t.base.omit.map((o) => JSON.stringify(o)).join(" | ")}>`;
        one = members.length === 0 ? base : `${base} & ${one}`;
      }
      return t.card === "many" ? `Array<${one}>` : t.card === "optional" ? `(${one}) | null` : one;
    }
    case "array":
      return `[${t.elements.map((e) => tsTypeOfStatic(e, ctx)).join(", ")}]`;
    case "boolean":
      return "boolean";
    case "groups":
      return "GroupCount[]";
    case "aggregates":
      ctx.usedTypes.add(t.label);
      return `AggregateGroup<${t.label}>[]`;
    case "paths":
      return "Path[]";
    case "error":
      return "never";
  }
}

/** An expression that evaluates to an array of the items `ir` holds. */
export function emitList(ir: Ir, ctx: ExpressionContext, emit: EmitExpr): string {
  const text = emit(ir, ctx);
  const card = ir.type.kind === "items" || ir.type.kind === "object" ? ir.type.card : "many";
  if (card === "many") return text;
  if (card === "one") return `[${text}]`;
  ctx.usesList = true;
  return `list(${text})`;
}

/** Wraps a list-producing call so the result has the cardinality of `target`. */
export function sameCardinality(listCall: string, input: StaticType, target: StaticType, ctx: ExpressionContext): string {
  if (target.kind !== "items" || input.kind !== "items") return listCall;
  if (input.card === "many") return cast(listCall, target, ctx);
  if (input.card === "one") return `${cast(listCall, { ...target, card: "many" }, ctx)}[0]${nonNull(ctx)}`;
  return `db.first(${cast(listCall, { ...target, card: "many" }, ctx)})`;
}

export function emitLambda(lambda: Lambda, ctx: ExpressionContext, emit: EmitExpr): string {
  return `(${lambdaParam(lambda.depth)}) => ${emit(lambda.body, ctx)}`;
}

export function emitListLambda(lambda: Lambda, ctx: ExpressionContext, emit: EmitExpr): string {
  return `(${lambdaParam(lambda.depth)}) => ${emitList(lambda.body, ctx, emit)}`;
}

export function emitProps(props: readonly IrProp[], ctx: ExpressionContext, emit: EmitExpr): string {
  if (props.length === 0) return "{}";
  const parts = props.map((p) => `${propertyKey(p.name)}: ${emit(p.value, ctx)}`);
  return `{ ${parts.join(", ")} }`;
}

export function cast(text: string, t: StaticType, ctx: ExpressionContext): string {
  if (ctx.types === false) return t.kind === "items" ? `(${text})` : text;
  return t.kind === "items" ? `(${text} as ${tsTypeOfStatic(t, ctx)})` : text;
}

/** `!` after an expression known not to be null (TypeScript only). */
export function nonNull(ctx: ExpressionContext): string {
  return ctx.types === false ? "" : "!";
}

export function q(s: string): string {
  return JSON.stringify(s);
}

/**
 * A member name in an object literal or type literal. `__proto__: v` (also quoted) would set the
 * object's prototype instead of a member, so that name becomes the computed key `["__proto__"]`,
 * which defines an own member (projection and RETURN keys may use it; fields and parameters may not).
 */
export function propertyKey(name: string): string {
  if (name === "__proto__") return `[${JSON.stringify(name)}]`;
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name);
}

export function propertyAccess(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : `[${JSON.stringify(name)}]`;
}
