// QueryContext over one LMDB transaction. A read context carries an explicit read transaction
// (one snapshot for the whole request); a write context runs inside lmdb's write transaction,
// where reads see the request's own writes.
import type { Database, RangeOptions, Transaction } from "lmdb";
import { atElement, bm25Disabled, StrandError } from "../core/errors.js";
import { echo } from "../core/echo.js";
import { uuidv7 } from "./store/ids.js";
import type { AggregateGroup, EdgeItem, GraphItem, GroupCount, NodeItem, Path, PropValue, Props } from "../core/items.js";
import { compareValues, contains, isIn } from "./ops/compare.js";
import { aggregate, math } from "./ops/math.js";
import { aggregateBy, groupBy } from "./ops/grouping.js";
import { shortestPaths } from "./ops/paths.js";
import * as seq from "./ops/sequence.js";
import { rerankMMR, rerankRRF, type MmrDistance } from "./ops/rerank.js";
import type { EmbeddingLookup } from "../core/embedding-lookup.js";
import type { AggregateFn, CompareOp, MathFn, MathSource, PathEndpoint, QueryContext, SortDirection, WeightFn } from "../core/query-context.js";
import type { Bm25Index } from "./search/bm25-index.js";
import type { StoreDbs } from "./store/dbs.js";
import {
  adjacencyLabels,
  appendAdjacency,
  deleteAdjacency,
  readAdjacency,
  removeAdjacency,
  splitAdjacency,
  type Adjacency,
} from "./store/adjacency.js";
import { claimEdgeUnique, indexNew, indexRemove, indexUpdate, releaseEdgeUnique } from "./store/indexes.js";
import { MAX_KEY, uniqueKey, type ItemKind, type Key } from "./store/keys.js";
import { removedTypesMessage } from "./store/removed-types.js";
import { adjacencyKey, recordKey, type ReadCache } from "./store/read-cache.js";
import { newEdgeRecord, newNodeRecord, updatedRecord, validateProps } from "./store/records.js";
import type { EdgeTypeInfo, SchemaInfo, TypeInfo } from "./store/schema-info.js";
import { checkValue, describeValue } from "../core/values.js";
import type { VectorLog } from "./vector/changes.js";
import type { VectorAccess } from "./vector/vector-indexes.js";
import { addVector, dropVector, replaceVector, vectorUpdated } from "./vector/vector-writes.js";
import type { VectorSnapshot } from "./vector/search.js";

/** At most this many equally short paths per source (QueryContext.shortestPath contract). */
const MAX_PATHS = 16;

const hasOwn = Object.prototype.hasOwnProperty;

interface ReadOptions {
  transaction: Transaction;
}

/**
 * Ids are compared exactly (ID-typed parameters are lower-cased by validation). Anything that
 * is not a 36-character string cannot be an id and is reported as NOT_FOUND, like any other
 * id that names nothing; it also never reaches LMDB as an oversized key.
 */
function plausibleId(id: unknown): id is string {
  return typeof id === "string" && id.length === 36;
}

const KIND_WORD = { N: "node", E: "edge", V: "vector" } as const;

function notFound(kind: ItemKind, label: string, id: unknown): StrandError {
  return new StrandError("NOT_FOUND", `${kind}::${label} with id '${String(id)}' not found`);
}

/** Adjacency entries a DROP still has to remove, by list (keyed by the list's cache key). */
type PendingCuts = Map<string, { direction: "out" | "in"; nodeId: string; edgeLabel: string; edgeIds: Set<string> }>;

function addCut(cuts: PendingCuts, direction: "out" | "in", nodeId: string, edgeLabel: string, edgeId: string): void {
  const key = adjacencyKey(direction, nodeId, edgeLabel);
  const cut = cuts.get(key);
  if (cut !== undefined) cut.edgeIds.add(edgeId);
  else cuts.set(key, { direction, nodeId, edgeLabel, edgeIds: new Set([edgeId]) });
}

