// The one writer of graph data. Every change of a record goes through here, inside the write
// transaction, and is fanned out to everything that describes the record, in one place:
//   - the record itself (`nodes` / `edges`),
//   - its secondary index entries and UNIQUE claims, and an edge's edge-type UNIQUE claim,
//   - an edge's adjacency entries, in both directions,
//   - the keyword index (search hook) for node and vector records,
//   - a vector record's slot and the write's vector log (vector hook),
//   - the read cache: every existing key it changes is marked before the change (read-cache.ts).
// Query contexts (runtime/query/context.ts) and the open's migrations (runtime/migrate/) call it; no
// other module writes these databases (test/write-path.test.ts checks that).
//
// DROP: a dropped edge loses its record, its entry in both adjacency lists, its edge-type UNIQUE
// claim and its index entries; a dropped node or vector takes every incident edge that way, in
// both directions and of every label (a key range over its own lists), then its index entries and
// claims, its document or slot, and its own lists. All the entries one DROP cuts from a list go in
// one rewrite (adjacency/list-cuts.ts); repeated or already-gone items are no-ops.
import type { StoredAnswer } from "../../core/query-context.js";
import { rememberAnswer } from "../idempotency/answers.js";
import type { ProgressSink } from "../../core/progress.js";
import { echo } from "../../core/echo.js";
import { StrandError } from "../../core/errors.js";
import type { EdgeItem, GraphItem, NodeItem, Props } from "../../core/items.js";
import { splitAdjacency } from "../adjacency/lists.js";
import { bareEdgeFrom } from "../records/edge-ends.js";
import { bareEdge, edgeById, edgeExists, edgeHasFields } from "../records/edge-records.js";
import type { StoreDbs } from "../store/dbs.js";
import { notFound, plausibleId, uuidv7 } from "../store/ids.js";
import { itemKey } from "../store/keys.js";
import { adjacencyKey, recordKey, type ReadCache } from "../store/read-cache.js";
import { newEdgeRecord, newNodeRecord, updatedRecord, validateProps } from "../records/records.js";
import { removedTypesMessage } from "../records/removed-types.js";
import type { EdgeTypeInfo, SchemaInfo, TypeInfo, VectorTypeInfo } from "../store/schema-info.js";
import { listLabels, readList } from "../adjacency/pending-in.js";
import { newVectorRecord, replacedVectorRecord, vectorOf } from "../vector/vector-records.js";
import { AdjacencyBuffer } from "../adjacency/append-buffer.js";
import { deleteAdjacency } from "../adjacency/list-writes.js";
import { ListCuts } from "../adjacency/list-cuts.js";
import { EdgeEndsWriter } from "../records/edge-ends-writes.js";
import { deleteInList } from "../adjacency/pending-in-writes.js";
import type { SearchHook, VectorHook } from "./hooks.js";
import type { WorkLimit } from "../../core/work-limit.js";
import { claimEdgeUnique, indexNew, indexRemove, indexUpdate, releaseEdgeUnique } from "../indexes/index-writes.js";

export interface WriterHooks {
  /** The keyword index, or null when BM25 is disabled (or rebuilt later, as after a migration). */
  readonly search: SearchHook | null;
  /** Vector slots and the write's log, or null where no vector may change (migrations). */
  readonly vectors: VectorHook | null;
  /**
   * false: new incoming entries go straight into their lists (a bulk load, which folds the
   * pending ones first); otherwise they are deferred (adjacency/pending-in.ts). Default true.
   */
  readonly deferIn?: boolean;
}

export class GraphWriter {
  /** This transaction's new adjacency entries, written by flushBuffered (adjacency/append-buffer.ts). */
  private readonly appends = new AdjacencyBuffer();
  /** Incoming entries this writer deferred (adjacency/pending-in.ts), for the store's fold. */
  deferredIn = 0;
  /**
   * Nodes this write found (id → label), so a node given as the endpoint of many edges (a FOR
   * loop's source) is looked up once; forgotten at every DROP, the only way a node goes.
   */
  private readonly seenNodes = new Map<string, string>();
  /** This transaction's writes to `edge_ends` (records/edge-ends-writes.ts); its growing blocks are written by flushBuffered. */
  protected readonly ends: EdgeEndsWriter;

