// Checks each query against the schema and lowers it to the typed IR (compiler/ir.ts).
//
// Diagnostic codes used here:
//   E101 unknown node/edge type          E110 unknown field                 E111 field is not indexed
//   E120 undeclared variable/parameter   E121 `_` outside a step argument
//   E201 literal of the wrong type       E203 step does not fit its input   E204 edge direction/type mismatch
//   E205 RANGE bound not a non-negative integer                             E206 value of the wrong type
//   E207 weight is not numeric           E208 bad ORDER direction           E209 wrong number of arguments
//   E301 duplicate query                 E302 duplicate parameter           E303 AddE without From/To
//   E304 ShortestPath without To/From    E305 name already defined          E306 unknown attribute
//   E900 parses, but is not supported yet                                   E902 unknown step or source
import type * as A from "./ast.js";
import { closest, error, type Diagnostic } from "./diagnostics.js";
import type { Cardinality, Ir, IrProp, IrReturn, IrStatement, Lambda, QueryIr, StaticType } from "./ir.js";
import type { CheckedSchema } from "./schema-check.js";
import { resolveValueType } from "./schema-check.js";
import { assignable, describeValueType, isIntegerType, isNumericType, literalFitsType } from "./value-types.js";
import type { ParamSpec } from "../runtime/query-module.js";
import type { CompareOp } from "../runtime/query-context.js";
import type { FieldDescriptor, ValueType } from "../runtime/schema.js";

const COMPARE_OPS: readonly CompareOp[] = ["EQ", "NEQ", "GT", "GTE", "LT", "LTE"];

/** Steps implemented now, for "did you mean" hints. */
const STEPS_NOW = [
  "Out",
  "In",
  "OutE",
  "InE",
  "FromN",
  "ToN",
  "COUNT",
  "RANGE",
  "ORDER",
  "FIRST",
  "GROUP_BY",
  "AGGREGATE_BY",
  "UPDATE",
  "WHERE",
  "ShortestPath",
  "ShortestPathBFS",
  "ShortestPathDijkstras",
];

/** Steps of HelixQL that parse and are checked for existence, but do not execute yet. */
const STEPS_LATER = [
  "FromV",
  "ToV",
  "ID",
  "INTERSECT",
  "RerankRRF",
  "RerankMMR",
  "ShortestPathAStar",
  "Dedup",
  "EQ",
  "NEQ",
  "GT",
  "GTE",
  "LT",
  "LTE",
  "CONTAINS",
  "IS_IN",
  "To",
  "From",
];

const SOURCES_LATER = ["AddV", "UpsertN", "UpsertE", "UpsertV", "SearchV", "SearchBM25", "SearchHybrid", "Embed"];

type Binding = { kind: "param"; type: ValueType; optional: boolean } | { kind: "var"; type: StaticType };

const ERROR_TYPE: StaticType = { kind: "error" };
const COUNT_TYPE: StaticType = { kind: "value", type: { kind: "scalar", name: "I64" } };

function bad(): Ir {
  return { op: "literal", value: null, type: ERROR_TYPE };
}

export function checkQueries(queries: readonly A.QueryDef[], schema: CheckedSchema, diagnostics: Diagnostic[]): QueryIr[] {
  const seen = new Map<string, A.QueryDef>();
  const out: QueryIr[] = [];
  for (const query of queries) {
    const previous = seen.get(query.name.name);
    if (previous !== undefined) {
      const at = `${previous.name.span.file}:${previous.name.span.start.line}:${previous.name.span.start.column}`;
      diagnostics.push(error("E301", `query '${query.name.name}' is defined twice`, query.name.span, `the first definition is at ${at}`));
      continue;
    }
    seen.set(query.name.name, query);
    const ir = new QueryChecker(query, schema, diagnostics).check();
    if (ir !== null) out.push(ir);
  }
  return out;
}

class QueryChecker {
  private readonly scope = new Map<string, Binding>();
  /** item types that `_` stands for, innermost last */
  private readonly anon: StaticType[] = [];
  private writes = false;
  private readonly errorsBefore: number;

  constructor(
    private readonly query: A.QueryDef,
    private readonly schema: CheckedSchema,
    private readonly diagnostics: Diagnostic[],
  ) {
    this.errorsBefore = diagnostics.length;
  }

  check(): QueryIr | null {
    const { mcp, model } = this.checkAttributes();
    const params = this.checkParams();
    const statements: IrStatement[] = [];
    for (const stmt of this.query.body) {
      const s = this.checkStatement(stmt);
      if (s !== null) statements.push(s);
    }
    const returns = this.checkReturn();
    if (this.diagnostics.length > this.errorsBefore) return null;
    return { name: this.query.name.name, params, writes: this.writes, mcp, model, statements, returns, file: this.query.span.file };
  }

  // ------------------------------------------------------------ header

