// StrandStore's batch over the LangGraph store, with the semantics of LangGraph's InMemoryStore:
// a batch's gets and searches see the store as it was before the batch, its puts apply after them
// (the last put of a key wins), and results come back in the operations' order. Where this store
// differs, on purpose:
// - a put replaces the item's vectors (InMemoryStore keeps the old ones of paths the new value
//   lacks, even after a delete);
// - unranked results (no query) are ordered by namespace, label by label, then key, not by when
//   they were first put;
// - list_namespaces names only namespaces that hold an item (store-namespaces.ts);
// - items may expire (TTL in minutes; a get or search of an item refreshes it unless told not to).
// Searches score every candidate exactly (cosine against each of its vectors, the best counts), so
// a filter or a namespace never leaves a search short of its limit.
import { StrandError } from "../../core/errors.js";
import type { QueryContext } from "../../core/query-context.js";
import type { LangGraphQueries } from "./langgraph-queries.js";
import { passesFilter } from "./store-filter.js";
import { namespacePath } from "./namespace-path.js";
import { listNamespaces } from "./store-namespaces.js";
import type { StoreItemRecord, StoreOperation, StoreResult } from "./wire.js";

/** At most this many expired items are dropped per write: the sweep never makes one write long. */
const SWEEP_PER_WRITE = 64;

export interface StoredItem {
  key: string;
  namespace: string[];
  itemKey: string;
  value: Record<string, unknown>;
  createdAt: number;
  updatedAt: number;
  expiresAt: number;
  ttlMinutes: number;
  vectors: number[][];
}

/** The embedding of each text the batch needs (put texts and search queries), by text. */
export type Embeddings = ReadonlyMap<string, readonly number[]>;

type PutOperation = Extract<StoreOperation, { op: "put" }>;
type SearchOperation = Extract<StoreOperation, { op: "search" }>;

export const itemKey = (namespace: readonly string[], key: string) => JSON.stringify([namespace, key]);

/** The texts a batch needs embedded: every put's texts and every search's query, each once. */
export function textsToEmbed(operations: readonly StoreOperation[]): string[] {
  const texts = new Set<string>();
  for (const op of operations) {
    if (op.op === "put" && op.value !== null) for (const t of op.texts) texts.add(t.text);
    if (op.op === "search" && op.query !== undefined && op.query !== "") texts.add(op.query);
  }
  return [...texts];
}

export function hasPuts(operations: readonly StoreOperation[]): boolean {
  return operations.some((op) => op.op === "put");
}

export interface BatchOutcome {
  results: StoreResult[];
  /** Items a read found that have a TTL: a write refreshes them (refreshExpiry). */
  refresh: Map<string, number>;
}

/** The batch's reads against `db`, then (when `write`) its puts. */
export function runBatch(
  q: LangGraphQueries,
  db: QueryContext,
  operations: readonly StoreOperation[],
  embeddings: Embeddings,
  now: number,
  write: boolean,
): BatchOutcome {
  let items: StoredItem[] | null = null;
  const live = () => {
    items ??= allItems(q, db).filter((item) => !expired(item, now));
    return items;
  };
  const refresh = new Map<string, number>();
  const touch = (item: StoredItem) => {
    if (item.ttlMinutes > 0) refresh.set(item.key, Math.ceil(now + item.ttlMinutes * 60_000));
  };
  const answer = (op: StoreOperation): StoreResult => {
    switch (op.op) {
      case "get": {
        const item = getItem(q, db, itemKey(op.namespace, op.key), now);
        if (item !== null && op.refresh_ttl) touch(item);
        return item === null ? null : record(item);
      }
      case "search": {
        // Under a prefix: the items its ItemPrefix rows name; the empty prefix reads every item.
        const under = op.namespace_prefix.length === 0 ? live() : itemsUnder(q, db, op.namespace_prefix, now);
        const found = search(under, op, embeddings);
        if (op.refresh_ttl) for (const [item] of found) touch(item);
        return found.map(([item, score]) => (score === undefined ? record(item) : { ...record(item), score }));
      }
      case "list_namespaces": {
        // A prefix without wildcards narrows the items read to those under it.
        const exact = op.match_conditions.find((c) => c.match_type === "prefix" && c.path.length > 0 && !c.path.includes("*"));
        return listNamespaces(namespacesOf(exact === undefined ? live() : itemsUnder(q, db, exact.path, now)), op);
      }
      case "put":
        return null;
    }
  };
  const results = operations.map(answer);
  if (write) {
    const puts = new Map<string, PutOperation>();
    for (const op of operations) if (op.op === "put") puts.set(itemKey(op.namespace, op.key), op);
    for (const [key, op] of puts) {
      put(q, db, key, op, embeddings, now);
      refresh.delete(key);
    }
    refreshExpiry(q, db, refresh, now);
    sweep(q, db, now);
  }
  return { results, refresh };
}