  /**
   * @param cache the shared read cache; `touched` collects every key marked in it, for the
   *   store to settle once the transaction committed and flushed (or failed).
   */
  constructor(
    protected readonly dbs: StoreDbs,
    private readonly schema: SchemaInfo,
    private readonly cache: ReadCache,
    private readonly touched: string[],
    private readonly hooks: WriterHooks,
  ) {
    this.ends = new EdgeEndsWriter(dbs.edgeEnds);
  }

  /** Stores a write's answer under its Idempotency-Key (idempotency/answers.ts), logged with the write. */
  rememberAnswer(key: string, answer: StoredAnswer, expiredBefore: number): void {
    rememberAnswer(this.dbs, key, answer, expiredBefore);
  }

  /** The time limit of the query this write belongs to (its context sets it); null: none. */
  private limit: WorkLimit | null = null;

  limitBy(limit: WorkLimit | null): void {
    this.limit = limit;
  }

  /**
   * The write's callback is done: state the hooks gathered is written (still in the transaction,
   * still under the query's time limit: a large text's postings are the query's work).
   */
  finish(progress?: ProgressSink): void {
    this.hooks.search?.flush(progress, this.limit);
  }

  /** The write's callback threw: its transaction rolls back, so what the hooks gathered is dropped. */
  abandon(): void {
    this.hooks.search?.discard();
  }

  /** Before a read of hook-kept state (SearchBM25) in this write: it must see the write's own changes. */
  beforeSearch(): void {
    this.hooks.search?.flush(undefined, this.limit);
  }

  private now(): string {
    return new Date().toISOString();
  }

  /** Marks `key` (a record or adjacency list that exists) as changing in this write. */
  protected invalidate(key: string): void {
    this.cache.beginWrite(key, this.touched);
  }

  private vectorHook(info: TypeInfo): VectorHook {
    if (this.hooks.vectors === null) throw new Error(`V::${info.name}: vectors cannot change in this write`);
    return this.hooks.vectors;
  }

  // ---- the fan-out: what every record change must touch (a V type's info is a VectorTypeInfo)

  private insert(info: TypeInfo, rec: NodeItem): void {
    if (info.kind === "E") claimEdgeUnique(this.dbs, info as EdgeTypeInfo, rec.id, rec.from_node as string, rec.to_node as string);
    indexNew(this.dbs, info, rec);
    if (info.kind === "V") this.vectorHook(info).added(info as VectorTypeInfo, rec, vectorOf(info as VectorTypeInfo, rec));
    if (info.kind === "E") this.putEdge(info.name, rec as EdgeItem, null);
    else this.dbs.nodes.putSync(itemKey(info.name, rec.id), rec);
    if (info.kind !== "E") this.hooks.search?.added(rec, this.limit);
  }

  private replace(info: TypeInfo, current: NodeItem, next: NodeItem): void {
    if (info.kind === "V") this.vectorHook(info).replaced(info as VectorTypeInfo, current, next);
    indexUpdate(this.dbs, info, current, next);
    this.invalidate(recordKey(current.id));
    if (info.kind === "E") this.putEdge(info.name, next as EdgeItem, current as EdgeItem);
    else this.dbs.nodes.putSync(itemKey(info.name, current.id), next);
    if (info.kind !== "E") this.hooks.search?.replaced(current, next, this.limit);
  }

  /** The record and everything describing it except adjacency (edges: see drop). */
  private remove(info: TypeInfo, rec: NodeItem): void {
    if (info.kind === "V") this.vectorHook(info).removed(info as VectorTypeInfo, rec);
    if (info.kind === "E") releaseEdgeUnique(this.dbs, info as EdgeTypeInfo, rec.id, rec.from_node as string, rec.to_node as string);
    indexRemove(this.dbs, info, rec);
    this.invalidate(recordKey(rec.id));
    if (info.kind !== "E") this.dbs.nodes.removeSync(itemKey(info.name, rec.id));
    else if (edgeHasFields(rec as EdgeItem)) this.dbs.edges.removeSync(itemKey(info.name, rec.id));
    else this.ends.remove(info.name, rec.id);
    if (info.kind !== "E") this.hooks.search?.removed(rec);
  }