  private checkAttributes(): { mcp: boolean; model: string | null } {
    let mcp = false;
    let model: string | null = null;
    for (const attr of this.query.attributes) {
      if (attr.name.name === "mcp" && attr.args.length === 0) mcp = true;
      else if (attr.name.name === "model" && attr.args.length === 1 && attr.args[0]!.kind === "String") model = attr.args[0]!.value;
      else {
        this.report("E306", `unknown attribute '#[${attr.name.name}]'`, attr.span, `known attributes: #[mcp], #[model("<provider:model>")]`);
      }
    }
    return { mcp, model };
  }

  private checkParams(): ParamSpec[] {
    const specs: ParamSpec[] = [];
    for (const p of this.query.params) {
      if (this.scope.has(p.name.name)) {
        this.report("E302", `parameter '${p.name.name}' is declared twice`, p.name.span);
        continue;
      }
      const type = resolveValueType(p.type, this.diagnostics);
      if (type === null) continue;
      this.scope.set(p.name.name, { kind: "param", type, optional: p.optional });
      specs.push({ name: p.name.name, type, optional: p.optional });
    }
    return specs;
  }

  // ------------------------------------------------------------ statements

  private checkStatement(stmt: A.Statement): IrStatement | null {
    switch (stmt.kind) {
      case "Assign": {
        const value = this.checkExpr(stmt.value);
        const name = stmt.name.name;
        if (this.scope.has(name)) {
          this.report("E305", `'${name}' is already defined in query '${this.query.name.name}'`, stmt.name.span, "choose another name");
          return null;
        }
        this.scope.set(name, { kind: "var", type: value.type });
        return { kind: "let", name, value };
      }
      case "ExprStatement":
        return { kind: "eval", value: this.checkExpr(stmt.expr) };
      case "Drop":
        this.notYet("DROP", stmt.span);
        return null;
      case "For":
        this.notYet("FOR loops", stmt.span);
        return null;
    }
  }

  private checkReturn(): IrReturn[] | null {
    const ret = this.query.returns;
    if (ret === null) return null;
    if (ret.kind === "ReturnNone") return [];
    const out: IrReturn[] = [];
    for (const value of ret.values) {
      if (value.kind === "Ident") {
        const ir = this.checkIdent(value.name, value.span);
        out.push({ key: value.name, value: ir });
      } else if (value.kind === "Traversal" && value.source.kind === "Var" && value.steps.length === 0) {
        out.push({ key: value.source.name.name, value: this.checkIdent(value.source.name.name, value.source.span) });
      } else {
        this.notYet("returning expressions other than variable names (projections, literals, objects)", value.span);
      }
    }
    return out;
  }

  // ------------------------------------------------------------ expressions

  private checkExpr(expr: A.Expr): Ir {
    switch (expr.kind) {
      case "Traversal":
        return this.checkTraversal(expr);
      case "Ident":
        return this.checkIdent(expr.name, expr.span);
      case "Literal":
        return this.checkLiteral(expr.literal, null);
      default:
        this.notYet(`this kind of expression (${expr.kind.toLowerCase()}) here`, expr.span);
        return bad();
    }
  }

  private checkIdent(name: string, span: A.Span): Ir {
    const binding = this.scope.get(name);
    if (binding === undefined) {
      const guess = closest(name, this.scope.keys());
      this.report("E120", `'${name}' is not a parameter or variable of query '${this.query.name.name}'`, span, guess !== undefined ? `did you mean '${guess}'?` : undefined);
      return bad();
    }
    if (binding.kind === "param") return { op: "param", name, optional: binding.optional, type: { kind: "value", type: binding.type } };
    return { op: "var", name, type: binding.type };
  }

  private checkLiteral(literal: A.Literal, expected: ValueType | null): Ir {
    if (literal.kind === "Now") return { op: "now", type: { kind: "value", type: { kind: "scalar", name: "Date" } } };
    if (expected !== null) {
      const fit = literalFitsType(literal, expected);
      if (!fit.ok) {
        this.report("E201", fit.message, literal.span);
        return bad();
      }
      return { op: "literal", value: fit.value, type: { kind: "value", type: expected } };
    }
    switch (literal.kind) {
      case "String":
        return { op: "literal", value: literal.value, type: { kind: "value", type: { kind: "scalar", name: "String" } } };
      case "Number":
        return {
          op: "literal",
          value: literal.value,
          type: { kind: "value", type: { kind: "scalar", name: literal.isFloat ? "F64" : "I64" } },
        };
      case "Boolean":
        return { op: "literal", value: literal.value, type: { kind: "value", type: { kind: "scalar", name: "Boolean" } } };
      case "None":
        return { op: "literal", value: null, type: ERROR_TYPE };
    }
  }

