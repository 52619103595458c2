// Sequence operations over the item lists a query step produces. All are pure and never mutate
// their input.
import { StrandError } from "../../core/errors.js";
import type { PropValue } from "../../core/items.js";
import type { SortDirection } from "../../core/query-context.js";
import { compareForSort } from "./compare.js";

export function count(items: readonly unknown[]): number {
  return items.length;
}

function checkBound(name: "start" | "end", value: number): void {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
    throw new StrandError("INVALID_VALUE", `RANGE ${name} must be an integer >= 0, got ${String(value)}`);
  }
}

/** RANGE's bounds: integers >= 0, end not less than start (INVALID_VALUE otherwise). */
export function checkRange(start: number, end: number): void {
  checkBound("start", start);
  checkBound("end", end);
  if (end < start) {
    throw new StrandError("INVALID_VALUE", `RANGE end (${end}) must not be less than start (${start})`);
  }
}

/** Elements start..end-1 (0-based, half-open). An end past the length is clamped. */
export function range<T>(items: readonly T[], start: number, end: number): T[] {
  checkRange(start, end);
  return items.slice(start, end);
}

/**
 * Stable sort by `key` using `compareForSort` (see compare.ts for the total order). Descending
 * reverses that order except that null/missing keys stay last in both directions.
 */
export function order<T>(items: readonly T[], key: (item: T) => PropValue, direction: SortDirection): T[] {
  const sign = direction === "desc" ? -1 : 1;
  // Compute each key once; the index breaks ties so stability does not depend on the engine.
  const keys: PropValue[] = items.map((item) => key(item) ?? null);
  const indexes = items.map((_, i) => i);
  indexes.sort((i, j) => {
    const a = keys[i] as PropValue;
    const b = keys[j] as PropValue;
    if (a === null || b === null) {
      if (a === null && b === null) return i - j;
      return a === null ? 1 : -1;
    }
    return sign * compareForSort(a, b) || i - j;
  });
  return indexes.map((i) => items[i]!);
}

export function first<T>(items: readonly T[]): T | null {
  return items.length > 0 ? items[0]! : null;
}

export function filter<T>(items: readonly T[], predicate: (item: T) => boolean): T[] {
  return items.filter((item) => predicate(item));
}

/** The first occurrence of each item (by id), in order. */
export function dedup<T extends { id: string }>(items: readonly T[]): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    if (seen.has(item.id)) return false;
    seen.add(item.id);
    return true;
  });
}

/** The items every input item's sub-traversal reaches (by id), in the order of the first one's. */
export function intersect<I, T extends { id: string }>(items: readonly I[], sub: (item: I) => readonly T[]): T[] {
  if (items.length === 0) return [];
  let common: T[] = dedup(sub(items[0]!));
  for (let i = 1; i < items.length && common.length > 0; i++) {
    const ids = new Set(sub(items[i]!).map((t) => t.id));
    common = common.filter((t) => ids.has(t.id));
  }
  return common;
}

/**
 * The matches of `predicate` among `records`, from the start-th (0-based) to before the end-th
 * (default: all), reading no record after the end-th match (so a cursor behind `records` stops
 * there). Bounds as `range` (INVALID_VALUE).
 */
export function matches<T>(records: Iterable<T>, predicate: (item: T) => boolean, start: number, end: number | undefined): T[] {
  checkRange(start, end ?? start);
  const out: T[] = [];
  if (end === start) return out;
  let matched = 0;
  for (const value of records) {
    if (!predicate(value)) continue;
    if (matched++ >= start) out.push(value);
    if (matched === end) break; // leaving the loop closes lmdb's cursor
  }
  return out;
}

/** The records `get` finds for `ids`, lazily, in order (ids it does not find are skipped). */
export function* present<T>(ids: readonly string[], get: (id: string) => T | undefined): Generator<T> {
  for (const id of ids) {
    const rec = get(id);
    if (rec !== undefined) yield rec;
  }
}
