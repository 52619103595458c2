// What generated query code calls. One QueryContext is bound to one LMDB transaction (read or
// write) for the duration of one request; every method is synchronous. Generated modules import
// this file for types only, so they can be loaded without resolving any runtime import.
import type { EmbeddingLookup } from "./embedding-lookup.js";
import type { AggregateGroup, EdgeItem, GraphItem, GroupCount, NodeItem, Path, PropValue, Props } from "./items.js";
import type { AggregateFn, MathFn } from "./functions.js";

export type CompareOp = "EQ" | "NEQ" | "GT" | "GTE" | "LT" | "LTE";
export type SortDirection = "asc" | "desc";

/** The math functions of `QueryContext.math`: ADD(a, b) ... LOG(x, base), ATAN2(y, x), PI(), E(), MIN(a, b), MAX(a, b). */
/**
 * Where a math argument came from, for the message when it is absent: its HelixQL text
 * (`_::{n}`) and, for a property of one item, that item's kind letter (N, E, V). Static, so
 * generated code hoists it to a module constant; the item itself is passed to `math` apart.
 */
export interface MathSource {
  readonly text: string;
  readonly kind?: "N" | "E" | "V";
}

/** The math functions and list aggregates of `QueryContext.math` / `QueryContext.aggregate`. */
export type { AggregateFn, MathFn } from "./functions.js";

/** `::To(id)`: paths from each source to `id`; `::From(id)`: paths from `id` to each source. */
export type PathEndpoint = { to: string } | { from: string };

/** Edge weight for Dijkstra; must yield a finite number ≥ 0 or the query fails with INVALID_WEIGHT. */
/**
 * One hop of a count over adjacency: the direction walked and the edge type. `Out<E>` and
 * `OutE<E>` (and `OutE<E>::ToN`) are the same hop here: each edge counts once.
 */
export type AdjacencyStep = readonly ["out" | "in", string];

export type WeightFn = (edge: EdgeItem) => PropValue;

/** One conjunct of a WHERE an INDEX may serve: `_::{field}::OP(value)`, value not depending on the item. */
export interface IndexCondition {
  readonly field: string;
  readonly op: "EQ" | "GT" | "GTE" | "LT" | "LTE";
  readonly value: PropValue;
}

export interface QueryContext {
  // ---- sources
  /** The node with this id and label; NOT_FOUND (404) when absent or of another label. */
  nodeById(label: string, id: string): NodeItem;
  /** All nodes of a label in id (= creation) order. */
  nodesByLabel(label: string): NodeItem[];
  /**
   * `N<T>::WHERE(p)` and `N<T>::WHERE(p)::RANGE(start, end)` in one pass over the label: the
   * matches of `predicate` in id order, from the start-th (default 0) to before the end-th
   * (default: all). Equal to `range(filter(nodesByLabel(label), predicate), start, end)`, but
   * non-matching records are never kept and the scan stops at the end-th match, so the predicate
   * is not evaluated (and cannot fail) on later nodes. Bounds as `range` (INVALID_VALUE).
   */
  nodesWhere(label: string, predicate: (item: NodeItem) => boolean, start?: number, end?: number): NodeItem[];
  /**
   * `N<T>::WHERE(p)` (kind "N", also V types) or `E<T>::WHERE(p)` (kind "E") where p is a
   * conjunction that includes `conditions` on INDEX fields: exactly what nodesWhere (or the scan
   * of the edges) returns, bounds included, but the candidates are read from the index of one
   * condition (EQ first, then a field bounded on both sides, then the first) and p is applied
   * to each. When no condition can be served for these values (runtime/indexes/index-where.ts),
   * it scans.
   */
  itemsWhereIndexed(
    kind: "N" | "E",
    label: string,
    conditions: readonly IndexCondition[],
    predicate: (item: GraphItem) => boolean,
    start?: number,
    end?: number,
  ): GraphItem[];
  /**
   * Nodes whose INDEX / UNIQUE INDEX field equals value, in id (= creation) order; at most
   * `limit` of them when given. `N<T>({field: v})` is `first(nodesByIndex(T, field, v, 1))`:
   * the match with the lowest id, i.e. the oldest.
   */
  nodesByIndex(label: string, field: string, value: PropValue, limit?: number): NodeItem[];
  edgeById(label: string, id: string): EdgeItem;
  edgesByLabel(label: string): EdgeItem[];
  /** Edges whose INDEX / UNIQUE INDEX property equals value, in id order (as nodesByIndex). */
  edgesByIndex(label: string, field: string, value: PropValue, limit?: number): EdgeItem[];
  /**
   * Vectors are graph items stored like nodes: nodeById, nodesByLabel, nodesByIndex and every
   * graph step accept V labels too. These two accept only V labels (NOT_FOUND says `V::T`).
   */
  vectorById(label: string, id: string): NodeItem;
  vectorsByLabel(label: string): NodeItem[];
  /**
   * `SearchV<T>(vector, k)`: the min(k, live) vectors of T most similar to `query`, each with
   * `score` (cosine similarity for metric cosine, minus the squared euclidean distance for l2,
   * the inner product for ip), sorted by score descending, then id. k: integer >= 0; ef:
   * optional search breadth (integer >= 1; default max(ef_search, 40·k, more beyond 20k vectors)). A query of another
   * dimension than T's is DIMENSION_MISMATCH (400); a non-finite or empty query INVALID_VALUE.
   */
  searchVectors(label: string, query: readonly number[], k: number, ef?: number | null): NodeItem[];
  /**
   * `SearchV<T>(vector, k)::WHERE(p)`: the min(k, passing) vectors of T that pass `keep`, most
   * similar first, scored and checked as searchVectors — the best k of those that pass, not the
   * best k filtered afterwards. `index`: conditions of the WHERE an INDEX serves (as for
   * itemsWhereIndexed); when they leave few candidates, those are scored exactly.
   */
  searchVectorsWhere(
    label: string,
    query: readonly number[],
    k: number,
    ef: number | null,
    keep: (item: NodeItem) => boolean,
    index?: readonly IndexCondition[],
  ): NodeItem[];
  /**
   * `trav::SearchV<T>(vector, k)`: exact search over the vectors of T among `items` (others are
   * skipped, each vector counts once): the min(k, those) most similar, scored and ordered as
   * searchVectors, checked as it is (k, query, dimension).
   */
  searchVectorsIn(label: string, items: readonly NodeItem[], query: readonly number[], k: number): NodeItem[];
  /**
   * `SearchBM25<T>(text, limit)`: up to `limit` nodes (or vectors) of T ranked by Okapi BM25 over
   * their String and [String] fields (runtime/search/), each record plus `score`, best first,
   * ties by id ascending. Only documents containing a term of `text` are returned; text without
   * terms gives []. limit: integer >= 0 (INVALID_VALUE otherwise).
   */
  searchBM25(label: string, text: string, limit: number): NodeItem[];
  /**
   * `SearchBM25<T>(text, limit)::WHERE(p)`: the best `limit` of the documents that pass `keep`,
   * ranked and scored as searchBM25 (not the best `limit` filtered afterwards).
   */
  searchBM25Where(label: string, text: string, limit: number, keep: (item: NodeItem) => boolean): NodeItem[];

