// Turns IR expressions into TypeScript expression text over the QueryContext `db`.
// Items keep their schema type through casts (`as User[]`), so the generated handler's result is
// checked against its declared result type by `tsc --strict`.
import type { Ir, IrProp, Lambda, StaticType } from "../ir.js";
import { tsTypeOf } from "../value-types.js";

export interface ExpressionContext {
  /** set when the emitted code calls the module-local `list()` helper */
  usesList: boolean;
  /** schema type names the module refers to (for its type import) */
  usedTypes: Set<string>;
}

const RESERVED = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for function if " +
    "import in instanceof new null return super switch this throw true try typeof var void while with yield let static " +
    "implements interface package private protected public await async of db params list undefined NaN Infinity"
  ).split(" "),
);

/** The TypeScript name of a HelixQL variable. */
export function localName(name: string): string {
  return RESERVED.has(name) ? `${name}_` : name;
}

export function lambdaParam(depth: number): string {
  return `it${depth}`;
}

/** The TypeScript type of a value of this static type. */
export function tsTypeOfStatic(t: StaticType, ctx: ExpressionContext): string {
  switch (t.kind) {
    case "items":
      ctx.usedTypes.add(t.label);
      return t.card === "many" ? `${t.label}[]` : t.card === "optional" ? `${t.label} | null` : t.label;
    case "value":
      return tsTypeOf(t.type);
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

export function emitExpr(ir: Ir, ctx: ExpressionContext): string {
  switch (ir.op) {
    case "param":
      return ir.optional ? `(params.${ir.name} ?? null)` : `params.${ir.name}`;
    case "var":
      return localName(ir.name);
    case "anon":
      return lambdaParam(ir.depth);
    case "literal":
      return JSON.stringify(ir.value);
    case "now":
      return "db.now()";
    case "nodeById":
      return cast(`db.nodeById(${q(ir.label)}, ${emitExpr(ir.id, ctx)})`, ir.type, ctx);
    case "nodesByLabel":
      return cast(`db.nodesByLabel(${q(ir.label)})`, ir.type, ctx);
    case "nodesByIndex": {
      const lookup = `db.nodesByIndex(${q(ir.label)}, ${q(ir.field)}, ${emitExpr(ir.value, ctx)})`;
      // A UNIQUE INDEX finds at most one node: the result is that node or null.
      return ir.type.kind === "items" && ir.type.card === "optional" ? cast(`db.first(${lookup})`, ir.type, ctx) : cast(lookup, ir.type, ctx);
    }
    case "edgeById":
      return cast(`db.edgeById(${q(ir.label)}, ${emitExpr(ir.id, ctx)})`, ir.type, ctx);
    case "edgesByLabel":
      return cast(`db.edgesByLabel(${q(ir.label)})`, ir.type, ctx);
    case "addNode":
      return cast(`db.addNode(${q(ir.label)}, ${emitProps(ir.props, ctx)})`, ir.type, ctx);
    case "addEdge":
      return cast(`db.addEdge(${q(ir.label)}, ${emitProps(ir.props, ctx)}, ${emitExpr(ir.from, ctx)}, ${emitExpr(ir.to, ctx)})`, ir.type, ctx);
    case "update": {
      const method = ir.type.kind === "items" && ir.type.item === "edge" ? "updateEdges" : "updateNodes";
      return sameCardinality(`db.${method}(${emitList(ir.input, ctx)}, ${emitProps(ir.props, ctx)})`, ir.input.type, ir.type, ctx);
    }
    case "adjacent":
      return cast(`db.${ir.direction === "in" ? "in" : ir.direction}(${emitList(ir.input, ctx)}, ${q(ir.label)})`, ir.type, ctx);
    case "endpoint":
      return sameCardinality(`db.${ir.end}(${emitList(ir.input, ctx)})`, ir.input.type, ir.type, ctx);
    case "count":
      return `db.count(${emitList(ir.input, ctx)})`;
    case "range":
      return `db.range(${emitList(ir.input, ctx)}, ${emitExpr(ir.start, ctx)}, ${emitExpr(ir.end, ctx)})`;
    case "order":
      return `db.order(${emitList(ir.input, ctx)}, ${emitLambda(ir.key, ctx)}, ${q(ir.direction)})`;
    case "first":
      return `db.first(${emitList(ir.input, ctx)})`;
    case "filter": {
      const filtered = `db.filter(${emitList(ir.input, ctx)}, ${emitLambda(ir.predicate, ctx)})`;
      return ir.type.kind === "items" && ir.type.card === "many" ? filtered : `db.first(${filtered})`;
    }
    case "groupBy":
      return `db.groupBy(${emitList(ir.input, ctx)}, ${JSON.stringify(ir.properties)})`;
    case "aggregateBy":
      return `db.aggregateBy(${emitList(ir.input, ctx)}, ${JSON.stringify(ir.properties)})`;
    case "shortestPath": {
      const endpoint = `{ ${ir.endpoint}: ${emitExpr(ir.target, ctx)} }`;
      const weight = ir.weight === null ? "null" : emitLambda(ir.weight, ctx);
      return `db.shortestPath(${emitList(ir.input, ctx)}, ${q(ir.label)}, ${endpoint}, ${weight})`;
    }
    case "prop":
      return `db.prop(${emitExpr(ir.input, ctx)}, ${q(ir.name)})`;
    case "compare":
      return `db.compare(${q(ir.cmp)}, ${emitExpr(ir.left, ctx)}, ${emitExpr(ir.right, ctx)})`;
    case "logic":
      return `(${ir.args.map((a) => emitExpr(a, ctx)).join(ir.kind === "and" ? " && " : " || ")})`;
    case "not":
      return `!${emitExpr(ir.operand, ctx)}`;
    case "idOf":
      return ir.input.type.kind === "items" ? `${emitExpr(ir.input, ctx)}.id` : emitExpr(ir.input, ctx);
  }
}

/** An expression that evaluates to an array of the items `ir` holds. */
function emitList(ir: Ir, ctx: ExpressionContext): string {
  const text = emitExpr(ir, ctx);
  if (ir.type.kind !== "items" || ir.type.card === "many") return text;
  if (ir.type.card === "one") return `[${text}]`;
  ctx.usesList = true;
  return `list(${text})`;
}

/** Wraps a list-producing call so the result has the cardinality of `target`. */
function sameCardinality(listCall: string, input: StaticType, target: StaticType, ctx: ExpressionContext): string {
  if (target.kind !== "items" || input.kind !== "items") return listCall;
  if (input.card === "many") return cast(listCall, target, ctx);
  if (input.card === "one") return `${cast(listCall, { ...target, card: "many" }, ctx)}[0]!`;
  return `db.first(${cast(listCall, { ...target, card: "many" }, ctx)})`;
}

function emitLambda(lambda: Lambda, ctx: ExpressionContext): string {
  return `(${lambdaParam(lambda.depth)}) => ${emitExpr(lambda.body, ctx)}`;
}

function emitProps(props: readonly IrProp[], ctx: ExpressionContext): string {
  if (props.length === 0) return "{}";
  const parts = props.map((p) => `${propertyKey(p.name)}: ${emitExpr(p.value, ctx)}`);
  return `{ ${parts.join(", ")} }`;
}

function cast(text: string, t: StaticType, ctx: ExpressionContext): string {
  return t.kind === "items" ? `(${text} as ${tsTypeOfStatic(t, ctx)})` : text;
}

function q(s: string): string {
  return JSON.stringify(s);
}

export function propertyKey(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name);
}