export class TxnQueryContext implements QueryContext {
  /** Passed to every lmdb read; undefined inside a write transaction (lmdb then reads from it). */
  private readonly opts: ReadOptions | undefined;

  /**
   * @param readTransaction the snapshot to read from, or null for a context that runs inside
   *   an open lmdb write transaction (only then are the write methods allowed).
   * @param cache shared decoded reads (see read-cache.ts): a read context reads through it; a
   *   write context never reads it and marks every existing key it changes in `touched`.
   * @param vectors the store's vector indexes, and the write's change log (null when reading).
   */
  constructor(
    private readonly dbs: StoreDbs,
    private readonly schema: SchemaInfo,
    readTransaction: Transaction | null,
    private readonly cache: ReadCache,
    private readonly touched: string[] = [],
    private readonly vectors: VectorAccess,
    /** The BM25 keyword index, or null when bm25 is disabled. */
    private readonly bm25: Bm25Index | null,
  ) {
    this.opts = readTransaction ? { transaction: readTransaction } : undefined;
  }

  private get writable(): boolean {
    return this.opts === undefined;
  }

  private requireWrite(method: string): void {
    if (!this.writable) throw new Error(`${method} called in a read transaction`);
  }

  // ---- record access

  private getNode(label: string, id: string): NodeItem | undefined {
    return this.getRecord(this.dbs.nodes, label, id);
  }

  /** Existence without decoding the record. */
  private hasNode(label: string, id: string): boolean {
    if (this.opts !== undefined) {
      const hit = this.cache.get(recordKey(id)) as NodeItem | undefined;
      if (hit !== undefined) return hit.label === label;
    }
    // doesExist(key, undefined, options) is a getBinaryFast: no msgpack decode.
    return this.dbs.nodes.doesExist([label, id], undefined as unknown as NodeItem, this.opts);
  }

  private getEdge(label: string, id: string): EdgeItem | undefined {
    return this.getRecord(this.dbs.edges, label, id);
  }

  /** A record by (label, id); read contexts go through the shared cache (ids are unique across labels). */
  private getRecord<T extends NodeItem>(db: Database<T, Key>, label: string, id: string): T | undefined {
    if (this.opts === undefined) return db.get([label, id]);
    const hit = this.cache.get(recordKey(id)) as T | undefined;
    if (hit !== undefined) return hit.label === label ? hit : undefined;
    const rec = db.get([label, id], this.opts);
    return rec === undefined ? undefined : this.cache.fill(recordKey(id), rec);
  }

  /** The adjacency list of (node, edge label) in one direction (see adjacency.ts). */
  private adjacency(direction: "out" | "in", nodeId: string, edgeLabel: string): Adjacency {
    const db = direction === "out" ? this.dbs.out : this.dbs.in;
    if (this.opts === undefined) return splitAdjacency(readAdjacency(db, nodeId, edgeLabel, undefined));
    const key = adjacencyKey(direction, nodeId, edgeLabel);
    const hit = this.cache.get(key) as Adjacency | undefined;
    if (hit !== undefined) return hit;
    return this.cache.fill(key, splitAdjacency(readAdjacency(db, nodeId, edgeLabel, this.opts)));
  }

  /** [start, end) options for every key extending `prefix`, in this context's transaction. */
  private prefixOptions(prefix: Key): RangeOptions {
    const end = prefix.slice();
    end.push(MAX_KEY);
    return this.opts ? { start: prefix, end, transaction: this.opts.transaction } : { start: prefix, end };
  }

  /** Entries whose key extends `prefix`, in key order. */
  private scan<V>(db: Database<V, Key>, prefix: Key): Iterable<{ key: Key; value: V }> {
    return db.getRange(this.prefixOptions(prefix));
  }

  /** Keys extending `prefix`, in key order (values are not decoded). */
  private scanKeys(db: Database<unknown, Key>, prefix: Key): Iterable<Key> {
    return db.getKeys(this.prefixOptions(prefix));
  }

