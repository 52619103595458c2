// Turns IR expressions into TypeScript expression text over the QueryContext `db`.
// Items keep their schema type through casts (`as User[]`), so the generated handler's result is
// checked against its declared result type by `tsc --strict`.
import {
  ANY_LABEL,
  ITEM_LETTER,
  type Ir,
  type IrIndexCondition,
  type IrProp,
  type ItemKind,
  type Lambda,
  type StaticType,
} from "../ir/ir.js";
import { tsTypeOf } from "../ir/value-types.js";
import { adjacencyChain, stepsConstant } from "./adjacency-count.js";

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
}

export type KindLabels = Readonly<Record<ItemKind, readonly string[]>>;

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
    case "member": {
      const nullable = ir.input.type.kind === "value" && ir.input.type.nullable === true;
      const plain = /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(ir.name);
      const access = `${emitExpr(ir.input, ctx)}${nullable ? "?." : plain ? "." : ""}${propertyAccess(ir.name)}`;
      return ir.type.kind === "value" && ir.type.nullable === true ? `(${access} ?? null)` : access;
    }
    case "objectLit":
      return emitProps(ir.entries, ctx);
    case "arrayLit":
      return ir.type.kind === "items" ? cast("[]", ir.type, ctx) : `[${ir.elements.map((e) => emitExpr(e, ctx)).join(", ")}]`;
    case "byId":
      return cast(
        `db.${ir.item === "edge" ? "edgeById" : ir.item === "vector" ? "vectorById" : "nodeById"}(${q(ir.label)}, ${emitExpr(ir.id, ctx)})`,
        ir.type,
        ctx,
      );
    case "byIds": {
      const method = ir.item === "edge" ? "edgeById" : ir.item === "vector" ? "vectorById" : "nodeById";
      return cast(`[${ir.ids.map((i) => emitExpr(i, ctx)).join(", ")}].map((id) => db.${method}(${q(ir.label)}, id))`, ir.type, ctx);
    }
    case "allOfKind":
      return cast(`db.itemsOfKind(${q(ITEM_LETTER[ir.item])})`, ir.type, ctx);
    case "anyById":
      return cast(`db.itemOfKindById(${q(ITEM_LETTER[ir.item])}, ${emitExpr(ir.id, ctx)})`, ir.type, ctx);
    case "anyByIds":
      return cast(
        `[${ir.ids.map((i) => emitExpr(i, ctx)).join(", ")}].map((id) => db.itemOfKindById(${q(ITEM_LETTER[ir.item])}, id))`,
        ir.type,
        ctx,
      );
    case "byLabel":
      return cast(
        `db.${ir.item === "edge" ? "edgesByLabel" : ir.item === "vector" ? "vectorsByLabel" : "nodesByLabel"}(${q(ir.label)})`,
        ir.type,
        ctx,
      );
    case "byIndex": {
      // A key lookup, UNIQUE INDEX or not: the first match (lowest id) or null, as HelixDB.
      const lookup = `db.${ir.item === "edge" ? "edgesByIndex" : "nodesByIndex"}(${q(ir.label)}, ${q(ir.field)}, ${emitExpr(ir.value, ctx)}, 1)`;
      return cast(`db.first(${lookup})`, ir.type, ctx);
    }
    case "addNode":
      return cast(`db.addNode(${q(ir.label)}, ${emitProps(ir.props, ctx)})`, ir.type, ctx);
    case "addEdge":
      if (isIdList(ir.from) || isIdList(ir.to))
        return cast(
          `db.addEdges(${q(ir.label)}, ${emitProps(ir.props, ctx)}, ${emitIds(ir.from, ctx)}, ${emitIds(ir.to, ctx)})`,
          ir.type,
          ctx,
        );
      return cast(
        `db.addEdge(${q(ir.label)}, ${emitProps(ir.props, ctx)}, ${emitExpr(ir.from, ctx)}, ${emitExpr(ir.to, ctx)})`,
        ir.type,
        ctx,
      );
    case "addVector":
      return cast(`db.addVector(${q(ir.label)}, ${emitExpr(ir.vector, ctx)}, ${emitProps(ir.props, ctx)})`, ir.type, ctx);
    case "update": {
      const method = ir.type.kind === "items" && ir.type.item === "edge" ? "updateEdges" : "updateNodes";
      // Values that use `_` are computed per item, from the item as stored when it is updated.
      const props = ir.itemDepth === null ? emitProps(ir.props, ctx) : `(${lambdaParam(ir.itemDepth)}) => (${emitProps(ir.props, ctx)})`;
      return sameCardinality(`db.${method}(${emitList(ir.input, ctx)}, ${props})`, ir.input.type, ir.type, ctx);
    }
    case "upsertNode":
      return cast(`db.upsertNode(${q(ir.label)}, ${emitList(ir.input, ctx)}, ${emitProps(ir.props, ctx)})`, ir.type, ctx);
    case "upsertEdge":
      if (isIdList(ir.from) || isIdList(ir.to))
        return cast(
          `db.upsertEdges(${q(ir.label)}, ${emitList(ir.input, ctx)}, ${emitProps(ir.props, ctx)}, ${emitIds(ir.from, ctx)}, ${emitIds(ir.to, ctx)})`,
          ir.type,
          ctx,
        );
      return cast(
        `db.upsertEdge(${q(ir.label)}, ${emitList(ir.input, ctx)}, ${emitProps(ir.props, ctx)}, ${emitExpr(ir.from, ctx)}, ${emitExpr(ir.to, ctx)})`,
        ir.type,
        ctx,
      );
    case "upsertVector":
      return cast(
        `db.upsertVector(${q(ir.label)}, ${emitList(ir.input, ctx)}, ${emitExpr(ir.vector, ctx)}, ${emitProps(ir.props, ctx)})`,
        ir.type,
        ctx,
      );
    case "searchVectors":
      return cast(
        `db.searchVectors(${q(ir.label)}, ${emitExpr(ir.vector, ctx)}, ${emitExpr(ir.k, ctx)}${ir.ef === null ? "" : `, ${emitExpr(ir.ef, ctx)}`})`,
        ir.type,
        ctx,
      );
    case "searchAmong":
      return cast(
        `db.searchVectorsIn(${q(ir.label)}, ${emitList(ir.input, ctx)}, ${emitExpr(ir.vector, ctx)}, ${emitExpr(ir.k, ctx)})`,
        ir.type,
        ctx,
      );
    case "searchBM25":
      return cast(`db.searchBM25(${q(ir.label)}, ${emitExpr(ir.text, ctx)}, ${emitExpr(ir.limit, ctx)})`, ir.type, ctx);
    case "embed":
      return `db.embed(${emitExpr(ir.text, ctx)}, ${ir.model === null ? "null" : q(ir.model)})`;
    case "rerankRRF":
      return cast(
        `db.rerankRRF([${ir.inputs.map((i) => emitList(i, ctx)).join(", ")}], ${ir.k === null ? "60" : emitExpr(ir.k, ctx)})`,
        ir.type,
        ctx,
      );
    case "rerankMMR":
      return cast(`db.rerankMMR(${emitList(ir.input, ctx)}, ${emitExpr(ir.lambda, ctx)}, ${q(ir.distance)})`, ir.type, ctx);
    case "adjacent":
      return cast(`db.${ir.direction === "in" ? "in" : ir.direction}(${emitList(ir.input, ctx)}, ${q(ir.label)})`, ir.type, ctx);
    case "endpoint":
      return sameCardinality(`db.${ir.end}(${emitList(ir.input, ctx)})`, ir.input.type, ir.type, ctx);
    case "count":
    case "exists": {
      const chain = adjacencyChain(ir.input);
      const counted = chain && `db.countAdjacent(${emitList(chain.base, ctx)}, ${stepsConstant(chain.steps, ctx.constants)}`;
      if (ir.op === "count") return counted ? `${counted})` : `db.count(${emitList(ir.input, ctx)})`;
      return counted ? `(${counted}, 1) > 0)` : `(${emitList(ir.input, ctx)}.length > 0)`;
    }
    case "range": {
      const scan = labelScan(ir.input);
      if (scan !== null) return emitScan(scan, `, ${emitExpr(ir.start, ctx)}, ${emitExpr(ir.end, ctx)}`, ctx);
      return `db.range(${emitList(ir.input, ctx)}, ${emitExpr(ir.start, ctx)}, ${emitExpr(ir.end, ctx)})`;
    }
    case "order":
      return `db.order(${emitList(ir.input, ctx)}, ${emitLambda(ir.key, ctx)}, ${q(ir.direction)})`;
    case "first": {
      const scan = labelScan(ir.input);
      if (scan !== null) return `db.first(${emitScan(scan, ", 0, 1", ctx)})`;
      return `db.first(${emitList(ir.input, ctx)})`;
    }
    case "dedup":
      return `db.dedup(${emitList(ir.input, ctx)})`;
    case "filter": {
      const scan = labelScan(ir);
      const filtered = scan !== null ? emitScan(scan, "", ctx) : `db.filter(${emitList(ir.input, ctx)}, ${emitLambda(ir.predicate, ctx)})`;
      return ir.type.kind === "items" && ir.type.card === "many" ? filtered : `db.first(${filtered})`;
    }
    case "intersect":
      return cast(`db.intersect(${emitList(ir.input, ctx)}, ${emitListLambda(ir.sub, ctx)})`, ir.type, ctx);
    case "groupBy":
      return `db.groupBy(${emitList(ir.input, ctx)}, ${JSON.stringify(ir.properties)})`;
    case "aggregateBy":
      return `db.aggregateBy(${emitList(ir.input, ctx)}, ${JSON.stringify(ir.properties)})`;
    case "shortestPath": {
      const endpoint = `{ ${ir.endpoint}: ${emitExpr(ir.target, ctx)} }`;
      const weight = ir.weight === null ? "null" : emitLambda(ir.weight, ctx);
      const heuristic = ir.heuristic === null ? "" : `, ${q(ir.heuristic)}`;
      const label = ir.label !== null ? q(ir.label) : ir.among !== null ? JSON.stringify(ir.among) : "null";
      return `db.shortestPath(${emitList(ir.input, ctx)}, ${label}, ${endpoint}, ${weight}${heuristic})`;
    }
    case "prop":
      return emitProp(ir, ctx);
    case "project":
      return emitProject(ir, ctx);
    case "compare": {
      const right = emitExpr(ir.right, ctx);
      if (ir.left.type.kind === "values") return `${emitExpr(ir.left, ctx)}.some((v) => db.compare(${q(ir.cmp)}, v, ${right}))`;
      return `db.compare(${q(ir.cmp)}, ${emitExpr(ir.left, ctx)}, ${right})`;
    }
    case "contains":
      return `db.contains(${emitExpr(ir.left, ctx)}, ${emitExpr(ir.right, ctx)})`;
    case "isIn":
      // An array value is in the list when any of its elements is.
      if (ir.anyElement) return `(${emitExpr(ir.left, ctx)} ?? []).some((v) => db.isIn(v, ${emitExpr(ir.right, ctx)}))`;
      return `db.isIn(${emitExpr(ir.left, ctx)}, ${emitExpr(ir.right, ctx)})`;
    case "logic":
      return `(${ir.args.map((a) => emitExpr(a, ctx)).join(ir.kind === "and" ? " && " : " || ")})`;
    case "not":
      return `!${emitExpr(ir.operand, ctx)}`;
    case "math": {
      const args = ir.args.map((a) => emitExpr(a, ctx)).join(", ");
      const sources = ir.args.map((a) => mathSource(a));
      if (sources.every((s) => s === null)) return `db.math(${q(ir.fn)}, [${args}])`;
      // The static part of the sources is one module constant per distinct text; only the items
      // (what the message names when an argument is absent) are passed per call.
      const init = `[${sources.map((s) => (s === null ? "null" : `{ text: ${q(s.text)}, kind: ${q(s.kind)} }`)).join(", ")}] as const`;
      let name = ctx.constants.get(init);
      if (name === undefined) {
        name = `$math${ctx.constants.size}`;
        ctx.constants.set(init, name);
      }
      const items = sources.map((s) => (s === null ? "null" : emitExpr(s.item, ctx)));
      while (items.at(-1) === "null") items.pop();
      return `db.math(${q(ir.fn)}, [${args}], ${name}${items.map((i) => `, ${i}`).join("")})`;
    }
    case "pluck":
      return `${emitExpr(ir.input, ctx)}.map((o) => o${propertyAccess(ir.name).startsWith("[") ? "" : "."}${propertyAccess(ir.name)})`;
    case "aggregate": {
      // An array value (one item's array field) may be absent: no elements.
      const list = ir.input.type.kind === "value" ? `(${emitExpr(ir.input, ctx)} ?? [])` : emitExpr(ir.input, ctx);
      const call = `db.aggregate(${q(ir.fn)}, ${list})`;
      // SUM and COUNT of an empty list are 0, never null.
      return ir.type.kind === "value" && ir.type.nullable === true ? call : `(${call} ?? 0)`;
    }
    case "idOf": {
      const t = ir.input.type;
      if (t.kind !== "items") return emitExpr(ir.input, ctx);
      if (t.card === "one") return `${emitExpr(ir.input, ctx)}.id`;
      if (t.card === "optional") {
        if (ir.type.kind === "value" && ir.type.nullable === true) return `(${emitExpr(ir.input, ctx)}?.id ?? null)`;
        // Absent, an item in an id position names nothing: 404 naming the variable and its lookup.
        const a = ir.absent;
        if (a === undefined) return `(${emitExpr(ir.input, ctx)}?.id ?? db.absent(${q("the item")}, null, null))`;
        const lookup = a.lookup === null ? "null" : `[${q(a.lookup.before)}, ${q(a.lookup.after)}], ${emitExpr(a.lookup.value, ctx)}`;
        return `(${emitExpr(ir.input, ctx)}?.id ?? db.absent(${q(a.place)}, ${a.name === null ? "null" : q(a.name)}, ${lookup}))`;
      }
      return `${emitList(ir.input, ctx)}.map((v) => v.id)`;
    }
  }
}

