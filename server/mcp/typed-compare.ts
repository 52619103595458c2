// One filter condition `{key, operator, value}` compiled against the property's declared type.
// Request values arrive as strings (numbers and booleans are accepted too) and are read as that
// type: numbers numerically, Dates as instants (any RFC 3339 offset, YYYY-MM-DD, or unix seconds
// as a number or a string of digits), Booleans as true/false, IDs case-insensitively, Strings by
// UTF-16 code unit.
//
// List semantics: the item's value (a list for `[T]` properties, else one value; none when absent)
// and the request value (an array, else one value) are compared pairwise, and the condition holds
// when any pair satisfies it. `!=` is the negation of `==`, so with lists `==` means "contains /
// is one of" and `!=` "contains none of".
import { StrandError } from "../../core/errors.js";
import type { PropValue } from "../../core/items.js";
import type { ScalarName, ValueType } from "../../core/schema.js";
import { checkValue } from "../../core/values.js";
import { isNumericScalar } from "../../core/scalars.js";
import { fieldPath, invalid } from "./body.js";

export const OPERATORS = ["==", "!=", ">", ">=", "<", "<="] as const;
export type FilterOperator = (typeof OPERATORS)[number];

type Comparable = number | string | boolean;

const UNIX_SECONDS_RE = /^-?\d{1,15}$/;
const NUMBER_RE = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** The request value read as `scalar`; INVALID_PARAMETER naming `path` when it is not one. */
function readRequestValue(scalar: ScalarName, raw: unknown, path: string): Comparable {
  if (isNumericScalar(scalar)) {
    const n = typeof raw === "number" ? raw : typeof raw === "string" && NUMBER_RE.test(raw.trim()) ? Number(raw.trim()) : NaN;
    if (!Number.isFinite(n)) throw invalid(path, `a number (the property is ${scalar})`, raw);
    return n;
  }
  switch (scalar) {
    case "Boolean":
      if (raw === true || raw === "true") return true;
      if (raw === false || raw === "false") return false;
      throw invalid(path, "'true' or 'false' (the property is Boolean)", raw);
    case "String":
      if (typeof raw !== "string") throw invalid(path, "a string (the property is String)", raw);
      return raw;
    case "ID": {
      const r = checkValue({ kind: "scalar", name: "ID" }, raw, path);
      if (!r.ok) throw invalid(path, "a UUID (the property is ID)", raw);
      return r.value as string;
    }
    case "Date": {
      // Filter values are strings, so unix seconds may come as a string of digits too.
      const r = checkValue(
        { kind: "scalar", name: "Date" },
        typeof raw === "string" && UNIX_SECONDS_RE.test(raw) ? Number(raw) : raw,
        path,
      );
      if (!r.ok) throw invalid(path, "a date: RFC 3339 with an offset (2024-05-01T12:00:00+02:00), YYYY-MM-DD or unix seconds", raw);
      return Date.parse(r.value as string);
    }
  }
  throw invalid(path, `a value of type ${scalar}`, raw);
}

/** A stored value as a comparable of `scalar`, or undefined when it is not one (it then matches nothing). */
function readStoredValue(scalar: ScalarName, value: PropValue): Comparable | undefined {
  if (isNumericScalar(scalar)) return typeof value === "number" ? value : undefined;
  switch (scalar) {
    case "Boolean":
      return typeof value === "boolean" ? value : undefined;
    case "String":
    case "ID":
      return typeof value === "string" ? value : undefined;
    case "Date": {
      // Stored Dates are canonical ISO strings; compare instants, not text.
      const ms = typeof value === "string" ? Date.parse(value) : NaN;
      return Number.isFinite(ms) ? ms : undefined;
    }
  }
  return undefined;
}

function holds(op: FilterOperator, a: Comparable, b: Comparable): boolean {
  switch (op) {
    case "==":
      return a === b;
    case "!=":
      return a !== b;
    case ">":
      return a > b;
    case ">=":
      return a >= b;
    case "<":
      return a < b;
    case "<=":
      return a <= b;
  }
}

/**
 * The test `itemValue OP value` for a property declared as `type`. `keyPath` / `valuePath` name
 * the request fields in errors; `property` names the property ("User.age").
 */
export function compileCondition(
  type: ValueType,
  op: FilterOperator,
  value: unknown,
  keyPath: string,
  valuePath: string,
  property: string,
): (itemValue: PropValue | undefined) => boolean {
  const element = type.kind === "array" ? type.element : type;
  if (element.kind !== "scalar") {
    throw new StrandError("INVALID_PARAMETER", `'${keyPath}': ${property} holds objects or nested lists, which filters cannot compare`);
  }
  const scalar = element.name;
  const rawList = Array.isArray(value) ? value : [value];
  if (rawList.length === 0) throw invalid(valuePath, "a value or a non-empty array of values", value);
  const wanted = rawList.map((raw, i) => readRequestValue(scalar, raw, Array.isArray(value) ? fieldPath(valuePath, i) : valuePath));
  const positive: FilterOperator = op === "!=" ? "==" : op;
  return (itemValue) => {
    const stored = itemValue === undefined || itemValue === null ? [] : Array.isArray(itemValue) ? itemValue : [itemValue];
    let any = false;
    for (const s of stored) {
      const left = readStoredValue(scalar, s);
      if (left === undefined) continue;
      if (wanted.some((right) => holds(positive, left, right))) {
        any = true;
        break;
      }
    }
    return op === "!=" ? !any : any;
  };
}