/** Moves the expiry of items a read touched, those still there with a TTL. */
export function refreshExpiry(q: LangGraphQueries, db: QueryContext, refresh: ReadonlyMap<string, number>, now: number): void {
  for (const [key, expiresAt] of refresh) {
    const item = getItem(q, db, key, now);
    if (item !== null && item.ttlMinutes > 0) q.run(db, "SetItemExpiry", { key, expiresAt });
  }
}

function put(q: LangGraphQueries, db: QueryContext, key: string, op: PutOperation, embeddings: Embeddings, now: number): void {
  if (op.value === null) {
    q.run(db, "DropItem", { key });
    return;
  }
  if (op.namespace[0] === "langgraph") throw new StrandError("INVALID_PARAMETER", `'namespace': the root label "langgraph" is reserved`);
  const before = getItem(q, db, key, now);
  const ttl = op.ttl ?? null;
  const embeddedPaths: string[] = [];
  const embedding: number[] = [];
  for (const t of op.texts) {
    const vector = embeddings.get(t.text);
    if (vector === undefined) throw new StrandError("INTERNAL", `no embedding for a text of '${op.key}'`);
    embeddedPaths.push(t.path);
    embedding.push(...vector);
  }
  // A new item is listed under each prefix of its namespace (a key's namespace never changes).
  if (before === null && q.run(db, "ItemByKey", { key }, "item") === null) {
    for (let depth = 1; depth <= op.namespace.length; depth++) {
      q.run(db, "AddItemPrefix", { prefix: namespacePath(op.namespace.slice(0, depth)), item: key });
    }
  }
  q.run(db, "PutItem", {
    key,
    namespace: op.namespace,
    itemKey: op.key,
    value: JSON.stringify(op.value),
    createdAt: before?.createdAt ?? now,
    updatedAt: now,
    expiresAt: ttl === null ? 0 : Math.ceil(now + ttl * 60_000),
    ttlMinutes: ttl ?? 0,
    embeddedPaths,
    embedding,
  });
}

/** Drops up to SWEEP_PER_WRITE items whose TTL ran out (reads never show them either way). */
function sweep(q: LangGraphQueries, db: QueryContext, now: number): void {
  for (const value of q.list(q.run(db, "ExpiredItems", { now, limit: SWEEP_PER_WRITE }, "items"))) {
    q.run(db, "DropItem", { key: q.text(q.record(value), "key") });
  }
}

function getItem(q: LangGraphQueries, db: QueryContext, key: string, now: number): StoredItem | null {
  const found = q.run(db, "ItemByKey", { key }, "item");
  if (found === null) return null;
  const item = storedItem(q, found);
  return expired(item, now) ? null : item;
}

function itemsUnder(q: LangGraphQueries, db: QueryContext, prefix: readonly string[], now: number): StoredItem[] {
  const out: StoredItem[] = [];
  for (const row of q.list(q.run(db, "ItemsUnder", { prefix: namespacePath(prefix) }, "rows"))) {
    const item = getItem(q, db, q.text(q.record(row), "item"), now);
    if (item !== null) out.push(item);
  }
  return out;
}

function allItems(q: LangGraphQueries, db: QueryContext): StoredItem[] {
  return q.list(q.run(db, "AllItems", {}, "items")).map((v) => storedItem(q, v));
}

const expired = (item: StoredItem, now: number) => item.expiresAt > 0 && item.expiresAt <= now;