  /**
   * Untyped `N`, `E`, `V`: every node (N), edge (E) or vector (V) of every declared type of that
   * kind, by type name in code point order, then by id (= creation order) within a type: one key
   * range per type, as nodesByLabel / edgesByLabel / vectorsByLabel. N does not include vectors.
   */
  itemsOfKind(kind: "N" | "E" | "V"): GraphItem[];
  /**
   * Untyped `N(id)`, `E(id)`, `V(id)`: the item of that kind with this id, whatever its type
   * (records are keyed by [label, id], so each type of the kind is tried; ids are unique across
   * types). NOT_FOUND (404) when no item of the kind has it (an item of another kind included).
   */
  itemOfKindById(kind: "N" | "E" | "V", id: string): GraphItem;

  // ---- writes (only on a write transaction)
  /** Validates props against the schema, fills defaults, enforces UNIQUE INDEX (409). */
  addNode(label: string, props: Props): NodeItem;
  /** Both endpoints must exist (404) and have the declared From/To labels (400). */
  addEdge(label: string, props: Props, fromId: string, toId: string): EdgeItem;
  /**
   * AddE with several items at an end (HelixDB >= 2.1): one edge per (from, to) pair, the cross
   * product when both are lists, from-major (every `to` of the first `from`, then the next), each
   * checked as addEdge; [] when either list is empty.
   */
  addEdges(label: string, props: Props, fromIds: readonly string[], toIds: readonly string[]): EdgeItem[];
  /**
   * Changes only the listed properties of each item; returns the updated records. `props` may be
   * a function of the item as currently stored (UPDATE values that use `_`, such as
   * `::UPDATE({n: ADD(_::{n}, 1)})`), called once per item, after the updates before it.
   */
  updateNodes(items: readonly NodeItem[], props: Props | ((item: NodeItem) => Props)): NodeItem[];
  updateEdges(items: readonly EdgeItem[], props: Props | ((item: EdgeItem) => Props)): EdgeItem[];
  /**
   * `AddV<T>(vector, {fields})`: a vector record `{id, label, data, ...fields}` (with an
   * `embedding: [F64]` field the vector is that field and `data` is absent). Props as addNode.
   * The first vector of T fixes its dimension; another size is DIMENSION_MISMATCH (400); an
   * empty vector or a non-finite number is INVALID_VALUE. Updating a vector's fields with
   * updateNodes keeps it searchable; updating its `embedding` field re-indexes it.
   */
  addVector(label: string, vector: readonly number[], props: Props): NodeItem;
  /** `UpsertV`: the first of `existing` that still exists gets props and `vector`; else addVector. */
  upsertVector(label: string, existing: readonly NodeItem[], vector: readonly number[], props: Props): NodeItem;
  /**
   * Deletes a vector exactly as `drop([item])` does: its record, index entries, search slot and
   * every edge to or from it (already gone: no-op). A label that is not a vector type is refused.
   */
  dropVector(item: NodeItem): void;
  /**
   * `DROP`: deletes each item. A node (or vector) takes with it every incident edge in both
   * directions, its index and unique entries (postings, vector slot) and its adjacency lists; an
   * edge takes its adjacency entries, its `E::T UNIQUE` claim and its index entries. Items
   * listed twice, or already gone, are skipped (no error). Freed unique values are reusable in
   * the same transaction.
   */
  drop(items: readonly GraphItem[]): void;
  /**
   * `UpsertN`: updates the first of `existing` that still exists with props (as updateNodes),
   * else creates a `label` node (as addNode: defaults apply). UNIQUE INDEX is enforced (409)
   * either way. Every existing item must have `label`.
   */
  upsertNode(label: string, existing: readonly NodeItem[], props: Props): NodeItem;
  /**
   * `UpsertE`: updates the first of `existing` that still exists with props (its endpoints stay
   * as they are; fromId/toId are not used), else creates a `label` edge fromId → toId with
   * addEdge's endpoint checks (404/400) and `E::T UNIQUE` (409).
   */
  upsertEdge(label: string, existing: readonly EdgeItem[], props: Props, fromId: string, toId: string): EdgeItem;
  /**
   * UpsertE with several items at an end: per (from, to) pair, as addEdges, the first edge of
   * `existing` that connects exactly that pair is updated, else the edge is created; a pair
   * listed twice finds the edge its first occurrence made. [] when either list is empty.
   */
  upsertEdges(label: string, existing: readonly EdgeItem[], props: Props, fromIds: readonly string[], toIds: readonly string[]): EdgeItem[];

