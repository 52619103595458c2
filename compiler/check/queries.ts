// Checks each query against the schema and lowers it to the typed IR (compiler/ir/ir.ts). This
// file handles a query's header, statements and RETURN; expressions, sources, steps, projections
// and search live beside it. The diagnostic codes are declared in compiler/diagnostics/table.ts.
import type * as A from "../syntax/ast.js";
import { helixTypeName } from "../../core/schema.js";
import { QueryInternalError, error, type Diagnostic } from "../diagnostics/diagnostic.js";
import type { Ir, IrReturn, IrReturns, IrStatement, QueryIr, StaticType } from "../ir/ir.js";
import type { CheckedSchema } from "../schema/schema-check.js";
import { PROTO, resolveValueType } from "../schema/schema-check.js";

import type { ParamSpec } from "../../core/query-module.js";
import { parseModelName } from "../../core/model-name.js";
import type { Checker } from "./context.js";
import { createChecker } from "./checker.js";
import { bad, describeStatic, value, withCard } from "./static-types.js";
import { checkExpr } from "./recurse.js";

export interface QueryCheckOptions {
  /** false when the project disables the keyword index; SearchBM25 is then an error */
  bm25: boolean;
  /** Where `bm25 = false` is set, named in that error's hint (default "strand.toml") */
  bm25Origin?: string;
  /** An ad-hoc body's parameter values: its undeclared names among them are inferred (infer-params.ts). */
  offered?: ReadonlyMap<string, unknown>;
}

export function checkQueries(
  queries: readonly A.QueryDef[],
  schema: CheckedSchema,
  diagnostics: Diagnostic[],
  options: QueryCheckOptions = { bm25: true },
): QueryIr[] {
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
    let ir: QueryIr | null;
    try {
      const cx = createChecker(query, schema, diagnostics, options.bm25, options.bm25Origin);
      cx.offered = options.offered ?? null;
      ir = checkQuery(cx);
    } catch (e) {
      throw new QueryInternalError(query.name.name, e);
    }
    if (ir !== null) out.push(ir);
  }
  return out;
}

function checkQuery(cx: Checker): QueryIr | null {
  const query = cx.query;
  const { mcp, model } = checkAttributes(cx);
  const params = checkParams(cx);
  const statements = checkStatements(cx, query.body);
  const returns = checkReturn(cx);
  if (query.returns === null) {
    cx.warn("W001", `query '${query.name.name}' has no RETURN`, query.name.span, "add RETURN NONE if it returns nothing on purpose");
  }
  cx.finish();
  if (cx.failed) return null;
  const declared = [...params, ...cx.inferred.map((p): ParamSpec => ({ name: p.name, type: p.type, optional: false }))];
  const specs = declared.map((p): ParamSpec => (cx.vectorParams.has(p.name) ? { ...p, vector: true } : p));
  const ir: QueryIr = { name: query.name.name, params: specs, writes: cx.writes, mcp, model, statements, returns, file: query.span.file };
  if (model !== null) applyModel(ir, model);
  return ir;
}

function checkAttributes(cx: Checker): { mcp: boolean; model: string | null } {
  let mcp = false;
  let model: string | null = null;
  const seen = new Set<string>();
  for (const attr of cx.query.attributes) {
    if (seen.has(attr.name.name)) {
      cx.report("E306", `attribute '#[${attr.name.name}]' is given twice`, attr.name.span);
      continue;
    }
    seen.add(attr.name.name);
    if (attr.name.name === "mcp" && attr.args.length === 0) mcp = true;
    else if (attr.name.name === "model" && attr.args.length === 1 && attr.args[0]!.kind === "String") model = checkModel(cx, attr.args[0]!);
    else cx.report("E306", `unknown attribute '#[${attr.name.name}]'`, attr.span, `known attributes: #[mcp], #[model("<provider:model>")]`);
  }
  return { mcp, model };
}

/**
 * The model string of `#[model("...")]`, validated as startup validates it (E308 at the string
 * otherwise), so `strand check` rejects what `strand serve` would refuse to start with.
 */
function checkModel(cx: Checker, arg: A.Literal & { kind: "String" }): string | null {
  const parsed = parseModelName(arg.value);
  if (parsed.ok) return arg.value;
  cx.report("E308", parsed.error, arg.span, `e.g. #[model("openai:text-embedding-3-small")]`);
  return null;
}

function checkParams(cx: Checker): ParamSpec[] {
  const specs: ParamSpec[] = [];
  for (const p of cx.query.params) {
    if (cx.lookup(p.name.name) !== undefined) {
      cx.report("E302", `parameter '${p.name.name}' is declared twice`, p.name.span);
      continue;
    }
    if (p.name.name === PROTO) {
      cx.report(
        "E104",
        `parameter name '${PROTO}' is reserved: a JavaScript object cannot hold it as a plain member`,
        p.name.span,
        "rename the parameter",
      );
      continue;
    }
    const type = resolveValueType(p.type, cx.diagnostics);
    if (type === null) continue;
    cx.declare(p.name.name, { kind: "param", type, optional: p.optional, span: p.name.span });
    specs.push({ name: p.name.name, type, optional: p.optional });
  }
  return specs;
}

// ------------------------------------------------------------ statements

function checkStatements(cx: Checker, body: readonly A.Statement[]): IrStatement[] {
  const out: IrStatement[] = [];
  for (const stmt of body) {
    const s = checkStatement(cx, stmt);
    if (s !== null) out.push(s);
  }
  return out;
}