  /**
   * Stores an edge in its form (edge-records.ts): a record when it has a field value, else its
   * `edge_ends` entry; `current` is the form it had (null: a new edge), removed when it changes.
   */
  protected putEdge(label: string, next: EdgeItem, current: EdgeItem | null): void {
    const record = edgeHasFields(next);
    if (current !== null && edgeHasFields(current) !== record) {
      if (record) this.ends.remove(label, current.id);
      else this.dbs.edges.removeSync(itemKey(label, current.id));
    }
    if (record) this.dbs.edges.putSync(itemKey(label, next.id), next);
    else if (current === null || edgeHasFields(current)) this.ends.add(label, next.id, next.from_node);
  }

  // ---- creating

  addNode(label: string, props: Props): NodeItem {
    const info = this.schema.node(label);
    if (info.kind !== "N") throw new Error(`addNode on vector type '${label}' (use addVector)`);
    const values = validateProps(info, props);
    const rec = newNodeRecord(info, uuidv7(), values, info.hasNowDefault ? this.now() : "");
    this.insert(info, rec);
    return rec;
  }

  addEdge(label: string, props: Props, fromId: string, toId: string): EdgeItem {
    const info = this.schema.edge(label);
    const values = validateProps(info, props);
    this.checkEndpoint(info, "from", info.from, fromId);
    this.checkEndpoint(info, "to", info.to, toId);
    const rec = newEdgeRecord(info, uuidv7(), fromId, toId, values, info.hasNowDefault ? this.now() : "");
    this.insert(info, rec);
    this.appendEdge(label, rec.id, fromId, toId);
    return rec;
  }

  /** Holds the edge's two adjacency entries until flushBuffered; each list is marked once. */
  private appendEdge(label: string, edgeId: string, fromId: string, toId: string): void {
    if (this.appends.add("out", fromId, label, edgeId, toId)) this.invalidate(adjacencyKey("out", fromId, label));
    if (this.appends.add("in", toId, label, edgeId, fromId)) this.invalidate(adjacencyKey("in", toId, label));
  }

  /**
   * Writes what this writer holds back: the adjacency entries (one rewrite per list) and the
   * `edge_ends` blocks still growing. Whoever reads a list or an edge inside the write
   * transaction calls it first (the write context, UPDATE and DROP of edges), and the store calls
   * it before the transaction commits: a committed edge always has its entries.
   */
  flushBuffered(): void {
    this.deferredIn += this.appends.flush(this.dbs, this.hooks.deferIn !== false);
    this.ends.flush();
  }

  addVector(label: string, vector: readonly number[], props: Props): NodeItem {
    const info = this.schema.vector(label);
    const rec = newVectorRecord(info, vector, props, info.hasNowDefault ? this.now() : "");
    this.insert(info, rec);
    return rec;
  }

  /** NOT_FOUND when no node has the id; EDGE_TYPE_MISMATCH when it has another label. */
  private checkEndpoint(info: EdgeTypeInfo, end: "from" | "to", expected: string, id: string): void {
    if (plausibleId(id) && this.hasNode(expected, id)) return;
    if (plausibleId(id)) {
      for (const other of [...this.schema.nodes.keys(), ...this.schema.vectors.keys()]) {
        if (other !== expected && this.hasNode(other, id)) {
          throw new StrandError("EDGE_TYPE_MISMATCH", `E::${info.name} must go ${end} a ${expected} node, but node '${id}' is a ${other}`);
        }
      }
    }
    throw new StrandError("NOT_FOUND", `${end} node '${String(id)}' of E::${info.name} not found`);
  }

  private hasNode(label: string, id: string): boolean {
    if (this.seenNodes.get(id) === label) return true;
    // doesExist(key, undefined) is a getBinaryFast: no msgpack decode.
    const found = this.dbs.nodes.doesExist(itemKey(label, id), undefined as unknown as NodeItem);
    if (found) this.seenNodes.set(id, label);
    return found;
  }

