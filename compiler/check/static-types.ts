// The static types the checker gives expressions, and small constructors for them: what every
// checking module needs besides the Checker.
import { ANY_LABEL, ITEM_WORD, type Cardinality, type Ir, type ItemKind, type StaticType } from "../ir/ir.js";
import { helixTypeName } from "../../core/schema.js";

import type { ValueType } from "../../core/schema.js";

export type ItemsType = StaticType & { kind: "items" };

export const ERROR_TYPE: StaticType = { kind: "error" };

export const BOOLEAN_TYPE: StaticType = { kind: "boolean" };

export const COUNT_TYPE: StaticType = { kind: "value", type: { kind: "scalar", name: "I64" } };

export const ID_VALUE: ValueType = { kind: "scalar", name: "ID" };

export const STRING_VALUE: ValueType = { kind: "scalar", name: "String" };

export const F64_VALUE: ValueType = { kind: "scalar", name: "F64" };

export const VECTOR_VALUE: ValueType = { kind: "array", element: F64_VALUE };

export function bad(): Ir {
  return { op: "literal", value: null, type: ERROR_TYPE };
}

export function items(item: ItemKind, label: string, card: Cardinality): ItemsType {
  return { kind: "items", item, label, card };
}

export function withCard(t: ItemsType, card: Cardinality): ItemsType {
  return { ...t, card };
}

export function value(type: ValueType, nullable = false): StaticType {
  return nullable ? { kind: "value", type, nullable: true } : { kind: "value", type };
}

export function describeStatic(t: StaticType): string {
  switch (t.kind) {
    case "items":
      if (t.label === ANY_LABEL)
        return t.card === "many" ? `a list of ${ITEM_WORD[t.item]}s of any type` : `one ${ITEM_WORD[t.item]} of any type`;
      return t.card === "many" ? `a list of ${t.label} ${ITEM_WORD[t.item]}s` : `one ${t.label} ${ITEM_WORD[t.item]}`;
    case "value":
      return `a value of type ${helixTypeName(t.type)}`;
    case "values":
      return `a list of ${helixTypeName(t.type)} values`;
    case "object":
      return t.card === "many" ? "a list of projected objects" : "an object";
    case "array":
      return "an array";
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