  // ---- sources

  nodeById(label: string, id: string): NodeItem {
    const info = this.schema.node(label);
    const rec = plausibleId(id) ? this.getNode(label, id) : undefined;
    if (rec === undefined) throw notFound(info.kind, label, id);
    return rec;
  }

  nodesByLabel(label: string): NodeItem[] {
    this.schema.node(label);
    return this.recordsByLabel(this.dbs.nodes, label);
  }

  nodesWhere(label: string, predicate: (item: NodeItem) => boolean, start = 0, end?: number): NodeItem[] {
    this.schema.node(label);
    seq.checkRange(start, end ?? start);
    const out: NodeItem[] = [];
    if (end === start) return out;
    let matched = 0;
    for (const { value } of this.scan(this.dbs.nodes, [label])) {
      if (!predicate(value)) continue;
      if (matched++ >= start) out.push(value);
      if (matched === end) break; // leaving the loop closes lmdb's cursor
    }
    return out;
  }

  edgeById(label: string, id: string): EdgeItem {
    this.schema.edge(label);
    const rec = plausibleId(id) ? this.getEdge(label, id) : undefined;
    if (rec === undefined) throw notFound("E", label, id);
    return rec;
  }

  edgesByLabel(label: string): EdgeItem[] {
    this.schema.edge(label);
    return this.recordsByLabel(this.dbs.edges, label);
  }

  itemsOfKind(kind: "N" | "E" | "V"): GraphItem[] {
    const out: GraphItem[] = [];
    const db = kind === "E" ? this.dbs.edges : this.dbs.nodes;
    for (const label of this.schema.labelsOf(kind)) for (const entry of this.scan(db, [label])) out.push(entry.value);
    return out;
  }

  itemOfKindById(kind: "N" | "E" | "V", id: string): GraphItem {
    if (plausibleId(id)) {
      const db = kind === "E" ? this.dbs.edges : this.dbs.nodes;
      // One get per type until the hit; a read context then caches the record by id, after which
      // every try is a cache hit (a hit under another label is a miss without a get).
      for (const label of this.schema.labelsOf(kind)) {
        const rec = this.getRecord<NodeItem>(db, label, id);
        if (rec !== undefined) return rec;
      }
    }
    throw new StrandError("NOT_FOUND", `${kind} with id '${String(id)}' not found (no ${KIND_WORD[kind]} of any type has it)`);
  }

  private recordsByLabel<T extends NodeItem>(db: Database<T, Key>, label: string): T[] {
    const out: T[] = [];
    for (const entry of this.scan(db, [label])) out.push(entry.value);
    return out;
  }

  /**
   * The value is canonicalised with the field's type first (so an upper-case ID or a date in
   * another notation still matches); a value that is not valid for the field matches nothing.
   */
  nodesByIndex(label: string, field: string, value: PropValue): NodeItem[] {
    return this.itemsByIndex(this.schema.node(label), field, value, (id) => this.getNode(label, id));
  }

  edgesByIndex(label: string, field: string, value: PropValue): EdgeItem[] {
    return this.itemsByIndex(this.schema.edge(label), field, value, (id) => this.getEdge(label, id));
  }

  /** nodesByIndex / edgesByIndex: `get` reads one record of the type by id. */
  private itemsByIndex<T extends NodeItem>(info: TypeInfo, field: string, value: PropValue, get: (id: string) => T | undefined): T[] {
    const label = info.name;
    const f = info.fieldByName.get(field);
    if (!f || f.descriptor.index === "none") throw new Error(`${info.kind}::${label}.${field} is not indexed`);
    if (value === null || value === undefined) return [];
    const r = checkValue(f.descriptor.type, value, `${label}.${field}`);
    if (!r.ok) return [];
    if (f.descriptor.index === "unique") {
      const id = this.dbs.unique.get(uniqueKey(info.kind, label, field, r.value), this.opts);
      const rec = id === undefined ? undefined : get(id);
      return rec ? [rec] : [];
    }
    const out: T[] = [];
    // Same layout as indexKey() minus the trailing item id: every id indexed under this value.
    for (const key of this.scanKeys(this.dbs.index, uniqueKey(info.kind, label, field, r.value))) {
      const rec = get(key[4] as string);
      if (rec) out.push(rec);
    }
    return out;
  }