function storedItem(q: LangGraphQueries, value: unknown): StoredItem {
  const r = q.record(value);
  const paths = q.texts(r, "embeddedPaths");
  const flat = q.numbers(r, "embedding");
  const dims = paths.length === 0 ? 0 : flat.length / paths.length;
  return {
    key: q.text(r, "key"),
    namespace: q.texts(r, "namespace"),
    itemKey: q.text(r, "itemKey"),
    value: JSON.parse(q.text(r, "value")) as Record<string, unknown>,
    createdAt: q.number(r, "createdAt"),
    updatedAt: q.number(r, "updatedAt"),
    expiresAt: q.number(r, "expiresAt"),
    ttlMinutes: q.number(r, "ttlMinutes"),
    vectors: paths.map((_, i) => flat.slice(i * dims, (i + 1) * dims)),
  };
}

function record(item: StoredItem): StoreItemRecord {
  return { namespace: item.namespace, key: item.itemKey, value: item.value, created_at: item.createdAt, updated_at: item.updatedAt };
}

function namespacesOf(items: readonly StoredItem[]): string[][] {
  const seen = new Map<string, string[]>();
  for (const item of items) seen.set(JSON.stringify(item.namespace), item.namespace);
  return [...seen.values()];
}

/** Namespaces label by label (code units), a prefix first; then keys. */
export function compareItems(
  a: { namespace: readonly string[]; itemKey: string },
  b: { namespace: readonly string[]; itemKey: string },
): number {
  const n = Math.min(a.namespace.length, b.namespace.length);
  for (let i = 0; i < n; i++) {
    if (a.namespace[i] !== b.namespace[i]) return a.namespace[i]! < b.namespace[i]! ? -1 : 1;
  }
  if (a.namespace.length !== b.namespace.length) return a.namespace.length - b.namespace.length;
  return a.itemKey < b.itemKey ? -1 : a.itemKey > b.itemKey ? 1 : 0;
}

function inPrefix(namespace: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= namespace.length && prefix.every((label, i) => namespace[i] === label);
}

/** The page of matching items, with each one's score when the search has a query. */
function search(items: readonly StoredItem[], op: SearchOperation, embeddings: Embeddings): Array<[StoredItem, number | undefined]> {
  const filter = op.filter;
  const candidates = items
    .filter((item) => inPrefix(item.namespace, op.namespace_prefix) && (filter === undefined || passesFilter(item.value, filter)))
    .sort(compareItems);
  const queryVector = op.query === undefined || op.query === "" ? undefined : embeddings.get(op.query);
  if (queryVector === undefined) return candidates.slice(op.offset, op.offset + op.limit).map((item) => [item, undefined]);
  return ranked(candidates, queryVector, op.offset, op.limit);
}

/**
 * The candidates with vectors, best score first (an item's best vector counts), paged; then, when
 * the page is short, items without vectors unscored (InMemoryStore's rule, offset not applied to
 * them).
 */
function ranked(
  candidates: readonly StoredItem[],
  query: readonly number[],
  offset: number,
  limit: number,
): Array<[StoredItem, number | undefined]> {
  const best = new Map<StoredItem, number>();
  const scoreless: StoredItem[] = [];
  for (const item of candidates) {
    if (item.vectors.length === 0) {
      scoreless.push(item);
      continue;
    }
    best.set(item, Math.max(...item.vectors.map((v) => cosine(query, v))));
  }
  const order = [...best.entries()].sort((a, b) => b[1] - a[1]);
  const kept: Array<[StoredItem, number | undefined]> = order.slice(offset, offset + limit);
  if (kept.length < limit) for (const item of scoreless.slice(0, limit - kept.length)) kept.push([item, undefined]);
  return kept;
}

function cosine(x: readonly number[], y: readonly number[]): number {
  let dot = 0;
  let xx = 0;
  let yy = 0;
  for (let i = 0; i < x.length; i++) {
    dot += x[i]! * (y[i] ?? 0);
    xx += x[i]! * x[i]!;
  }
  for (const v of y) yy += v * v;
  const magnitude = Math.sqrt(xx) * Math.sqrt(yy);
  return Math.sqrt(xx) !== 0 && Math.sqrt(yy) !== 0 ? dot / magnitude : 0;
}
