// The one nesting limit of HelixQL programs (E006). The checker and code generator recurse over
// expressions, and TypeScript's printer recurses over the generated code, which nests as deeply as
// the program does (each `::Step` wraps the traversal before it, each call its arguments). Past a
// few hundred levels one of them overflows the stack, so every top-level item is measured first and
// anything nested more than MAX_NESTING levels is rejected at the first node beyond the limit, before
// checking. Programs within the limit always compile and load with under half of Node's
// stack (test/nesting.test.ts compiles every construct at the limit, generated code included).
//
// Levels, counted from 1 at each statement, RETURN value, field type, parameter type or migration
// mapping: every argument, array element, object member, projection field, `!` operand and member
// access is one level below what contains it; each `::Step` is one level below the traversal before
// it (its arguments one more); a FOR body is one level below the FOR; each `[T]` or `{f: T}` of a
// type one level below the enclosing type.
import type * as A from "./ast.js";
import { error, type Diagnostic } from "../diagnostics/diagnostic.js";

/** The deepest nesting a program may use (see above). (The deepest of 444 real queries in test/corpus/valid nests 15; every construct at 48 compiles with under half of Node's default stack.) */
export const MAX_NESTING = 48;

const MESSAGE = `nested more than ${MAX_NESTING} levels deep (the limit of HelixQL programs)`;

/** Where nesting exceeds the limit: the first node (in source order) beyond it, or null. */
class TooDeep {
  constructor(
    readonly at: A.Spanned,
    readonly kind: "step" | "expression" | "type" | "statement",
  ) {}
}

/**
 * Reports E006 at the first node nested beyond MAX_NESTING in each top-level item and returns the
 * number of such items. Recursion is bounded: nothing below the limit is visited.
 */
export function checkNesting(items: readonly A.TopLevelItem[], diagnostics: Diagnostic[]): number {
  let count = 0;
  for (const item of items) {
    const found = tooDeepIn(item);
    if (found === null) continue;
    count++;
    diagnostics.push(error("E006", MESSAGE, found.at.span, hintFor(found.kind)));
  }
  return count;
}

function hintFor(kind: TooDeep["kind"]): string {
  switch (kind) {
    case "step":
      return "split the traversal: assign its first part to a variable and continue from that variable";
    case "statement":
      return "move the innermost FOR loops into a query of their own";
    case "type":
      return "flatten the type";
    case "expression":
      return "split deeply nested expressions into several assignments";
  }
}

function tooDeepIn(item: A.TopLevelItem): TooDeep | null {
  try {
    switch (item.kind) {
      case "NodeSchema":
      case "VectorSchema":
      case "EdgeSchema":
        fieldTypes(item.fields);
        break;
      case "SchemaVersionBlock":
        for (const schemaItem of item.items) fieldTypes(schemaItem.fields);
        break;
      case "Migration":
        for (const m of item.items) {
          for (const mapping of m.mappings) {
            expr(mapping.value, 1);
            if (mapping.cast !== null) type(mapping.cast, 1);
          }
        }
        break;
      case "Query":
        for (const p of item.params) type(p.type, 1);
        statements(item.body, 1);
        if (item.returns?.kind === "ReturnValues") for (const v of item.returns.values) expr(v, 1);
        break;
    }
    return null;
  } catch (e) {
    if (e instanceof TooDeep) return e;
    throw e;
  }
}

function at(node: A.Spanned, depth: number, kind: TooDeep["kind"]): void {
  if (depth > MAX_NESTING) throw new TooDeep(node, kind);
}

function fieldTypes(fields: readonly A.FieldDef[]): void {
  for (const f of fields) type(f.type, 1);
}

function type(t: A.TypeExpr, depth: number): void {
  at(t, depth, "type");
  if (t.kind === "ArrayType") type(t.element, depth + 1);
  else if (t.kind === "ObjectType") for (const f of t.fields) type(f.type, depth + 1);
}

function statements(body: readonly A.Statement[], depth: number): void {
  for (const s of body) {
    at(s, depth, "statement");
    switch (s.kind) {
      case "Assign":
        expr(s.value, depth);
        break;
      case "Drop":
        expr(s.target, depth);
        break;
      case "ExprStatement":
        expr(s.expr, depth);
        break;
      case "For":
        expr(s.iterable, depth);
        statements(s.body, depth + 1);
        break;
    }
  }
}

function args(list: readonly A.Arg[], depth: number): void {
  for (const a of list) expr(a.value, depth);
}

function expr(e: A.Expr, depth: number): void {
  at(e, depth, "expression");
  switch (e.kind) {
    case "Literal":
    case "Ident":
      return;
    case "Array":
      for (const x of e.elements) expr(x, depth + 1);
      return;
    case "Object":
      for (const entry of e.entries) expr(entry.value, depth + 1);
      return;
    case "Call":
      args(e.args, depth + 1);
      return;
    case "Not":
      expr(e.operand, depth + 1);
      return;
    case "Member":
      expr(e.object, depth + 1);
      return;
    case "Traversal": {
      if (e.source.kind === "Lookup" || e.source.kind === "GenericCall") args(e.source.args, depth + 1);
      // A chain is walked in a loop: step i is nested i levels below the source.
      e.steps.forEach((step, i) => {
        const d = depth + i + 1;
        at(step, d, "step");
        switch (step.kind) {
          case "Call":
            args(step.args, d + 1);
            break;
          case "Projection":
          case "Closure":
            for (const f of step.fields) if (f.value !== null) expr(f.value, d + 1);
            break;
          case "Exclusion":
            break;
        }
      });
      return;
    }
  }
}