  // ---- writes

  addNode(label: string, props: Props): NodeItem {
    this.requireWrite("addNode");
    const info = this.schema.node(label);
    if (info.kind !== "N") throw new Error(`addNode on vector type '${label}' (use addVector)`);
    const values = validateProps(info, props);
    const rec = newNodeRecord(info, uuidv7(), values, info.hasNowDefault ? this.now() : "");
    indexNew(this.dbs, info, rec);
    this.dbs.nodes.putSync([label, rec.id], rec);
    this.bm25?.indexDocument(rec);
    return rec;
  }

  addEdge(label: string, props: Props, fromId: string, toId: string): EdgeItem {
    this.requireWrite("addEdge");
    const info = this.schema.edge(label);
    const values = validateProps(info, props);
    this.checkEndpoint(info, "from", info.from, fromId);
    this.checkEndpoint(info, "to", info.to, toId);
    const rec = newEdgeRecord(info, uuidv7(), fromId, toId, values, info.hasNowDefault ? this.now() : "");
    claimEdgeUnique(this.dbs, info, rec.id, fromId, toId);
    indexNew(this.dbs, info, rec);
    this.dbs.edges.putSync([label, rec.id], rec);
    this.cache.beginWrite(adjacencyKey("out", fromId, label), this.touched);
    this.cache.beginWrite(adjacencyKey("in", toId, label), this.touched);
    appendAdjacency(this.dbs.out, fromId, label, rec.id, toId);
    appendAdjacency(this.dbs.in, toId, label, rec.id, fromId);
    return rec;
  }

  /** NOT_FOUND when no node has the id; EDGE_TYPE_MISMATCH when it has another label. */
  private checkEndpoint(info: EdgeTypeInfo, end: "from" | "to", expected: string, id: string): void {
    if (plausibleId(id) && this.hasNode(expected, id)) return;
    if (plausibleId(id)) {
      for (const other of [...this.schema.nodes.keys(), ...this.schema.vectors.keys()]) {
        if (other !== expected && this.hasNode(other, id)) {
          throw new StrandError(
            "EDGE_TYPE_MISMATCH",
            `E::${info.name} must go ${end} a ${expected} node, but node '${id}' is a ${other}`,
          );
        }
      }
    }
    throw new StrandError("NOT_FOUND", `${end} node '${String(id)}' of E::${info.name} not found`);
  }

  updateNodes(items: readonly NodeItem[], props: Props | ((item: NodeItem) => Props)): NodeItem[] {
    this.requireWrite("updateNodes");
    return this.update(items, props, "N");
  }

  updateEdges(items: readonly EdgeItem[], props: Props | ((item: EdgeItem) => Props)): EdgeItem[] {
    this.requireWrite("updateEdges");
    return this.update(items, props, "E");
  }

