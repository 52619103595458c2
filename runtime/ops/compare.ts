// Value comparison shared by WHERE-style predicates (`compareValues`), CONTAINS / IS_IN and
// ORDER (`compareForSort`). All work on wire values (JSON). Stored and parameter Dates are
// canonical ISO-8601 UTC strings, which sort chronologically as strings; comparisons also accept
// Dates in any other RFC 3339 / YYYY-MM-DD form (a literal, say) by comparing instants.
import { StrandError } from "../../core/errors.js";
import type { PropValue } from "../../core/items.js";
import type { CompareOp } from "../../core/query-context.js";
import { dateMillis, dateShaped, describeValue, isCanonicalDate } from "../../core/values.js";
import { compareStrings } from "../../core/text-order.js";

/** Kinds in the order `compareForSort` ranks values of different kinds; null is always last. */
type Kind = "number" | "string" | "boolean" | "array" | "object" | "null";

const KIND_RANK: Record<Kind, number> = { number: 0, string: 1, boolean: 2, array: 3, object: 4, null: 5 };

export function kindOf(value: PropValue | undefined): Kind {
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value)) return "array";
  switch (typeof value) {
    case "number":
      return "number";
    case "string":
      return "string";
    case "boolean":
      return "boolean";
    default:
      return "object";
  }
}

/** Structural equality: arrays element-wise, objects by key set (order-insensitive) and values. */
export function deepEqual(a: PropValue, b: PropValue): boolean {
  if (a === b) return true;
  const kind = kindOf(a);
  if (kind !== kindOf(b)) return false;
  if (kind === "array") {
    const x = a as PropValue[];
    const y = b as PropValue[];
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!deepEqual(x[i]!, y[i]!)) return false;
    return true;
  }
  if (kind === "object") {
    const x = a as { [key: string]: PropValue };
    const y = b as { [key: string]: PropValue };
    const keys = Object.keys(x);
    if (keys.length !== Object.keys(y).length) return false;
    for (const key of keys) {
      if (!Object.hasOwn(y, key) || !deepEqual(x[key]!, y[key]!)) return false;
    }
    return true;
  }
  // Scalars that are not === (including NaN) are unequal.
  return false;
}

function compareNumbers(a: number, b: number): number {
  // NaN cannot come from JSON but is ranked after every number so the order stays total.
  const an = Number.isNaN(a);
  const bn = Number.isNaN(b);
  if (an || bn) return an === bn ? 0 : an ? 1 : -1;
  return a < b ? -1 : a > b ? 1 : 0; // -0 and 0 compare equal
}

/**
 * Two strings as HelixQL compares them: by code point, except that when both are Dates (RFC
 * 3339 with offset, or YYYY-MM-DD) and one is not canonical, by the instants they denote.
 */
export function compareStringValues(a: string, b: string): number {
  if (a === b) return 0;
  if (dateShaped(a) && dateShaped(b) && !(isCanonicalDate(a) && isCanonicalDate(b))) {
    const x = dateMillis(a);
    const y = dateMillis(b);
    if (x !== undefined && y !== undefined) return x - y;
  }
  return compareStrings(a, b);
}

/**
 * The total order used by ORDER (ascending; `order` reverses it for descending but keeps null last):
 * - different kinds rank number < string < boolean < array < object < null;
 * - numbers numerically, strings by code point (Dates are canonical here), false < true;
 * - arrays lexicographically element by element, a proper prefix first;
 * - objects by their sorted key lists (lexicographically), then by values in sorted-key order.
 * Returns a negative number, zero, or a positive number.
 */
export function compareForSort(a: PropValue | undefined, b: PropValue | undefined): number {
  const ka = kindOf(a);
  const kb = kindOf(b);
  if (ka !== kb) return KIND_RANK[ka] - KIND_RANK[kb];
  switch (ka) {
    case "null":
      return 0;
    case "number":
      return compareNumbers(a as number, b as number);
    case "string":
      return compareStrings(a as string, b as string);
    case "boolean":
      return a === b ? 0 : a === false ? -1 : 1;
    case "array": {
      const x = a as PropValue[];
      const y = b as PropValue[];
      const n = Math.min(x.length, y.length);
      for (let i = 0; i < n; i++) {
        const c = compareForSort(x[i], y[i]);
        if (c !== 0) return c;
      }
      return x.length - y.length;
    }
    case "object": {
      const x = a as { [key: string]: PropValue };
      const y = b as { [key: string]: PropValue };
      const xk = Object.keys(x).sort(compareStrings);
      const yk = Object.keys(y).sort(compareStrings);
      const n = Math.min(xk.length, yk.length);
      for (let i = 0; i < n; i++) {
        const c = compareStrings(xk[i]!, yk[i]!);
        if (c !== 0) return c;
      }
      if (xk.length !== yk.length) return xk.length - yk.length;
      for (const key of xk) {
        const c = compareForSort(x[key], y[key]);
        if (c !== 0) return c;
      }
      return 0;
    }
  }
}

/**
 * A HelixQL comparison (the contract is on QueryContext.compare):
 * - numbers numerically; strings by code point, Dates as instants (compareStringValues);
 *   false < true;
 * - EQ/NEQ on arrays and objects are structural (deepEqual, exact members);
 * - null EQ null is true (an absent field equals an absent optional parameter); null is never
 *   equal to a value and never ordered;
 * - different kinds are unequal and unordered: EQ and GT/GTE/LT/LTE false, NEQ true.
 */
export function compareValues(op: CompareOp, left: PropValue, right: PropValue): boolean {
  const kind = kindOf(left);
  if (kind === "string" && typeof right === "string") {
    const c = compareStringValues(left as string, right);
    switch (op) {
      case "EQ":
        return c === 0;
      case "NEQ":
        return c !== 0;
      case "GT":
        return c > 0;
      case "GTE":
        return c >= 0;
      case "LT":
        return c < 0;
      case "LTE":
        return c <= 0;
    }
  }
  switch (op) {
    case "EQ":
      return deepEqual(left, right);
    case "NEQ":
      return !deepEqual(left, right);
    default: {
      if (kind !== kindOf(right) || (kind !== "number" && kind !== "boolean")) return false;
      // Same kind: numeric order / false < true (NaN, which JSON cannot carry, → false).
      const l = left as number | boolean;
      const r = right as number | boolean;
      switch (op) {
        case "GT":
          return l > r;
        case "GTE":
          return l >= r;
        case "LT":
          return l < r;
        case "LTE":
          return l <= r;
      }
    }
  }
}

/** `CONTAINS` (QueryContext.contains): substring of a String, or an element EQ to needle. */
export function contains(haystack: PropValue, needle: PropValue): boolean {
  if (haystack === null || haystack === undefined) return false;
  if (typeof haystack === "string") return typeof needle === "string" && haystack.includes(needle);
  if (Array.isArray(haystack)) return haystack.some((element) => compareValues("EQ", element, needle));
  throw new StrandError("INVALID_VALUE", `CONTAINS needs a String or an array to search, got ${describeValue(haystack)}`);
}

/** `IS_IN` (QueryContext.isIn): list holds an element EQ to value. */
export function isIn(value: PropValue, list: PropValue): boolean {
  if (list === null || list === undefined) return false;
  if (!Array.isArray(list)) throw new StrandError("INVALID_VALUE", `IS_IN needs an array of values, got ${describeValue(list)}`);
  return list.some((element) => compareValues("EQ", value, element));
}