function checkStatement(cx: Checker, stmt: A.Statement): IrStatement | null {
  switch (stmt.kind) {
    case "Assign": {
      const value = checkExpr(cx, stmt.value);
      const name = stmt.name.name;
      if (cx.lookup(name) !== undefined) {
        cx.report("E305", `'${name}' is already defined in query '${cx.query.name.name}'`, stmt.name.span, "choose another name");
        return null;
      }
      // A variable bound to a write is used by being written; only unused reads are reported.
      cx.declare(name, { kind: "var", type: value.type, span: stmt.name.span, used: isWrite(value), origin: value });
      return { kind: "let", name, value };
    }
    case "ExprStatement":
      return { kind: "eval", value: checkExpr(cx, stmt.expr) };
    case "Drop": {
      const target = checkExpr(cx, stmt.target);
      if (target.type.kind === "error") return null;
      if (target.type.kind !== "items") {
        cx.report("E216", `DROP removes nodes, edges or vectors, but this is ${describeStatic(target.type)}`, stmt.target.span);
        return null;
      }
      cx.writes = true;
      return { kind: "drop", target };
    }
    case "For":
      return checkFor(cx, stmt);
  }
}

function isWrite(ir: Ir): boolean {
  return ["addNode", "addEdge", "addVector", "update", "upsertNode", "upsertEdge", "upsertVector"].includes(ir.op);
}

function checkFor(cx: Checker, stmt: A.Statement & { kind: "For" }): IrStatement | null {
  const iterable = checkExpr(cx, stmt.iterable);
  const t = iterable.type;
  if (t.kind === "error") return null;
  let element: StaticType;
  if (t.kind === "value" && t.type.kind === "array") element = value(t.type.element);
  else if (t.kind === "values") element = value(t.type);
  else if (t.kind === "items" && t.card === "many") element = withCard(t, "one");
  else {
    cx.report("E215", `FOR iterates over a list, but this is ${describeStatic(t)}`, stmt.iterable.span);
    return null;
  }
  if (iterable.op === "param" && iterable.optional) {
    cx.requiredHere(iterable.name, stmt.iterable.span, "the list of a FOR loop");
    return null;
  }
  return cx.inScope(() => {
    const names: string[] = [];
    if (stmt.binding.kind === "ForName") {
      declareLoopVar(cx, stmt.binding.name, element);
      names.push(stmt.binding.name.name);
    } else {
      const obj = element.kind === "value" && element.type.kind === "object" ? element.type : null;
      if (obj === null) {
        cx.report("E215", `FOR {..} takes apart objects, but the list holds ${describeStatic(element)}`, stmt.binding.span);
        return null;
      }
      for (const n of stmt.binding.names) {
        const field = obj.fields.find((f) => f.name === n.name);
        if (field === undefined) {
          cx.report("E110", `unknown field '${n.name}' in ${helixTypeName(obj)}`, n.span);
          continue;
        }
        declareLoopVar(cx, n, value(field.type, field.optional));
        names.push(n.name);
      }
    }
    const body = checkStatements(cx, stmt.body);
    return { kind: "for", names, destructure: stmt.binding.kind === "ForDestructure", iterable, body };
  });
}

function declareLoopVar(cx: Checker, name: A.Identifier, type: StaticType): void {
  if (cx.lookup(name.name) !== undefined) {
    cx.report("E305", `'${name.name}' is already defined in query '${cx.query.name.name}'`, name.span, "choose another name");
    return;
  }
  cx.declare(name.name, { kind: "var", type, span: name.span, used: false });
}

// ------------------------------------------------------------ RETURN

function checkReturn(cx: Checker): IrReturns | null {
  const ret = cx.query.returns;
  if (ret === null) return null;
  if (ret.kind === "ReturnNone")
    return {
      kind: "value",
      value: { op: "literal", value: null, type: { kind: "value", type: { kind: "scalar", name: "String" }, nullable: true } },
    };
  // `RETURN {..}` alone is the response body, in exactly that shape.
  if (ret.values.length === 1 && ret.values[0]!.kind === "Object") return { kind: "value", value: checkExpr(cx, ret.values[0]!) };
  const members: IrReturn[] = [];
  for (const expr of ret.values) {
    const key = returnKey(expr);
    if (members.some((m) => m.key === key)) {
      cx.report(
        "E307",
        `RETURN names '${key}' twice`,
        expr.span,
        "return an object literal to name members yourself: RETURN {a: .., b: ..}",
      );
      continue;
    }
    const ir = checkExpr(cx, expr);
    members.push({ key, value: ir.type.kind === "error" ? bad() : ir });
  }
  return { kind: "members", members };
}

/** A returned variable (or traversal from one) is named after it; any other value is `data`. */
function returnKey(expr: A.Expr): string {
  if (expr.kind === "Ident") return expr.name;
  if (expr.kind === "Traversal" && expr.source.kind === "Var") return expr.source.name.name;
  return "data";
}

// ------------------------------------------------------------ #[model]

/** `#[model("...")]` overrides the embedding model of every Embed in the query. */
function applyModel(query: QueryIr, model: string): void {
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== "object") return;
    if (Array.isArray(node)) {
      for (const n of node) visit(n);
      return;
    }
    const rec = node as Record<string, unknown>;
    if (rec.op === "embed") rec.model = model;
    for (const k of Object.keys(rec)) if (k !== "type") visit(rec[k]);
  };
  visit(query.statements);
  visit(query.returns);
}