  private checkTraversal(t: A.Expr & { kind: "Traversal" }): Ir {
    let { ir, consumed } = this.checkSource(t.source, t.steps);
    for (let i = consumed; i < t.steps.length; ) {
      const r = this.checkStep(ir, t.steps[i]!, t.steps.slice(i + 1));
      ir = r.ir;
      i += 1 + r.extra;
    }
    return ir;
  }

  // ------------------------------------------------------------ sources

  private checkSource(source: A.Source, steps: readonly A.Step[]): { ir: Ir; consumed: number } {
    switch (source.kind) {
      case "Var":
        return { ir: this.checkIdent(source.name.name, source.name.span), consumed: 0 };
      case "Anonymous": {
        const type = this.anon[this.anon.length - 1];
        if (type === undefined) {
          this.report("E121", "'_' stands for the current item and can only be used inside a step's argument", source.span, "e.g. ::WHERE(_::{age}::GT(18))");
          return { ir: bad(), consumed: 0 };
        }
        return { ir: { op: "anon", depth: this.anon.length - 1, type }, consumed: 0 };
      }
      case "Lookup":
        return { ir: this.checkLookup(source), consumed: 0 };
      case "GenericCall":
        return this.checkGenericSource(source, steps);
    }
  }

  private checkLookup(source: A.Source & { kind: "Lookup" }): Ir {
    if (source.item === "V") {
      this.notYet("vector lookups V<T>", source.span);
      return bad();
    }
    if (source.typeArg === null) {
      this.notYet(`untyped ${source.item} (write ${source.item}<Type>)`, source.span);
      return bad();
    }
    const item = source.item === "N" ? "node" : "edge";
    const label = this.resolveLabel(source.typeArg, item);
    if (label === null) return bad();
    if (source.args.length === 0) {
      return item === "node"
        ? { op: "nodesByLabel", label, type: items("node", label, "many") }
        : { op: "edgesByLabel", label, type: items("edge", label, "many") };
    }
    if (source.args.length > 1) {
      this.notYet(`looking up several ids at once`, source.span);
      return bad();
    }
    const arg = source.args[0]!.value;
    if (arg.kind === "Object") {
      if (item === "edge") {
        this.notYet("edge lookups by field", arg.span);
        return bad();
      }
      return this.checkIndexLookup(label, arg);
    }
    const id = this.checkIdExpr(arg);
    return item === "node"
      ? { op: "nodeById", label, id, type: items("node", label, "one") }
      : { op: "edgeById", label, id, type: items("edge", label, "one") };
  }

  private checkIndexLookup(label: string, arg: A.Expr & { kind: "Object" }): Ir {
    if (arg.entries.length !== 1) {
      this.report("E209", `a lookup by field takes exactly one field, e.g. N<${label}>({email: email})`, arg.span);
      return bad();
    }
    const entry = arg.entries[0]!;
    const field = this.resolveField("node", label, entry.key);
    if (field === null) return bad();
    if (field.index === "none") {
      this.report("E111", `field '${field.name}' of ${label} is not indexed, so it cannot be looked up`, entry.key.span, `declare it as 'INDEX ${field.name}: ...' in N::${label}`);
      return bad();
    }
    const value = this.checkValueFor(entry.value, field.type, `field '${field.name}'`);
    return { op: "nodesByIndex", label, field: field.name, value, type: items("node", label, field.index === "unique" ? "optional" : "many") };
  }

  private checkGenericSource(source: A.Source & { kind: "GenericCall" }, steps: readonly A.Step[]): { ir: Ir; consumed: number } {
    const name = source.name.name;
    if (name === "AddN") {
      if (source.typeArg === null) return { ir: this.missingTypeArg(source, "AddN<NodeType>"), consumed: 0 };
      const label = this.resolveLabel(source.typeArg, "node");
      if (label === null) return { ir: bad(), consumed: 0 };
      const props = this.checkPropsArg(source.args, "node", label, source.span);
      this.writes = true;
      return { ir: { op: "addNode", label, props, type: items("node", label, "one") }, consumed: 0 };
    }
    if (name === "AddE") {
      if (source.typeArg === null) return { ir: this.missingTypeArg(source, "AddE<EdgeType>"), consumed: 0 };
      const label = this.resolveLabel(source.typeArg, "edge");
      if (label === null) return { ir: bad(), consumed: 0 };
      const props = this.checkPropsArg(source.args, "edge", label, source.span);
      this.writes = true;
      return this.checkAddEdgeEnds(source, label, props, steps);
    }
    if (SOURCES_LATER.includes(name)) {
      this.notYet(name, source.name.span);
      return { ir: bad(), consumed: 0 };
    }
    const guess = closest(name, ["AddN", "AddE", ...SOURCES_LATER]);
    this.report("E902", `unknown source '${name}'`, source.name.span, guess !== undefined ? `did you mean '${guess}'?` : undefined);
    return { ir: bad(), consumed: 0 };
  }

