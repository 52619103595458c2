// The parameters of an ad-hoc query body (compiler/adhoc.ts), which names them without declaring
// them: each is declared where it is first used, with the type that place expects (compared with
// a String field: String; an item's id: ID; a field's value in AddN: the field's type), or, where
// nothing is expected, the type its JSON value says (a whole number I64, another number F64, a
// string String, a list of whole numbers [I64], of other numbers [F64], of strings [String]: a
// FOR's list typed so its items fit integer fields as a whole number does). Neither: E122, naming it.
import type * as A from "../syntax/ast.js";
import type { ValueType } from "../../core/schema.js";
import type { Ir } from "../ir/ir.js";
import type { Checker } from "./context.js";
import { bad, value } from "./static-types.js";

export function inferParam(cx: Checker, name: string, span: A.Span, expected: ValueType | null): Ir {
  const type = expected ?? jsonType(cx.offered?.get(name));
  if (type === null) {
    cx.report(
      "E122",
      `the type of parameter '${name}' cannot be told from where the query uses it`,
      span,
      `declare it in a whole query: QUERY Q(${name}: <type>) => ...`,
    );
    return bad();
  }
  cx.declareInferred(name, type, span);
  return { op: "param", name, optional: false, type: value(type, false) };
}

function jsonType(v: unknown): ValueType | null {
  if (typeof v === "string") return { kind: "scalar", name: "String" };
  if (typeof v === "boolean") return { kind: "scalar", name: "Boolean" };
  if (typeof v === "number") return { kind: "scalar", name: Number.isInteger(v) ? "I64" : "F64" };
  if (!Array.isArray(v) || v.length === 0) return null;
  if (v.every((x) => typeof x === "number"))
    return { kind: "array", element: { kind: "scalar", name: v.every((x) => Number.isInteger(x)) ? "I64" : "F64" } };
  if (v.every((x) => typeof x === "string")) return { kind: "array", element: { kind: "scalar", name: "String" } };
  return null;
}