function emitProp(ir: Ir & { op: "prop" }, ctx: ExpressionContext): string {
  const t = ir.input.type;
  const valueType =
    ir.type.kind === "value" ? tsTypeOfStatic(ir.type, ctx) : ir.type.kind === "values" ? `${tsTypeOf(ir.type.type)} | null` : "unknown";
  if (t.kind === "items" && t.card === "many") return `${emitList(ir.input, ctx)}.map((v) => db.prop(v, ${q(ir.name)}) as ${valueType})`;
  return `(db.prop(${emitExpr(ir.input, ctx)}, ${q(ir.name)}) as ${valueType})`;
}

/**
 * For a math argument that may be absent, where the error says it came from (`_::{n}` of item
 * N::C ..): a property of `_` or of a variable holding one item, whose expression is free to
 * evaluate again (the item); null for anything else.
 */
function mathSource(ir: Ir): { text: string; kind: "N" | "E" | "V"; item: Ir } | null {
  if (ir.op !== "prop" || ir.type.kind !== "value" || ir.type.nullable !== true) return null;
  const input = ir.input;
  const t = input.type;
  if (t.kind !== "items" || t.card === "many" || (input.op !== "anon" && input.op !== "var")) return null;
  return { text: `${input.op === "anon" ? "_" : input.name}::{${ir.name}}`, kind: ITEM_LETTER[t.item], item: input };
}