  private checkAddEdgeEnds(source: A.Source & { kind: "GenericCall" }, label: string, props: IrProp[], steps: readonly A.Step[]): { ir: Ir; consumed: number } {
    const edge = this.schema.edges.get(label)!;
    let from: Ir | null = null;
    let to: Ir | null = null;
    let consumed = 0;
    for (const step of steps.slice(0, 2)) {
      if (step.kind !== "Call" || (step.name.name !== "From" && step.name.name !== "To")) break;
      if (step.args.length !== 1) {
        this.report("E209", `::${step.name.name} takes one node (or id)`, step.span);
        return { ir: bad(), consumed: consumed + 1 };
      }
      const end = this.checkIdExpr(step.args[0]!.value, step.name.name === "From" ? edge.from : edge.to);
      if (step.name.name === "From") from = end;
      else to = end;
      consumed++;
    }
    if (from === null || to === null) {
      this.report("E303", `AddE<${label}> needs both ::From(..) and ::To(..)`, source.span, `e.g. AddE<${label}>::From(${edge.from.toLowerCase()}Id)::To(${edge.to.toLowerCase()}Id)`);
      return { ir: bad(), consumed };
    }
    return { ir: { op: "addEdge", label, props, from, to, type: items("edge", label, "one") }, consumed };
  }

  private missingTypeArg(source: A.Source & { kind: "GenericCall" }, form: string): Ir {
    this.report("E209", `${source.name.name} needs a type argument`, source.span, `write ${form}`);
    return bad();
  }

  /** `({field: value, ...})` of AddN/AddE/UPDATE, checked against the type's fields. */
  private checkPropsArg(args: readonly A.Arg[], item: "node" | "edge", label: string, span: A.Span): IrProp[] {
    if (args.length === 0) return [];
    const arg = args[0]!.value;
    if (args.length > 1 || arg.kind !== "Object") {
      this.report("E209", `expected one object of properties, e.g. ({name: name})`, args.length > 1 ? args[1]!.span : arg.span);
      return [];
    }
    void span;
    return this.checkProps(arg, item, label);
  }

  private checkProps(obj: A.Expr & { kind: "Object" }, item: "node" | "edge", label: string): IrProp[] {
    const props: IrProp[] = [];
    const seen = new Set<string>();
    for (const entry of obj.entries) {
      const field = this.resolveField(item, label, entry.key, false);
      if (field === null) continue;
      if (seen.has(field.name)) {
        this.report("E105", `property '${field.name}' is given twice`, entry.key.span);
        continue;
      }
      seen.add(field.name);
      props.push({ name: field.name, value: this.checkValueFor(entry.value, field.type, `field '${field.name}'`) });
    }
    return props;
  }

  // ------------------------------------------------------------ values

  /** A value written into a field or compared with one: a literal, a parameter or a variable. */
  private checkValueFor(expr: A.Expr, type: ValueType, what: string): Ir {
    if (expr.kind === "Literal") return this.checkLiteral(expr.literal, type);
    if (expr.kind === "Ident" || (expr.kind === "Traversal" && expr.source.kind === "Var" && expr.steps.length === 0)) {
      const name = expr.kind === "Ident" ? expr.name : (expr.source as A.Source & { kind: "Var" }).name.name;
      const ir = this.checkIdent(name, expr.span);
      if (ir.type.kind === "error") return ir;
      if (ir.type.kind === "value") {
        if (!assignable(ir.type.type, type)) {
          this.report("E206", `${what} is ${describeValueType(type)}, but '${name}' is ${describeValueType(ir.type.type)}`, expr.span);
          return bad();
        }
        return ir;
      }
      if (ir.type.kind === "items" && ir.type.card === "one" && type.kind === "scalar" && type.name === "ID") return { op: "idOf", input: ir, type: { kind: "value", type } };
      this.report("E206", `${what} is ${describeValueType(type)}, but '${name}' holds ${describeStatic(ir.type)}`, expr.span);
      return bad();
    }
    this.notYet(`computed values here (only literals, parameters and variables are supported for now)`, expr.span);
    return bad();
  }

  /** An expression that names one node or edge: an ID parameter, a string literal, or a variable holding one item. */
  private checkIdExpr(expr: A.Expr, expectedLabel?: string): Ir {
    const idType: ValueType = { kind: "scalar", name: "ID" };
    if (expr.kind === "Literal") return this.checkLiteral(expr.literal, idType);
    const ir = expr.kind === "Ident" ? this.checkIdent(expr.name, expr.span) : expr.kind === "Traversal" ? this.checkTraversal(expr) : (this.notYet("this kind of id expression", expr.span), bad());
    const t = ir.type;
    if (t.kind === "error") return ir;
    if (ir.op === "param" && ir.optional) return this.requiredHere(ir.name, expr.span, "an id");
    if (t.kind === "value" && t.type.kind === "scalar" && (t.type.name === "ID" || t.type.name === "String")) return ir;
    if (t.kind === "items" && t.card === "one") {
      if (expectedLabel !== undefined && t.label !== expectedLabel) {
        this.report("E204", `expected a ${expectedLabel}, but this is a ${t.label}`, expr.span);
        return bad();
      }
      return { op: "idOf", input: ir, type: { kind: "value", type: idType } };
    }
    this.report("E206", `expected an ID or a single node, found ${describeStatic(t)}`, expr.span, t.kind === "items" ? "add ::FIRST to pick one item" : undefined);
    return bad();
  }