  /**
   * A record built and checked by the bulk loader (load/bulk-loader.ts: its id kept, every claim it
   * needs checked free), stored with the same fan-out as a new record, but for an edge's list
   * entries: the loader holds those itself (adjacency/bulk-lists.ts).
   */
  insertLoaded(info: TypeInfo, rec: NodeItem): void {
    this.insert(info, rec);
  }

  /**
   * A loaded edge of a type without fields or UNIQUE: its `edge_ends` entry, the edge id and from
   * node as the words w[at, at + 8) (load/loaded-ids.ts); the rest of insert's fan-out is empty.
   */
  insertLoadedEnds(label: string, w: Int32Array, at: number): void {
    this.ends.addEntryWords(label, w, at);
  }

  // ---- updating

  /** UPDATE of nodes or vectors (kind "N") or edges (kind "E"); NOT_FOUND for an item gone since. */
  update<T extends NodeItem>(items: readonly T[], props: Props | ((item: T) => Props), kind: "N" | "E"): T[] {
    if (kind === "E") this.flushBuffered(); // an edge without a record has its to node in a list
    const out: T[] = [];
    let info: TypeInfo | undefined;
    let values: ReturnType<typeof validateProps> | undefined;
    for (const item of items) {
      if (!info || info.name !== item.label) {
        info = kind === "N" ? this.schema.node(item.label) : this.schema.edge(item.label);
        values = typeof props === "function" ? undefined : validateProps(info, props);
      }
      // Re-read: the item may be stale if this query changed it since.
      const current = !plausibleId(item.id)
        ? undefined
        : kind === "E"
          ? (edgeById(this.dbs, item.label, item.id, undefined) as unknown as T | undefined)
          : (this.dbs.nodes.get(itemKey(item.label, item.id)) as T | undefined);
      if (current === undefined) throw notFound(kind, item.label, item.id);
      // Values computed from the item see it as stored now (an item listed twice is updated twice).
      const next = updatedRecord(info, current, typeof props === "function" ? validateProps(info, props(current)) : values!);
      this.replace(info, current, next);
      out.push(next);
    }
    return out;
  }

  upsertNode(label: string, existing: readonly NodeItem[], props: Props): NodeItem {
    const current = this.firstExisting("N", label, existing);
    return current === undefined ? this.addNode(label, props) : this.update([current], props, "N")[0]!;
  }

  upsertEdge(label: string, existing: readonly EdgeItem[], props: Props, fromId: string, toId: string): EdgeItem {
    const current = this.firstExisting("E", label, existing);
    return current === undefined ? this.addEdge(label, props, fromId, toId) : this.update([current], props, "E")[0]!;
  }

  /** UpsertV: the first of `existing` still stored gets props and `vector`; else a new vector. */
  upsertVector(label: string, existing: readonly NodeItem[], vector: readonly number[], props: Props): NodeItem {
    const info = this.schema.vector(label);
    for (const item of existing) {
      if (item.label !== label) throw new Error(`upsertVector<${label}> given a ${item.label}`);
      const current = plausibleId(item.id) ? this.dbs.nodes.get(itemKey(label, item.id)) : undefined;
      if (current === undefined) continue;
      const next = replacedVectorRecord(info, current, vector, props);
      this.replace(info, current, next);
      return next;
    }
    return this.addVector(label, vector, props);
  }

  /** The first item still stored (an earlier DROP of this query may have removed some). */
  private firstExisting<T extends NodeItem>(kind: "N" | "E", label: string, items: readonly T[]): T | undefined {
    for (const item of items) {
      if (item.label !== label) throw new Error(`upsert of ${label} given an item of label ${item.label}`);
      if (!plausibleId(item.id)) continue;
      if (kind === "E") this.ends.flush(); // it reads edge_ends
      if (
        kind === "E"
          ? edgeExists(this.dbs, label, item.id, undefined)
          : this.dbs.nodes.doesExist(itemKey(label, item.id), undefined as unknown as NodeItem)
      )
        return item;
    }
    return undefined;
  }

  // ---- DROP

