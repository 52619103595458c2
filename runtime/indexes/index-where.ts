// The candidates an INDEX offers for `T::WHERE(..)` (QueryContext.itemsWhereIndexed): the ids of
// the items whose indexed field satisfies one condition (EQ, or a range from GT/GTE/LT/LTE, the
// conditions on one field combined), in id order. A superset of what the condition holds for is
// enough, since the caller still applies the whole WHERE to each candidate, but never a subset:
// so a condition is served only where the key order of `index` / `unique` is exactly the order
// HelixQL compares in (runtime/ops/compare.ts):
// - numbers, numerically (lmdb's ordered-binary sorts doubles; -0 is keyed as 0);
// - Dates, when the value is canonical like the stored ones (then code point order is time order);
// - IDs, by a printable ASCII value (stored ids are lower-case ASCII);
// - Strings and Booleans by EQ only: ranges of strings are not served, since a string over 256
//   characters (or with a control character) is keyed by its digest;
//   a Date-shaped String value may equal another notation of the same instant, so it is not served.
// Anything else (null, a value of another kind) is not served: null means "scan instead".
// test/index-where.test.ts checks over seeded random data that the answer is always the scan's.
import type { Transaction } from "lmdb";
import type { PropValue } from "../../core/items.js";
import type { IndexCondition } from "../../core/query-context.js";
import { isNumericScalar, type ScalarName } from "../../core/scalars.js";
import { compareStrings } from "../../core/text-order.js";
import { dateShaped, isCanonicalDate } from "../../core/values.js";
import type { StoreDbs } from "../store/dbs.js";
import { idOfValue, indexBound, indexValue, keyId, MAX_KEY, type Key } from "../store/keys.js";
import type { FieldInfo, TypeInfo } from "../store/schema-info.js";

type Bounded = number | string | boolean;

interface Bound {
  value: Bounded;
  inclusive: boolean;
}

/** What the served conditions on one field allow: an interval (EQ: a point), or nothing. */
interface FieldRange {
  field: FieldInfo;
  lower: Bound | null;
  upper: Bound | null;
  eq: boolean;
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** Candidate ids in id order, or null when no condition can be served (scan instead). */
export function indexCandidates(
  dbs: StoreDbs,
  transaction: Transaction | undefined,
  info: TypeInfo,
  conditions: readonly IndexCondition[],
): string[] | null {
  const ranges = new Map<string, FieldRange>();
  for (const c of conditions) {
    const field = info.fieldByName.get(c.field);
    if (field === undefined || field.descriptor.index === "none" || field.descriptor.type.kind !== "scalar") continue;
    if (!served(field.descriptor.type.name, c.op, c.value)) continue;
    let r = ranges.get(c.field);
    if (r === undefined) {
      r = { field, lower: null, upper: null, eq: false };
      ranges.set(c.field, r);
    }
    narrow(r, c.op, c.value as Bounded);
  }
  const all = [...ranges.values()];
  const best = all.find((r) => r.eq) ?? all.find((r) => r.lower !== null && r.upper !== null) ?? all[0];
  if (best === undefined) return null;
  if (isEmpty(best)) return [];
  const ids = new Set<string>();
  collect(dbs, transaction, info, best, ids);
  return [...ids].sort();
}

function served(type: ScalarName, op: IndexCondition["op"], value: PropValue): boolean {
  if (isNumericScalar(type)) return typeof value === "number" && Number.isFinite(value);
  switch (type) {
    case "Boolean":
      return op === "EQ" && typeof value === "boolean";
    case "String":
      return op === "EQ" && typeof value === "string" && !dateShaped(value);
    case "ID":
      return typeof value === "string" && (op === "EQ" || PRINTABLE_ASCII.test(value));
    case "Date":
      return typeof value === "string" && isCanonicalDate(value);
    default:
      return false;
  }
}

function compareBounded(a: Bounded, b: Bounded): number {
  if (typeof a === "number" && typeof b === "number") return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === "string" && typeof b === "string") return compareStrings(a, b);
  return a === b ? 0 : a === false ? -1 : 1;
}

/** Intersects the field's interval with `op value`. */
function narrow(r: FieldRange, op: IndexCondition["op"], value: Bounded): void {
  if (op === "EQ") r.eq = true;
  if (op === "EQ" || op === "GT" || op === "GTE") {
    const b = { value, inclusive: op !== "GT" };
    const c = r.lower === null ? 1 : compareBounded(value, r.lower.value);
    if (c > 0 || (c === 0 && !b.inclusive)) r.lower = b;
  }
  if (op === "EQ" || op === "LT" || op === "LTE") {
    const b = { value, inclusive: op !== "LT" };
    const c = r.upper === null ? -1 : compareBounded(value, r.upper.value);
    if (c < 0 || (c === 0 && !b.inclusive)) r.upper = b;
  }
}

function isEmpty(r: FieldRange): boolean {
  if (r.lower === null || r.upper === null) return false;
  const c = compareBounded(r.lower.value, r.upper.value);
  return c > 0 || (c === 0 && !(r.lower.inclusive && r.upper.inclusive));
}

/** Adds the ids keyed in [lower, upper] of the field (an open end when null). */
function collect(dbs: StoreDbs, transaction: Transaction | undefined, info: TypeInfo, r: FieldRange, ids: Set<string>): void {
  const { lower, upper } = r;
  const base: Key = [info.kind, info.name, r.field.name];
  const low: Key = lower === null ? base : [...base, indexValue(lower.value)];
  const high: Key = upper === null ? base : [...base, indexValue(upper.value)];
  // From the first id at or after the lower value (after its last id when exclusive) to the last
  // id at or before the upper value; an open end: every value of the field.
  const lowAfter = lower !== null && !lower.inclusive;
  const highAfter = upper === null || upper.inclusive;
  if (r.field.descriptor.index === "unique") {
    // `unique` keys are the ordered-binary arrays themselves (no id in them).
    const start: Key = lowAfter ? [...low, MAX_KEY] : low;
    const end: Key = highAfter ? [...high, MAX_KEY] : high;
    const options = transaction === undefined ? { start, end } : { start, end, transaction };
    for (const { value } of dbs.unique.getRange(options)) ids.add(idOfValue(value));
    return;
  }
  const start = indexBound(low, lowAfter);
  const end = indexBound(high, highAfter);
  const options = transaction === undefined ? { start, end } : { start, end, transaction };
  for (const key of dbs.index.getKeys(options)) ids.add(keyId(key));
}