  private checkIntegerArg(expr: A.Expr, what: string): Ir {
    if (expr.kind === "Literal") {
      const lit = expr.literal;
      if (lit.kind !== "Number" || !Number.isInteger(lit.value) || lit.value < 0 || lit.isFloat) {
        this.report("E205", `${what} must be a non-negative integer, found ${lit.kind === "Number" ? lit.raw : lit.kind.toLowerCase()}`, expr.span);
        return bad();
      }
      return { op: "literal", value: lit.value, type: COUNT_TYPE };
    }
    const ir = this.checkExpr(expr);
    if (ir.type.kind === "error") return ir;
    if (ir.op === "param" && ir.optional) return this.requiredHere(ir.name, expr.span, what);
    if (ir.type.kind === "value" && isIntegerType(ir.type.type)) return ir;
    this.report("E205", `${what} must be an integer, but this is ${describeStatic(ir.type)}`, expr.span, "declare the parameter as U32, I64, ...");
    return bad();
  }

  // ------------------------------------------------------------ steps

  private checkStep(input: Ir, step: A.Step, rest: readonly A.Step[]): { ir: Ir; extra: number } {
    if (step.kind !== "Call") {
      this.notYet(step.kind === "Projection" ? "projections ::{..}" : step.kind === "Exclusion" ? "exclusions ::!{..}" : "closures ::|x|{..}", step.span);
      return { ir: bad(), extra: 0 };
    }
    if (input.type.kind === "error") return { ir: bad(), extra: 0 };
    const name = step.name.name;
    switch (name) {
      case "Out":
      case "In":
      case "OutE":
      case "InE":
        return { ir: this.checkAdjacent(input, step, name), extra: 0 };
      case "FromN":
      case "ToN":
        return { ir: this.checkEndpoint(input, step, name), extra: 0 };
      case "COUNT": {
        const list = this.requireItems(input, step, ["node", "edge"]);
        if (list === null) return { ir: bad(), extra: 0 };
        const next = rest[0];
        // `::COUNT::GROUP_BY(p)` gives the same count summaries as `::GROUP_BY(p)`.
        if (next !== undefined && next.kind === "Call" && next.name.name === "GROUP_BY") return { ir: this.checkGrouping(input, next, "groupBy"), extra: 1 };
        return { ir: { op: "count", input, type: COUNT_TYPE }, extra: 0 };
      }
      case "RANGE": {
        if (this.requireItems(input, step, ["node", "edge"]) === null) return { ir: bad(), extra: 0 };
        if (step.args.length !== 2) {
          this.report("E209", "RANGE takes two arguments: RANGE(start, end)", step.span);
          return { ir: bad(), extra: 0 };
        }
        const start = this.checkIntegerArg(step.args[0]!.value, "RANGE start");
        const end = this.checkIntegerArg(step.args[1]!.value, "RANGE end");
        return { ir: { op: "range", input, start, end, type: withCard(input.type, "many") }, extra: 0 };
      }
      case "ORDER":
        return { ir: this.checkOrder(input, step), extra: 0 };
      case "FIRST":
        if (this.requireItems(input, step, ["node", "edge"]) === null) return { ir: bad(), extra: 0 };
        return { ir: { op: "first", input, type: withCard(input.type, "optional") }, extra: 0 };
      case "GROUP_BY":
        return { ir: this.checkGrouping(input, step, "groupBy"), extra: 0 };
      case "AGGREGATE_BY":
        return { ir: this.checkGrouping(input, step, "aggregateBy"), extra: 0 };
      case "UPDATE":
        return { ir: this.checkUpdate(input, step), extra: 0 };
      case "WHERE":
        return { ir: this.checkWhere(input, step), extra: 0 };
      case "ShortestPath":
      case "ShortestPathBFS":
      case "ShortestPathDijkstras":
        return this.checkShortestPath(input, step, rest);
      default:
        if (STEPS_LATER.includes(name)) this.notYet(`the ::${name} step here`, step.name.span);
        else {
          const guess = closest(name, [...STEPS_NOW, ...STEPS_LATER]);
          this.report("E902", `unknown step '::${name}'`, step.name.span, guess !== undefined ? `did you mean '::${guess}'?` : undefined);
        }
        return { ir: bad(), extra: 0 };
    }
  }

