// The part of QueryContext that needs no storage: sequence operations, values, reshaping, and
// the embedding lookup. The transaction-bound contexts (runtime/query/context.ts) extend it.
import { atElement, StrandError } from "../../core/errors.js";
import type { EmbeddingLookup } from "../../core/embedding-lookup.js";
import type { AggregateGroup, GraphItem, GroupCount, NodeItem, PropValue, Props } from "../../core/items.js";
import type { AggregateFn, CompareOp, MathFn, MathSource, SortDirection } from "../../core/query-context.js";
import { describeValue } from "../../core/values.js";
import { compareValues, contains, isIn } from "./compare.js";
import { aggregateBy, groupBy } from "./grouping.js";
import { aggregate, math } from "./math.js";
import { rerankMMR, type MmrDistance } from "./rerank.js";
import * as seq from "./sequence.js";

const hasOwn = Object.prototype.hasOwnProperty;

export class ValueOps {
  // ---- sequence operations (pure; see runtime/ops)

  count(items: readonly unknown[]): number {
    return seq.count(items);
  }

  range<T>(items: readonly T[], start: number, end: number): T[] {
    return seq.range(items, start, end);
  }

  order<T>(items: readonly T[], key: (item: T) => PropValue, direction: SortDirection): T[] {
    return seq.order(items, key, direction);
  }

  first<T>(items: readonly T[]): T | null {
    return seq.first(items);
  }

  filter<T>(items: readonly T[], predicate: (item: T) => boolean): T[] {
    return seq.filter(items, predicate);
  }

  groupBy(items: readonly GraphItem[], properties: readonly string[]): GroupCount[] {
    return groupBy(items, properties);
  }

  aggregateBy<T extends GraphItem>(items: readonly T[], properties: readonly string[]): AggregateGroup<T>[] {
    return aggregateBy(items, properties);
  }

  // ---- values

  absent(place: string, name: string | null, lookup: readonly [string, string] | null, value?: PropValue): never {
    throw new StrandError("NOT_FOUND", absentMessage(place, name, lookup, value));
  }

  atElement(error: unknown, path: string): unknown {
    return atElement(error, path);
  }

  prop(item: GraphItem | null, name: string): PropValue {
    // Own members only: a field name must never resolve to something on Object.prototype.
    return item !== null && hasOwn.call(item, name) ? (item[name] as PropValue) : null;
  }

  compare(op: CompareOp, left: PropValue, right: PropValue): boolean {
    return compareValues(op, left, right);
  }

  contains(haystack: PropValue, needle: PropValue): boolean {
    return contains(haystack, needle);
  }

  isIn(value: PropValue, list: PropValue): boolean {
    return isIn(value, list);
  }

  math(
    fn: MathFn,
    args: readonly PropValue[],
    sources?: readonly (MathSource | null)[],
    item0?: GraphItem | null,
    item1?: GraphItem | null,
  ): number {
    return math(fn, args, sources, item0, item1);
  }

  aggregate(fn: AggregateFn, values: readonly PropValue[]): number | null {
    return aggregate(fn, values);
  }

  now(): string {
    return new Date().toISOString();
  }

  // ---- reshaping and retrieval helpers

  omit(item: GraphItem, names: readonly string[]): Props {
    const out: Props = {};
    for (const key of Object.keys(item)) if (!names.includes(key)) out[key] = item[key] as PropValue;
    return out;
  }

  dedup<T extends GraphItem>(items: readonly T[]): T[] {
    return seq.dedup(items);
  }

  intersect<I, T extends GraphItem>(items: readonly I[], sub: (item: I) => readonly T[]): T[] {
    return seq.intersect(items, sub);
  }

  /** Set by the query runner when the project has an embedder (see embedding-lookup.ts). */
  private embeddings: EmbeddingLookup | null = null;

  useEmbeddings(lookup: EmbeddingLookup | null): void {
    this.embeddings = lookup;
  }

  embed(text: string, model: string | null): number[] {
    if (this.embeddings === null) throw new StrandError("EMBEDDING_FAILED", "Embed(..) needs an embedding model, and none is configured");
    const found = this.embeddings.get(text, model);
    if (found !== undefined) return found;
    return this.embeddings.miss(text, model);
  }

  rerankMMR<T extends NodeItem>(items: readonly T[], lambda: number, distance: MmrDistance): T[] {
    return rerankMMR(items, lambda, distance);
  }
}

/**
 * `AddE<Knows>::To(y): y is empty (N<Person>({name: "bob"}) found nothing)`, or without a
 * variable `N<Person>(..): N<Person>({name: "bob"}) found nothing`. The value is echoed bounded.
 */
export function absentMessage(place: string, name: string | null, lookup: readonly [string, string] | null, value?: PropValue): string {
  const what = lookup === null ? null : `${lookup[0]}${describeValue(value)}${lookup[1]}`;
  if (name !== null) return `${place}(${name}): ${name} is empty${what === null ? "" : ` (${what} found nothing)`}`;
  return `${place}(..): ${what ?? "the item"} found nothing`;
}