  // ---- graph steps (adjacency lookups, never scans)
  out(items: readonly NodeItem[], edgeLabel: string): NodeItem[];
  in(items: readonly NodeItem[], edgeLabel: string): NodeItem[];
  /** The edges out of (into) each item; with `limit`, the first `limit` of them in all (list order). */
  outE(items: readonly NodeItem[], edgeLabel: string, limit?: number): EdgeItem[];
  inE(items: readonly NodeItem[], edgeLabel: string, limit?: number): EdgeItem[];
  fromN(edges: readonly EdgeItem[]): NodeItem[];
  /**
   * `items::Out<A>::In<B>..::COUNT` without reading a record: the number of walks the steps take
   * from the items, exactly the length of the list the steps would return (an item listed twice
   * counts twice, a node reached twice is walked on from twice, parallel edges each count). Read
   * from adjacency only; counting stops once it reaches `limit` (EXISTS asks for 1).
   */
  countAdjacent(items: readonly NodeItem[], steps: readonly AdjacencyStep[], limit?: number): number;
  toN(edges: readonly EdgeItem[]): NodeItem[];
  /**
   * BFS (weight null, fewest hops) or Dijkstra (least summed weight); all equally short paths, at
   * most 16. `edgeLabel` null: over edges of any type (from a node of type L, every edge type whose
   * From is L, in declaration order), a list: over edges of those types; the fixed endpoint may
   * then be a node or vector of any type.
   */
  shortestPath(
    sources: readonly NodeItem[],
    edgeLabel: string | readonly string[] | null,
    endpoint: PathEndpoint,
    weight: WeightFn | null,
    heuristic?: string | null,
  ): Path[];

  // ---- sequence operations
  count(items: readonly unknown[]): number;
  /** 0-based, half-open; start and end must be integers ≥ 0 (INVALID_VALUE otherwise). */
  range<T>(items: readonly T[], start: number, end: number): T[];
  order<T>(items: readonly T[], key: (item: T) => PropValue, direction: SortDirection): T[];
  first<T>(items: readonly T[]): T | null;
  filter<T>(items: readonly T[], predicate: (item: T) => boolean): T[];
  groupBy(items: readonly GraphItem[], properties: readonly string[]): GroupCount[];
  aggregateBy<T extends GraphItem>(items: readonly T[], properties: readonly string[]): AggregateGroup<T>[];