  private checkAdjacent(input: Ir, step: A.Step & { kind: "Call" }, name: "Out" | "In" | "OutE" | "InE"): Ir {
    const t = this.requireItems(input, step, ["node"]);
    if (t === null) return bad();
    if (step.typeArg === null) {
      this.report("E209", `::${name} needs an edge type`, step.span, `write ::${name}<EdgeType>`);
      return bad();
    }
    const label = this.resolveLabel(step.typeArg, "edge");
    if (label === null) return bad();
    const edge = this.schema.edges.get(label)!;
    const outward = name === "Out" || name === "OutE";
    const expected = outward ? edge.from : edge.to;
    if (expected !== t.label) {
      this.report(
        "E204",
        `edge type ${label} goes from ${edge.from} to ${edge.to}, so ::${name}<${label}> cannot start at ${t.label}`,
        step.span,
        outward && edge.to === t.label ? `did you mean ::${name === "Out" ? "In" : "InE"}<${label}>?` : !outward && edge.from === t.label ? `did you mean ::${name === "In" ? "Out" : "OutE"}<${label}>?` : undefined,
      );
      return bad();
    }
    const direction = name === "Out" ? "out" : name === "In" ? "in" : name === "OutE" ? "outE" : "inE";
    const type: StaticType = name === "Out" ? items("node", edge.to, "many") : name === "In" ? items("node", edge.from, "many") : items("edge", label, "many");
    return { op: "adjacent", direction, input, label, type };
  }

  private checkEndpoint(input: Ir, step: A.Step & { kind: "Call" }, name: "FromN" | "ToN"): Ir {
    const t = this.requireItems(input, step, ["edge"]);
    if (t === null) return bad();
    const edge = this.schema.edges.get(t.label)!;
    return { op: "endpoint", end: name === "FromN" ? "fromN" : "toN", input, type: items("node", name === "FromN" ? edge.from : edge.to, t.card) };
  }

  private checkOrder(input: Ir, step: A.Step & { kind: "Call" }): Ir {
    const t = this.requireItems(input, step, ["node", "edge"]);
    if (t === null) return bad();
    const dir = step.typeArg?.name;
    if (dir !== "Asc" && dir !== "Desc") {
      this.report("E208", `ORDER needs a direction: ORDER<Asc>(..) or ORDER<Desc>(..)`, step.typeArg?.span ?? step.span);
      return bad();
    }
    if (step.args.length !== 1) {
      this.report("E209", `ORDER takes one key, e.g. ORDER<${dir}>(_::{age})`, step.span);
      return bad();
    }
    const key = this.checkPropertyLambda(step.args[0]!.value, t, null);
    if (key === null) return bad();
    return { op: "order", input, key, direction: dir === "Asc" ? "asc" : "desc", type: withCard(t, "many") };
  }

  private checkGrouping(input: Ir, step: A.Step & { kind: "Call" }, op: "groupBy" | "aggregateBy"): Ir {
    const t = this.requireItems(input, step, ["node", "edge"]);
    if (t === null) return bad();
    if (step.args.length === 0) {
      this.report("E209", `::${step.name.name} needs at least one property`, step.span);
      return bad();
    }
    const properties: string[] = [];
    for (const arg of step.args) {
      const v = arg.value;
      const ident = v.kind === "Ident" ? { name: v.name, span: v.span } : v.kind === "Traversal" && v.source.kind === "Var" && v.steps.length === 0 ? v.source.name : null;
      if (ident === null) {
        this.report("E209", `::${step.name.name} takes property names, e.g. ::${step.name.name}(city, age)`, v.span);
        return bad();
      }
      const field = this.resolveField(t.item, t.label, ident, true);
      if (field === null) return bad();
      properties.push(field.name);
    }
    return op === "groupBy"
      ? { op, input, properties, type: { kind: "groups" } }
      : { op, input, properties, type: { kind: "aggregates", item: t.item, label: t.label } };
  }

  private checkUpdate(input: Ir, step: A.Step & { kind: "Call" }): Ir {
    const t = this.requireItems(input, step, ["node", "edge"]);
    if (t === null) return bad();
    const arg = step.args[0]?.value;
    if (step.args.length !== 1 || arg === undefined || arg.kind !== "Object") {
      this.report("E209", "UPDATE takes one object of properties, e.g. ::UPDATE({name: name})", step.span);
      return bad();
    }
    const props = this.checkProps(arg, t.item, t.label);
    this.writes = true;
    return { op: "update", input, props, type: t };
  }

  private checkWhere(input: Ir, step: A.Step & { kind: "Call" }): Ir {
    const t = this.requireItems(input, step, ["node", "edge"]);
    if (t === null) return bad();
    if (step.args.length !== 1) {
      this.report("E209", "WHERE takes one condition, e.g. ::WHERE(_::{age}::GT(18))", step.span);
      return bad();
    }
    this.anon.push(withCard(t, "one"));
    const body = this.checkCondition(step.args[0]!.value);
    const depth = this.anon.length - 1;
    this.anon.pop();
    return { op: "filter", input, predicate: { depth, body }, type: withCard(t, t.card === "many" ? "many" : "optional") };
  }