  private update<T extends NodeItem>(items: readonly T[], props: Props | ((item: T) => Props), kind: "N" | "E"): T[] {
    const out: T[] = [];
    let info: TypeInfo | undefined;
    let values: ReturnType<typeof validateProps> | undefined;
    for (const item of items) {
      if (!info || info.name !== item.label) {
        info = kind === "N" ? this.schema.node(item.label) : this.schema.edge(item.label);
        values = typeof props === "function" ? undefined : validateProps(info, props);
      }
      // Re-read: the item may be stale if this query changed it since.
      const db = (kind === "N" ? this.dbs.nodes : this.dbs.edges) as unknown as Database<T, Key>;
      const current = plausibleId(item.id) ? db.get([item.label, item.id]) : undefined;
      if (current === undefined) throw notFound(kind, item.label, item.id);
      // Values computed from the item see it as stored now (an item listed twice is updated twice).
      const next = updatedRecord(info, current, typeof props === "function" ? validateProps(info, props(current)) : values!);
      if (info.kind === "V") vectorUpdated(this.dbs, this.schema.vector(info.name), current, next, this.vectorLog("updateNodes"));
      indexUpdate(this.dbs, info, current, next);
      this.cache.beginWrite(recordKey(item.id), this.touched);
      db.putSync([item.label, item.id], next);
      if (kind === "N") this.bm25?.reindexDocument(current, next);
      out.push(next);
    }
    return out;
  }

  upsertNode(label: string, existing: readonly NodeItem[], props: Props): NodeItem {
    this.requireWrite("upsertNode");
    const current = this.firstExisting(this.dbs.nodes, label, existing);
    return current === undefined ? this.addNode(label, props) : this.update([current], props, "N")[0]!;
  }

  upsertEdge(label: string, existing: readonly EdgeItem[], props: Props, fromId: string, toId: string): EdgeItem {
    this.requireWrite("upsertEdge");
    const current = this.firstExisting(this.dbs.edges, label, existing);
    return current === undefined ? this.addEdge(label, props, fromId, toId) : this.update([current], props, "E")[0]!;
  }

  /** The first item still stored (an earlier DROP of this query may have removed some). */
  private firstExisting<T extends NodeItem>(db: Database<T, Key>, label: string, items: readonly T[]): T | undefined {
    for (const item of items) {
      if (item.label !== label) throw new Error(`upsert of ${label} given an item of label ${item.label}`);
      if (plausibleId(item.id) && db.doesExist([label, item.id], undefined as unknown as T)) return item;
    }
    return undefined;
  }

  // ---- DROP

  drop(items: readonly GraphItem[]): void {
    this.requireWrite("drop");
    // Entries to cut out of lists that stay, gathered over the whole call so that a list loses
    // all of them in one rewrite (1000 leaves of one hub: one rewrite of the hub's list, not 1000).
    const cuts: PendingCuts = new Map();
    for (const item of items) {
      if (!plausibleId(item.id)) continue;
      if (this.schema.edges.has(item.label) && "from_node" in item) this.dropEdge(item.label, item.id, cuts);
      else this.dropNode(item.label, item.id, cuts);
    }
    for (const [key, cut] of cuts) {
      this.cache.beginWrite(key, this.touched);
      removeAdjacency(cut.direction === "out" ? this.dbs.out : this.dbs.in, cut.nodeId, cut.edgeLabel, cut.edgeIds);
    }
  }

  /** Removes the edge (its list entries go into `cuts`), unless it is already gone. */
  private dropEdge(label: string, id: string, cuts: PendingCuts): void {
    const rec = this.removeEdgeRecord(label, id);
    if (rec === undefined) return;
    addCut(cuts, "out", rec.from_node, label, id);
    addCut(cuts, "in", rec.to_node, label, id);
  }

