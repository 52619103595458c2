// Value comparison shared by WHERE-style predicates (`compareValues`) and ORDER (`compareForSort`).
// Both work on wire values (JSON); Dates arrive as normalised ISO-8601 UTC strings, so comparing
// them as strings by code unit is chronological.
import type { PropValue } from "../items.js";
import type { CompareOp } from "../query-context.js";

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
      if (!Object.prototype.hasOwnProperty.call(y, key) || !deepEqual(x[key]!, y[key]!)) return false;
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

function compareStrings(a: string, b: string): number {
  // JS relational operators on strings compare UTF-16 code units, not locale collation.
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The total order used by ORDER (ascending; `order` reverses it for descending but keeps null last):
 * - different kinds rank number < string < boolean < array < object < null;
 * - numbers numerically, strings by UTF-16 code unit, false < true;
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
 * A HelixQL comparison. EQ/NEQ are structural (null EQ null is true; different kinds are unequal).
 * GT/GTE/LT/LTE are defined only between two numbers, two strings or two booleans; anything
 * else (null, arrays, objects, mixed kinds) makes them false.
 */
export function compareValues(op: CompareOp, left: PropValue, right: PropValue): boolean {
  switch (op) {
    case "EQ":
      return deepEqual(left, right);
    case "NEQ":
      return !deepEqual(left, right);
    default: {
      const kind = kindOf(left);
      if (kind !== kindOf(right) || (kind !== "number" && kind !== "string" && kind !== "boolean")) return false;
      // Same scalar kind: the native operators give numeric / code-unit / false<true order (NaN → false).
      const l = left as number | string | boolean;
      const r = right as number | string | boolean;
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