  /** A boolean condition over `_`: `_::{p}::OP(v)`, AND(..), OR(..), !cond. */
  private checkCondition(expr: A.Expr): Ir {
    const boolType: StaticType = { kind: "boolean" };
    if (expr.kind === "Call" && (expr.callee.name === "AND" || expr.callee.name === "OR")) {
      if (expr.args.length < 1) {
        this.report("E209", `${expr.callee.name} needs at least one condition`, expr.span);
        return bad();
      }
      return { op: "logic", kind: expr.callee.name === "AND" ? "and" : "or", args: expr.args.map((a) => this.checkCondition(a.value)), type: boolType };
    }
    if (expr.kind === "Not") return { op: "not", operand: this.checkCondition(expr.operand), type: boolType };
    if (expr.kind === "Traversal" && expr.source.kind === "Anonymous") {
      const steps = expr.steps;
      const projection = steps[0];
      const cmp = steps[1];
      if (steps.length === 2 && projection?.kind === "Projection" && cmp?.kind === "Call" && (COMPARE_OPS as readonly string[]).includes(cmp.name.name)) {
        const item = this.anon[this.anon.length - 1]!;
        const prop = this.checkPropertyAccess(projection, item);
        if (prop === null) return bad();
        if (cmp.args.length !== 1) {
          this.report("E209", `::${cmp.name.name} takes one value`, cmp.span);
          return bad();
        }
        const right = this.checkValueFor(cmp.args[0]!.value, prop.field.type, `property '${prop.field.name}'`);
        return { op: "compare", cmp: cmp.name.name as CompareOp, left: prop.ir, right, type: boolType };
      }
    }
    this.notYet("this kind of condition (supported now: _::{prop}::EQ/NEQ/GT/GTE/LT/LTE(value), AND, OR, !)", expr.span);
    return bad();
  }

  private checkShortestPath(input: Ir, step: A.Step & { kind: "Call" }, rest: readonly A.Step[]): { ir: Ir; extra: number } {
    const t = this.requireItems(input, step, ["node"]);
    if (t === null) return { ir: bad(), extra: 0 };
    if (step.typeArg === null) {
      this.report("E209", `::${step.name.name} needs an edge type`, step.span, `write ::${step.name.name}<EdgeType>`);
      return { ir: bad(), extra: 0 };
    }
    const label = this.resolveLabel(step.typeArg, "edge");
    if (label === null) return { ir: bad(), extra: 0 };
    const edge = this.schema.edges.get(label)!;
    let weight: Lambda | null = null;
    if (step.name.name === "ShortestPathDijkstras") {
      if (step.args.length !== 1) {
        this.report("E209", `ShortestPathDijkstras takes the edge weight, e.g. ShortestPathDijkstras<${label}>(_::{weight})`, step.span);
        return { ir: bad(), extra: 0 };
      }
      weight = this.checkPropertyLambda(step.args[0]!.value, items("edge", label, "one"), "numeric");
      if (weight === null) return { ir: bad(), extra: 0 };
    } else if (step.args.length > 0) {
      this.report("E209", `::${step.name.name} takes no arguments (it counts hops); use ShortestPathDijkstras for weights`, step.span);
      return { ir: bad(), extra: 0 };
    }
    if (edge.from !== t.label) {
      this.report("E204", `edge type ${label} goes from ${edge.from}, so a path over it cannot start at ${t.label}`, step.span);
      return { ir: bad(), extra: 0 };
    }
    const next = rest[0];
    if (next === undefined || next.kind !== "Call" || (next.name.name !== "To" && next.name.name !== "From") || next.args.length !== 1) {
      this.report("E304", `::${step.name.name} must be followed by ::To(id) or ::From(id)`, step.span);
      return { ir: bad(), extra: 0 };
    }
    const target = this.checkIdExpr(next.args[0]!.value);
    return { ir: { op: "shortestPath", input, label, endpoint: next.name.name === "To" ? "to" : "from", target, weight, type: { kind: "paths" } }, extra: 1 };
  }

  /** `_::{prop}` as a function of the item (ORDER keys, Dijkstra weights). */
  private checkPropertyLambda(expr: A.Expr, item: StaticType & { kind: "items" }, need: "numeric" | null): Lambda | null {
    if (expr.kind === "Traversal" && expr.source.kind === "Anonymous" && expr.steps.length === 1 && expr.steps[0]!.kind === "Projection") {
      const one = withCard(item, "one");
      this.anon.push(one);
      const prop = this.checkPropertyAccess(expr.steps[0]!, one);
      const depth = this.anon.length - 1;
      this.anon.pop();
      if (prop === null) return null;
      if (need === "numeric" && !isNumericType(prop.field.type)) {
        this.report("E207", `the weight must be a numeric property; '${prop.field.name}' is ${describeValueType(prop.field.type)}`, expr.span);
        return null;
      }
      return { depth, body: prop.ir };
    }
    this.notYet("computed keys (supported now: _::{property})", expr.span);
    return null;
  }