  /**
   * Removes the node, every edge incident to it (their entries in other nodes' lists go into
   * `cuts`), and its own adjacency lists, unless it is already gone. Entries of its own lists
   * whose edge is already gone (dropped earlier in the call, or a self-loop seen from its other
   * list) are skipped.
   */
  private dropNode(label: string, id: string, cuts: PendingCuts): void {
    const info = this.schema.node(label);
    const rec = this.dbs.nodes.get([label, id]);
    if (rec === undefined) return;
    for (const direction of ["out", "in"] as const) {
      const db = direction === "out" ? this.dbs.out : this.dbs.in;
      const otherDirection = direction === "out" ? "in" : "out";
      for (const edgeLabel of adjacencyLabels(db, id, undefined)) {
        // The open refuses data holding edges of an undeclared type (store/migrate.ts); should
        // one be met anyway, the DROP is refused with a user error, never an internal one.
        if (!this.schema.edges.has(edgeLabel)) {
          throw new StrandError(
            "SCHEMA_MISMATCH",
            `cannot drop ${info.kind}::${echo(label)} ${echo(id)}: it has edges of type ${echo(edgeLabel)}; ` +
              removedTypesMessage([{ ref: `E::${edgeLabel}`, drop: `DROP E<${edgeLabel}>` }], "nothing was dropped"),
          );
        }
        const { edgeIds, otherIds } = splitAdjacency(readAdjacency(db, id, edgeLabel, undefined));
        for (let i = 0; i < edgeIds.length; i++) {
          if (this.removeEdgeRecord(edgeLabel, edgeIds[i]!) === undefined) continue;
          if (otherIds[i] !== id) addCut(cuts, otherDirection, otherIds[i]!, edgeLabel, edgeIds[i]!);
        }
        const key = adjacencyKey(direction, id, edgeLabel);
        cuts.delete(key); // the whole list goes
        this.cache.beginWrite(key, this.touched);
        deleteAdjacency(db, id, edgeLabel);
      }
    }
    if (info.kind === "V") {
      this.dropVector(rec); // its record, index entries and HNSW slot (and postings)
      return;
    }
    indexRemove(this.dbs, info, rec);
    this.cache.beginWrite(recordKey(id), this.touched);
    this.dbs.nodes.removeSync([label, id]);
    this.onItemRemoved(info, rec);
  }

  /** Deletes an edge record with its index entries and UNIQUE claim; undefined when already gone. */
  private removeEdgeRecord(label: string, id: string): EdgeItem | undefined {
    const info = this.schema.edge(label);
    const rec = this.dbs.edges.get([label, id]);
    if (rec === undefined) return undefined;
    releaseEdgeUnique(this.dbs, info, id, rec.from_node, rec.to_node);
    indexRemove(this.dbs, info, rec);
    this.cache.beginWrite(recordKey(id), this.touched);
    this.dbs.edges.removeSync([label, id]);
    this.onItemRemoved(info, rec);
    return rec;
  }

  /**
   * Called once for every node or edge record DROP removed (`info.kind` tells which), after its
   * record, index entries and edges are gone, inside the same write transaction: the hook for
   * state kept elsewhere (BM25 postings). Vectors go through dropVector instead.
   */
  private onItemRemoved(info: TypeInfo, record: NodeItem): void {
    if (info.kind !== "E") this.bm25?.unindexDocument(record);
  }

  // ---- vectors (runtime/vector/): V items are stored, read and traversed like nodes

  vectorById(label: string, id: string): NodeItem {
    this.schema.vector(label);
    return this.nodeById(label, id);
  }

  vectorsByLabel(label: string): NodeItem[] {
    this.schema.vector(label);
    return this.recordsByLabel(this.dbs.nodes, label);
  }

  addVector(label: string, vector: readonly number[], props: Props): NodeItem {
    this.requireWrite("addVector");
    const info = this.schema.vector(label);
    const rec = addVector(this.dbs, info, vector, props, info.hasNowDefault ? this.now() : "", this.vectorLog("addVector"));
    this.bm25?.indexDocument(rec);
    return rec;
  }

  upsertVector(label: string, existing: readonly NodeItem[], vector: readonly number[], props: Props): NodeItem {
    this.requireWrite("upsertVector");
    const info = this.schema.vector(label);
    for (const item of existing) {
      if (item.label !== label) throw new Error(`upsertVector<${label}> given a ${item.label}`);
      const current = plausibleId(item.id) ? this.dbs.nodes.get([label, item.id]) : undefined;
      if (current === undefined) continue;
      this.cache.beginWrite(recordKey(item.id), this.touched);
      const next = replaceVector(this.dbs, info, current, vector, props, this.vectorLog("upsertVector"));
      this.bm25?.reindexDocument(current, next);
      return next;
    }
    return this.addVector(label, vector, props);
  }