  // ---- values
  /**
   * Throws NOT_FOUND (404) for an absent zero-or-one item where an id is needed: `place` is the
   * position (`AddE<Knows>::To`), `name` the variable that is empty (null: the argument is the
   * lookup itself), `lookup` the text around the looked-up `value` (`N<Person>({name: `, `})`).
   */
  absent(place: string, name: string | null, lookup: readonly [string, string] | null, value?: PropValue): never;
  /**
   * What a FOR loop rethrows when an iteration fails: a StrandError with the element's path in
   * front of its message (`items[1]: ...`), once (errors.ts atElement); anything else unchanged.
   */
  atElement(error: unknown, path: string): unknown;
  /** item[name], or null when the item lacks it (or is null). */
  prop(item: GraphItem | null, name: string): PropValue;
  /**
   * A HelixQL comparison (ops/compare.ts): numbers numerically (integer and float alike);
   * strings (and IDs) by Unicode code point, except that two Date strings (RFC 3339 with
   * offset, or YYYY-MM-DD) compare as instants; false < true. EQ/NEQ are structural on arrays
   * and objects. null EQ null is true and null equals nothing else. Values of different kinds
   * (and null, arrays, objects under GT/GTE/LT/LTE) are unequal and unordered: EQ and the order
   * operators are false, NEQ is true.
   */
  compare(op: CompareOp, left: PropValue, right: PropValue): boolean;
  /**
   * `CONTAINS`: a String haystack contains a String needle as a substring ("" always); an array
   * contains an element EQ (compare) to the needle; a null haystack (absent field) contains
   * nothing. Any other haystack is INVALID_VALUE.
   */
  contains(haystack: PropValue, needle: PropValue): boolean;
  /** `IS_IN`: list holds an element EQ to value; a null list holds nothing; a non-array list is INVALID_VALUE. */
  isIn(value: PropValue, list: PropValue): boolean;
  /**
   * A math function of numbers (ops/math.ts; arity as MATH_ARITY there). A non-number argument
   * (null included), DIV or MOD by zero, and a result that is not a finite number (SQRT(-1),
   * LN(0), overflow) are INVALID_VALUE naming the function. ROUND rounds half away from zero.
   * `sources` (a module constant) and `item0`/`item1` (the item argument 1/2 was read from) only
   * serve the message for an absent argument; passing them allocates nothing per call.
   */
  math(
    fn: MathFn,
    args: readonly PropValue[],
    sources?: readonly (MathSource | null)[],
    item0?: GraphItem | null,
    item1?: GraphItem | null,
  ): number;
  /**
   * An aggregate over a list of values: SUM (0 when empty), AVG, MIN, MAX (null when no
   * number), COUNT (every element, like ::COUNT). SUM/AVG/MIN/MAX skip nulls (absent fields);
   * any other non-number is INVALID_VALUE.
   */
  aggregate(fn: AggregateFn, values: readonly PropValue[]): number | null;
  /** The current time as the wire form of a Date. */
  now(): string;

  // ---- reshaping and retrieval helpers (compiler-emitted)
  /** A copy of item without the named members (`::!{a, b}`, spreads with overrides). */
  omit(item: GraphItem, names: readonly string[]): Props;
  /** The first occurrence of each item by id. */
  dedup<T extends GraphItem>(items: readonly T[]): T[];
  /** Items reached by `sub` from every input item (`::INTERSECT(_::In<E>)`). */
  intersect<I, T extends GraphItem>(items: readonly I[], sub: (item: I) => readonly T[]): T[];
  /**
   * The embedding of text (model null = the project's `embedding_model`). Never calls out from
   * inside a transaction: see embedding-lookup.ts for the speculative run that precedes it.
   */
  embed(text: string, model: string | null): number[];
  /** Set by the query runner before a query runs; null when no embedding model is configured. */
  useEmbeddings(lookup: EmbeddingLookup | null): void;
  /** A write's stored answer under an Idempotency-Key, stored at or after `notBefore` (epoch ms). */
  storedAnswer(key: string, notBefore: number): StoredAnswer | undefined;
  /** Stores a write's answer under its Idempotency-Key, in its transaction; drops some answers stored before `expiredBefore`. */
  rememberAnswer(key: string, answer: StoredAnswer, expiredBefore: number): void;
  /**
   * Set by the query runner before a query runs: the ms the query may still run (what its
   * embedding calls left of the time limit; 0: no limit) and the whole limit, for the error.
   */
  limitTime(remainingMs: number, limitMs: number): void;
  /** Reciprocal rank fusion of ranked lists (matched by id); `score` becomes the fused score. */
  rerankRRF<T extends NodeItem>(lists: readonly (readonly T[])[], k: number): T[];
  /** Maximal marginal relevance over vectors: diversifies a ranked list. */
  rerankMMR<T extends NodeItem>(items: readonly T[], lambda: number, distance: "cosine" | "euclidean" | "dotproduct"): T[];
}

/** A write's answer kept under its Idempotency-Key: the request's hash, when, and the query's result. */
export interface StoredAnswer {
  hash: string;
  at: number;
  result: unknown;
}