  drop(items: readonly GraphItem[]): void {
    this.seenNodes.clear();
    this.flushBuffered(); // DROP reads and cuts lists
    const cuts = new ListCuts();
    for (const item of items) {
      if (!plausibleId(item.id)) continue;
      if (this.schema.edges.has(item.label) && "from_node" in item) this.dropEdge(item.label, item.id, cuts);
      else this.dropNode(item.label, item.id, cuts);
    }
    cuts.apply(this.dbs, (key) => this.invalidate(key));
  }

  /**
   * One vector, as DROP removes it: record, index entries, slot, document and its edges (an
   * earlier version left the edges to the caller, so a direct call could strand them).
   */
  dropVector(item: NodeItem): void {
    this.schema.vector(item.label);
    this.drop([item]);
  }

  /** Removes the edge (its list entries go into `cuts`), unless it is already gone. */
  private dropEdge(label: string, id: string, cuts: ListCuts): void {
    const rec = this.removeEdgeRecord(label, id);
    if (rec === undefined) return;
    cuts.add("out", rec.from_node, label, id);
    cuts.add("in", rec.to_node, label, id);
  }

  /**
   * Removes the node, every edge incident to it (their entries in other nodes' lists go into
   * `cuts`), and its own adjacency lists, unless it is already gone. Entries of its own lists
   * whose edge is already gone (dropped earlier in the call, or a self-loop seen from its other
   * list) are skipped.
   */
  private dropNode(label: string, id: string, cuts: ListCuts): void {
    const info = this.schema.node(label);
    const rec = this.dbs.nodes.get(itemKey(label, id));
    if (rec === undefined) return;
    for (const direction of ["out", "in"] as const) {
      const otherDirection = direction === "out" ? "in" : "out";
      for (const edgeLabel of listLabels(this.dbs, direction, id, undefined)) {
        // The open refuses data holding edges of an undeclared type (runtime/migrate/); should
        // one be met anyway, the DROP is refused with a user error, never an internal one.
        if (!this.schema.edges.has(edgeLabel)) {
          throw new StrandError(
            "SCHEMA_MISMATCH",
            `cannot drop ${info.kind}::${echo(label)} ${echo(id)}: it has edges of type ${echo(edgeLabel)}; ` +
              removedTypesMessage([{ ref: `E::${edgeLabel}`, drop: `DROP E<${edgeLabel}>` }], "nothing was dropped"),
          );
        }
        const { edgeIds, otherIds } = splitAdjacency(readList(this.dbs, direction, id, edgeLabel, undefined));
        for (let i = 0; i < edgeIds.length; i++) {
          const [from, to] = direction === "out" ? [id, otherIds[i]!] : [otherIds[i]!, id];
          if (this.removeEdgeRecord(edgeLabel, edgeIds[i]!, from, to) === undefined) continue;
          if (otherIds[i] !== id) cuts.add(otherDirection, otherIds[i]!, edgeLabel, edgeIds[i]!);
        }
        const key = adjacencyKey(direction, id, edgeLabel);
        cuts.wholeList(key);
        this.invalidate(key);
        if (direction === "out") deleteAdjacency(this.dbs.out, id, edgeLabel);
        else deleteInList(this.dbs, id, edgeLabel);
      }
    }
    this.remove(info, rec);
  }

  /**
   * Deletes an edge (record or edge_ends entry) with its index entries and UNIQUE claim; undefined
   * when already gone. With its ends known (from a list) a bare edge needs no list read.
   */
  private removeEdgeRecord(label: string, id: string, from?: string, to?: string): EdgeItem | undefined {
    const info = this.schema.edge(label);
    this.ends.flush(); // it reads edge_ends
    const rec =
      from === undefined || to === undefined
        ? edgeById(this.dbs, label, id, undefined)
        : (this.dbs.edges.get(itemKey(label, id)) ??
          (bareEdgeFrom(this.dbs.edgeEnds, label, id, undefined) !== undefined ? bareEdge(label, id, from, to) : undefined));
    if (rec === undefined) return undefined;
    this.remove(info, rec);
    return rec;
  }
}