  searchVectors(label: string, query: readonly number[], k: number, ef: number | null = null): NodeItem[] {
    const info = this.schema.vector(label);
    return this.vectors.indexes.search(info, this.vectorSnapshot(), query, k, ef).items;
  }

  dropVector(item: NodeItem): void {
    this.requireWrite("dropVector");
    const info = this.schema.vector(item.label);
    const current = plausibleId(item.id) ? this.dbs.nodes.get([item.label, item.id]) : undefined;
    if (current === undefined) return;
    this.cache.beginWrite(recordKey(item.id), this.touched);
    dropVector(this.dbs, info, current, this.vectorLog("dropVector"));
    this.bm25?.unindexDocument(current);
  }

  private vectorLog(method: string): VectorLog {
    if (this.vectors.log === null) throw new Error(`${method} called in a read transaction`);
    return this.vectors.log;
  }

  /** This context's transaction as vector search reads it. */
  private vectorSnapshot(): VectorSnapshot {
    return {
      meta: (label) => this.dbs.vectorTypes.get([label], this.opts),
      slotOf: (label, id) => this.dbs.vectorIds.get([label, id], this.opts),
      record: (label, id) => this.getNode(label, id),
      slots: (label) => {
        const entries = this.scan(this.dbs.vectorIds, [label]);
        return {
          *[Symbol.iterator]() {
            for (const { key, value } of entries) yield { slot: value, id: key[1] as string };
          },
        };
      },
    };
  }

  // ---- keyword search (runtime/search/)

  searchBM25(label: string, text: string, limit: number): NodeItem[] {
    // A type that declares a `score` field keeps its stored value; the ranking still is BM25's.
    const ownScore = this.schema.node(label).fieldByName.has("score");
    if (this.bm25 === null) throw bm25Disabled(`SearchBM25<${label}>`);
    if (typeof text !== "string") throw new StrandError("INVALID_VALUE", `SearchBM25 text must be a string, got ${describeValue(text)}`);
    if (!Number.isSafeInteger(limit) || limit < 0) {
      throw new StrandError("INVALID_VALUE", `SearchBM25 limit must be an integer >= 0, got ${describeValue(limit)}`);
    }
    return this.bm25.search(label, text, limit, this.opts?.transaction).map(({ id, score }) => {
      const rec = this.getNode(label, id);
      if (rec === undefined) throw new Error(`bm25 postings name missing ${label} ${id}`);
      return ownScore ? rec : { ...rec, score };
    });
  }

  // ---- graph steps

  out(items: readonly NodeItem[], edgeLabel: string): NodeItem[] {
    return this.neighbours(items, edgeLabel, "out", this.schema.edge(edgeLabel).to);
  }

  in(items: readonly NodeItem[], edgeLabel: string): NodeItem[] {
    return this.neighbours(items, edgeLabel, "in", this.schema.edge(edgeLabel).from);
  }

  /** The other endpoint of each listed edge (one result per edge, so parallel edges repeat). */
  private neighbours(items: readonly NodeItem[], edgeLabel: string, direction: "out" | "in", label: string): NodeItem[] {
    const res: NodeItem[] = [];
    for (const item of items) {
      const { otherIds } = this.adjacency(direction, item.id, edgeLabel);
      for (const id of otherIds) {
        const rec = this.getNode(label, id);
        if (rec) res.push(rec);
      }
    }
    return res;
  }

  outE(items: readonly NodeItem[], edgeLabel: string): EdgeItem[] {
    this.schema.edge(edgeLabel);
    return this.incident(items, edgeLabel, "out");
  }

  inE(items: readonly NodeItem[], edgeLabel: string): EdgeItem[] {
    this.schema.edge(edgeLabel);
    return this.incident(items, edgeLabel, "in");
  }