  private checkPropertyAccess(projection: A.Step & { kind: "Projection" }, item: StaticType): { ir: Ir; field: FieldDescriptor } | null {
    if (projection.fields.length !== 1 || projection.fields[0]!.value !== null || projection.spread) {
      this.notYet("projections of several or computed fields inside conditions", projection.span);
      return null;
    }
    if (item.kind !== "items") return null;
    const field = this.resolveField(item.item, item.label, projection.fields[0]!.key, true);
    if (field === null) return null;
    const anon: Ir = { op: "anon", depth: this.anon.length - 1, type: item };
    return { ir: { op: "prop", input: anon, name: field.name, type: { kind: "value", type: field.type } }, field };
  }

  // ------------------------------------------------------------ helpers

  private requireItems(input: Ir, step: A.Step & { kind: "Call" }, kinds: readonly ("node" | "edge")[]): (StaticType & { kind: "items" }) | null {
    const t = input.type;
    if (t.kind === "error") return null;
    if (t.kind === "items" && kinds.includes(t.item)) return t;
    const want = kinds.map((k) => `${k}s`).join(" or ");
    this.report("E203", `::${step.name.name} works on ${want}, but its input is ${describeStatic(t)}`, step.name.span);
    return null;
  }

  private resolveLabel(name: A.Identifier, item: "node" | "edge"): string | null {
    const table = item === "node" ? this.schema.nodes : this.schema.edges;
    if (table.has(name.name)) return name.name;
    const other = item === "node" ? this.schema.edges.has(name.name) || this.schema.vectors.has(name.name) : this.schema.nodes.has(name.name) || this.schema.vectors.has(name.name);
    const guess = closest(name.name, table.keys());
    const hint = other ? `'${name.name}' is not a${item === "edge" ? "n edge" : " node"} type` : guess !== undefined ? `did you mean '${guess}'?` : undefined;
    this.report("E101", `unknown ${item} type '${name.name}'`, name.span, hint);
    return null;
  }

  /** A declared field (or, when `implicit`, also id/label/from_node/to_node for reading). */
  private resolveField(item: "node" | "edge", label: string, key: A.Identifier, implicit = true): FieldDescriptor | null {
    const fields = (item === "node" ? this.schema.nodes.get(label) : this.schema.edges.get(label))?.fields ?? [];
    const found = fields.find((f) => f.name === key.name);
    if (found !== undefined) return found;
    const implicitNames = item === "edge" ? ["id", "label", "from_node", "to_node"] : ["id", "label"];
    if (implicit && implicitNames.includes(key.name)) {
      return { name: key.name, type: { kind: "scalar", name: key.name === "label" ? "String" : "ID" }, index: "none", default: null };
    }
    const guess = closest(key.name, fields.map((f) => f.name));
    this.report(
      "E110",
      `unknown field '${key.name}' on ${label}`,
      key.span,
      guess !== undefined ? `did you mean '${guess}'?` : fields.length > 0 ? `${label} has: ${fields.map((f) => f.name).join(", ")}` : `${label} has no fields`,
    );
    return null;
  }

  private requiredHere(name: string, span: A.Span, what: string): Ir {
    this.report("E206", `optional parameter '${name}' cannot be used as ${what}: it may be absent`, span, `declare it as '${name}: ...' (without '?')`);
    return bad();
  }

  private notYet(what: string, span: A.Span): void {
    this.report("E900", `${what} is not supported yet`, span);
  }

  private report(code: string, message: string, span: A.Span, hint?: string): void {
    this.diagnostics.push(error(code, message, span, hint));
  }
}

function items(item: "node" | "edge", label: string, card: Cardinality): ItemsType {
  return { kind: "items", item, label, card };
}

type ItemsType = StaticType & { kind: "items" };

function withCard(t: StaticType, card: Cardinality): ItemsType {
  if (t.kind !== "items") throw new Error("withCard on a non-item type");
  return { ...t, card };
}

function describeStatic(t: StaticType): string {
  switch (t.kind) {
    case "items":
      return t.card === "many" ? `a list of ${t.label} ${t.item}s` : `one ${t.label} ${t.item}`;
    case "value":
      return `a value of type ${describeValueType(t.type)}`;
    case "boolean":
      return "a condition";
    case "groups":
      return "group counts";
    case "aggregates":
      return "aggregate groups";
    case "paths":
      return "paths";
    case "error":
      return "an invalid expression";
  }
}