function emitProject(ir: Ir & { op: "project" }, ctx: ExpressionContext): string {
  const it = lambdaParam(ir.depth);
  const parts: string[] = [];
  if (ir.keepAll) parts.push(ir.omit.length === 0 ? `...${it}` : `...db.omit(${it}, ${JSON.stringify(ir.omit)})`);
  for (const f of ir.fields) parts.push(`${propertyKey(f.name)}: ${emitExpr(f.value, ctx)}`);
  const object = `({ ${parts.join(", ")} })`;
  const body = ir.closureVar === null ? object : `{ const ${localName(ir.closureVar)} = ${it}; return ${object}; }`;
  const t = ir.input.type;
  const oneType = ir.type.kind === "object" ? tsTypeOfStatic({ ...ir.type, card: "one" }, ctx) : "unknown";
  const fn = `(${it}): ${oneType} => ${body}`;
  if (t.kind === "items" && t.card === "many") return `${emitExpr(ir.input, ctx)}.map(${fn})`;
  if (t.kind === "items" && t.card === "optional") {
    ctx.usesList = true;
    return `db.first(list(${emitExpr(ir.input, ctx)}).map(${fn}))`;
  }
  return `[${emitExpr(ir.input, ctx)}].map(${fn})[0]!`;
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
function emitScan(scan: LabelScan, bounds: string, ctx: ExpressionContext): string {
  const predicate = emitLambda(scan.predicate, ctx);
  const type = { ...scan.type, card: "many" as const };
  if (scan.index === undefined) return cast(`db.nodesWhere(${q(scan.label)}, ${predicate}${bounds})`, type, ctx);
  const conditions = scan.index.map((c) => `{ field: ${q(c.field)}, op: ${q(c.op)}, value: ${emitExpr(c.value, ctx)} }`);
  const kind = scan.item === "edge" ? "E" : "N";
  return cast(`db.itemsWhereIndexed(${q(kind)}, ${q(scan.label)}, [${conditions.join(", ")}], ${predicate}${bounds})`, type, ctx);
}

/** An edge end that names several items: ids of a list of items, or a list of ID values. */
function isIdList(end: Ir): boolean {
  return end.type.kind === "values" || (end.type.kind === "value" && end.type.type.kind === "array");
}

/** An edge end as an array of ids: a list as it is, one id as a list of one. */
function emitIds(end: Ir, ctx: ExpressionContext): string {
  return isIdList(end) ? emitExpr(end, ctx) : `[${emitExpr(end, ctx)}]`;
}

/** An expression that evaluates to an array of the items `ir` holds. */
function emitList(ir: Ir, ctx: ExpressionContext): string {
  const text = emitExpr(ir, ctx);
  const card = ir.type.kind === "items" || ir.type.kind === "object" ? ir.type.card : "many";
  if (card === "many") return text;
  if (card === "one") return `[${text}]`;
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

function emitListLambda(lambda: Lambda, ctx: ExpressionContext): string {
  return `(${lambdaParam(lambda.depth)}) => ${emitList(lambda.body, ctx)}`;
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

/**
 * A member name in an object literal or type literal. `__proto__: v` (also quoted) would set the
 * object's prototype instead of a member, so that name becomes the computed key `["__proto__"]`,
 * which defines an own member (projection and RETURN keys may use it; fields and parameters may not).
 */
export function propertyKey(name: string): string {
  if (name === "__proto__") return `[${JSON.stringify(name)}]`;
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name);
}

function propertyAccess(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : `[${JSON.stringify(name)}]`;
}