  private incident(items: readonly NodeItem[], edgeLabel: string, direction: "out" | "in"): EdgeItem[] {
    const res: EdgeItem[] = [];
    for (const item of items) {
      const { edgeIds } = this.adjacency(direction, item.id, edgeLabel);
      for (const id of edgeIds) {
        const rec = this.getEdge(edgeLabel, id);
        if (rec) res.push(rec);
      }
    }
    return res;
  }

  fromN(edges: readonly EdgeItem[]): NodeItem[] {
    const res: NodeItem[] = [];
    for (const e of edges) {
      const rec = this.getNode(this.schema.edge(e.label).from, e.from_node);
      if (rec) res.push(rec);
    }
    return res;
  }

  toN(edges: readonly EdgeItem[]): NodeItem[] {
    const res: NodeItem[] = [];
    for (const e of edges) {
      const rec = this.getNode(this.schema.edge(e.label).to, e.to_node);
      if (rec) res.push(rec);
    }
    return res;
  }

  shortestPath(sources: readonly NodeItem[], edgeLabel: string, endpoint: PathEndpoint, weight: WeightFn | null): Path[] {
    const info = this.schema.edge(edgeLabel);
    const isTo = "to" in endpoint;
    const endId = isTo ? endpoint.to : endpoint.from;
    // The fixed endpoint is a path's last node (::To) or first node (::From).
    const endLabel = isTo ? info.to : info.from;
    if (!plausibleId(endId) || !this.hasNode(endLabel, endId)) throw notFound("N", endLabel, endId);

    const neighbors = (nodeId: string): Array<{ edgeId: string; nodeId: string }> => {
      const { edgeIds, otherIds } = this.adjacency("out", nodeId, edgeLabel);
      const res = new Array<{ edgeId: string; nodeId: string }>(edgeIds.length);
      for (let i = 0; i < edgeIds.length; i++) res[i] = { edgeId: edgeIds[i]!, nodeId: otherIds[i]! };
      return res;
    };
    const edgeCache = new Map<string, EdgeItem>();
    const loadEdge = (id: string): EdgeItem => {
      let e = edgeCache.get(id);
      if (e === undefined) {
        e = this.getEdge(edgeLabel, id);
        if (e === undefined) throw new Error(`adjacency names missing edge ${edgeLabel}/${id}`);
        edgeCache.set(id, e);
      }
      return e;
    };
    const weightOf =
      weight === null
        ? null
        : (edgeId: string): number => {
            const w = weight(loadEdge(edgeId));
            if (typeof w !== "number" || !Number.isFinite(w) || w < 0) {
              throw new StrandError(
                "INVALID_WEIGHT",
                `weight of edge '${edgeId}' must be a finite number >= 0, got ${describeValue(w)}`,
              );
            }
            return w;
          };

    const paths: Path[] = [];
    for (const node of sources) {
      const found = shortestPaths({
        source: isTo ? node.id : endId,
        target: isTo ? endId : node.id,
        neighbors,
        weight: weightOf,
        maxPaths: MAX_PATHS,
      });
      for (const p of found) {
        const nodes: NodeItem[] = [];
        for (let i = 0; i < p.nodes.length; i++) {
          const id = p.nodes[i]!;
          const label = i === 0 ? (isTo ? node.label : info.from) : info.to;
          const rec = this.getNode(label, id);
          if (rec === undefined) throw new Error(`path names missing node ${label}/${id}`);
          nodes.push(rec);
        }
        paths.push([nodes, p.edges.map(loadEdge)]);
      }
    }
    return paths;
  }

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

  math(fn: MathFn, args: readonly PropValue[], sources?: readonly (MathSource | null)[], item0?: GraphItem | null, item1?: GraphItem | null): number {
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

  rerankRRF<T extends NodeItem>(lists: readonly (readonly T[])[], k: number): T[] {
    const scoreLabels = this.schema.scoreLabels;
    return rerankRRF(lists, k, (item) => scoreLabels.has(item.label));
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
