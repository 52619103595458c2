// QueryContext over one LMDB transaction. A read context carries an explicit read transaction
// (one snapshot for the whole request); a write context runs inside lmdb's write transaction,
// where reads see the request's own writes, and hands every change to its GraphWriter
// (runtime/write/graph-writer.ts), which also keeps the read cache right. The reads every method
// is built on are store-reads.ts's. The untyped sources need no index of their own: `N`, `E`, `V`
// are one range per type of the kind, types in code point order; `N(id)` tries each type's key
// (one get per type until the hit, then cached by id).
import { bm25Disabled, StrandError } from "../../core/errors.js";
import type { EdgeItem, GraphItem, NodeItem, Path, PropValue, Props } from "../../core/items.js";
import type { AdjacencyStep, IndexCondition, PathEndpoint, QueryContext, WeightFn } from "../../core/query-context.js";
import { countWalks, type AdjacencyReads } from "../ops/adjacency-paths.js";
import type { PathGraph } from "../ops/path-step.js";
import { shortestPathsFrom } from "../ops/shortest-path.js";
import { eachPair, upsertPairs } from "../ops/edge-pairs.js";
import { rerankRRF } from "../ops/rerank.js";
import * as seq from "../ops/sequence.js";
import { checkBm25Query } from "../search/bm25-index.js";
import { listCount } from "../adjacency/pending-in.js";
import { bareEdge } from "../records/edge-records.js";
import { indexCandidates } from "../indexes/index-where.js";
import { itemsByIndexValue } from "../indexes/index-lookup.js";
import { itemKey } from "../store/keys.js";
import type { Database } from "lmdb";
import { slotsOfRange, type VectorSnapshot } from "../vector/search.js";
import { searchAmong } from "../vector/search-among.js";
import { notFound, plausibleId } from "../store/ids.js";
import { StoreReads } from "./store-reads.js";

const KIND_WORD = { N: "node", E: "edge", V: "vector" } as const;

export class TxnQueryContext extends StoreReads implements QueryContext {
  // ---- sources

  nodeById(label: string, id: string): NodeItem {
    const info = this.schema.node(label);
    const rec = plausibleId(id) ? this.getNode(label, id) : undefined;
    if (rec === undefined) throw notFound(info.kind, label, id);
    return rec;
  }

  nodesByLabel(label: string): NodeItem[] {
    this.schema.node(label);
    return [...this.records(this.dbs.nodes, label)];
  }

  nodesWhere(label: string, predicate: (item: NodeItem) => boolean, start = 0, end?: number): NodeItem[] {
    this.schema.node(label);
    return seq.matches(this.records(this.dbs.nodes, label), predicate, start, end);
  }

  itemsWhereIndexed(
    kind: "N" | "E",
    label: string,
    conditions: readonly IndexCondition[],
    predicate: (item: GraphItem) => boolean,
    start = 0,
    end?: number,
  ): GraphItem[] {
    const info = kind === "E" ? this.schema.edge(label) : this.schema.node(label);
    const ids = indexCandidates(this.dbs, this.opts?.transaction, info, conditions);
    if (ids === null) return seq.matches(kind === "E" ? this.edgesOf(label) : this.records(this.dbs.nodes, label), predicate, start, end);
    const get = kind === "E" ? (id: string) => this.getEdge(label, id) : (id: string) => this.getNode(label, id);
    return seq.matches(seq.present(ids, get), predicate, start, end);
  }

  /** The records of one label, in id order. */
  private *records<T>(db: Database<T, Uint8Array>, label: string): Generator<T> {
    for (const { value } of this.scan(db, label)) {
      this.deadline?.tick();
      yield value;
    }
  }

  edgeById(label: string, id: string): EdgeItem {
    this.schema.edge(label);
    const rec = plausibleId(id) ? this.getEdge(label, id) : undefined;
    if (rec === undefined) throw notFound("E", label, id);
    return rec;
  }

  edgesByLabel(label: string): EdgeItem[] {
    this.schema.edge(label);
    return [...this.edgesOf(label)];
  }

  itemsOfKind(kind: "N" | "E" | "V"): GraphItem[] {
    const out: GraphItem[] = [];
    for (const label of this.schema.labelsOf(kind)) {
      if (kind === "E") for (const edge of this.edgesOf(label)) out.push(edge);
      else for (const value of this.records(this.dbs.nodes, label)) out.push(value);
    }
    return out;
  }

  itemOfKindById(kind: "N" | "E" | "V", id: string): GraphItem {
    if (plausibleId(id)) {
      // One get per type until the hit (edges: record, then edge_ends); a read context caches it
      // by id, so every later try is a cache hit (one under another label is a miss without a get).
      for (const label of this.schema.labelsOf(kind)) {
        const rec = kind === "E" ? this.getEdge(label, id) : this.getRecord<NodeItem>(this.dbs.nodes, label, id);
        if (rec !== undefined) return rec;
      }
    }
    throw new StrandError("NOT_FOUND", `${kind} with id '${String(id)}' not found (no ${KIND_WORD[kind]} of any type has it)`);
  }

  /** The records whose indexed field equals `value`, as indexes/index-lookup.ts finds them. */
  nodesByIndex(label: string, field: string, value: PropValue, limit?: number): NodeItem[] {
    return itemsByIndexValue(this.dbs, this.opts?.transaction, this.schema.node(label), field, value, limit, (id) =>
      this.getNode(label, id),
    );
  }

  edgesByIndex(label: string, field: string, value: PropValue, limit?: number): EdgeItem[] {
    return itemsByIndexValue(this.dbs, this.opts?.transaction, this.schema.edge(label), field, value, limit, (id) =>
      this.getEdge(label, id),
    );
  }

  // ---- writes (runtime/write/graph-writer.ts)

  addNode(label: string, props: Props): NodeItem {
    return this.write("addNode").addNode(label, props);
  }

  addEdge(label: string, props: Props, fromId: string, toId: string): EdgeItem {
    return this.write("addEdge").addEdge(label, props, fromId, toId);
  }

  addEdges(label: string, props: Props, fromIds: readonly string[], toIds: readonly string[]): EdgeItem[] {
    const writer = this.write("addEdges");
    return eachPair(fromIds, toIds, (fromId, toId) => {
      this.deadline?.tick();
      return writer.addEdge(label, props, fromId, toId);
    });
  }

  updateNodes(items: readonly NodeItem[], props: Props | ((item: NodeItem) => Props)): NodeItem[] {
    return this.write("updateNodes").update(items, props, "N");
  }

  updateEdges(items: readonly EdgeItem[], props: Props | ((item: EdgeItem) => Props)): EdgeItem[] {
    return this.write("updateEdges").update(items, props, "E");
  }

  upsertNode(label: string, existing: readonly NodeItem[], props: Props): NodeItem {
    return this.write("upsertNode").upsertNode(label, existing, props);
  }

  upsertEdge(label: string, existing: readonly EdgeItem[], props: Props, fromId: string, toId: string): EdgeItem {
    return this.write("upsertEdge").upsertEdge(label, existing, props, fromId, toId);
  }

  upsertEdges(
    label: string,
    existing: readonly EdgeItem[],
    props: Props,
    fromIds: readonly string[],
    toIds: readonly string[],
  ): EdgeItem[] {
    const writer = this.write("upsertEdges");
    return upsertPairs(existing, fromIds, toIds, (candidates, fromId, toId) => {
      this.deadline?.tick();
      return writer.upsertEdge(label, candidates, props, fromId, toId);
    });
  }

  drop(items: readonly GraphItem[]): void {
    this.write("drop").drop(items);
  }

  // ---- vectors (runtime/vector/): V items are stored, read and traversed like nodes

  vectorById(label: string, id: string): NodeItem {
    this.schema.vector(label);
    return this.nodeById(label, id);
  }

  vectorsByLabel(label: string): NodeItem[] {
    this.schema.vector(label);
    return [...this.records(this.dbs.nodes, label)];
  }

  addVector(label: string, vector: readonly number[], props: Props): NodeItem {
    return this.write("addVector").addVector(label, vector, props);
  }

  upsertVector(label: string, existing: readonly NodeItem[], vector: readonly number[], props: Props): NodeItem {
    return this.write("upsertVector").upsertVector(label, existing, vector, props);
  }

  searchVectors(label: string, query: readonly number[], k: number, ef: number | null = null): NodeItem[] {
    const info = this.schema.vector(label);
    return this.vectors.search(info, this.vectorSnapshot(), query, k, ef).items;
  }

  searchVectorsWhere(
    label: string,
    query: readonly number[],
    k: number,
    ef: number | null,
    keep: (item: NodeItem) => boolean,
    index?: readonly IndexCondition[],
  ): NodeItem[] {
    const info = this.schema.vector(label);
    const snapshot = this.vectorSnapshot();
    if (index !== undefined) {
      const ids = indexCandidates(this.dbs, this.opts?.transaction, info, index);
      const live = snapshot.meta(label)?.live ?? 0;
      if (ids !== null && scoreAllPassing(ids.length, k, live)) {
        const passing = seq.matches(
          seq.present(ids, (id: string) => this.getNode(label, id)),
          keep,
          0,
          undefined,
        );
        return this.searchVectorsIn(label, passing, query, k);
      }
    }
    return this.vectors.search(info, snapshot, query, k, ef, keep).items;
  }

  searchVectorsIn(label: string, items: readonly NodeItem[], query: readonly number[], k: number): NodeItem[] {
    const dimension = this.dbs.vectorTypes.get([label], this.opts)?.dimension;
    return searchAmong(this.schema.vector(label), this.vectors.options.metric, dimension, items, query, k);
  }

  dropVector(item: NodeItem): void {
    this.write("dropVector").dropVector(item);
  }

  /** This context's transaction as vector search reads it. */
  private vectorSnapshot(): VectorSnapshot {
    return {
      meta: (label) => this.dbs.vectorTypes.get([label], this.opts),
      slotOf: (label, id) => this.dbs.vectorIds.get(itemKey(label, id), this.opts),
      record: (label, id) => this.getNode(label, id),
      slots: (label) => slotsOfRange(this.scan(this.dbs.vectorIds, label)),
    };
  }

  // ---- keyword search (runtime/search/)

  searchBM25(label: string, text: string, limit: number): NodeItem[] {
    // A type that declares a `score` field keeps its stored value; the ranking still is BM25's.
    const ownScore = this.schema.node(label).fieldByName.has("score");
    if (this.bm25 === null) throw bm25Disabled(`SearchBM25<${label}>`);
    checkBm25Query(text, limit);
    this.writer?.beforeSearch(); // a write's own new documents are gathered until then
    const tick = () => this.deadline?.tick();
    return this.bm25.search(label, text, limit, this.opts?.transaction, tick).map(({ id, score }) => {
      const rec = this.getNode(label, id);
      if (rec === undefined) throw new Error(`bm25 postings name missing ${label} ${id}`);
      return ownScore ? rec : { ...rec, score };
    });
  }

  searchBM25Where(label: string, text: string, limit: number, keep: (item: NodeItem) => boolean): NodeItem[] {
    checkBm25Query(text, limit);
    if (limit === 0) return [];
    // Each search scores every document holding a term; a wider limit only keeps more of them.
    for (let n = limit; ; n *= 4) {
      const hits = this.searchBM25(label, text, n);
      const passing = hits.filter(keep);
      if (passing.length >= limit || hits.length < n) return passing.slice(0, limit);
    }
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

  outE(items: readonly NodeItem[], edgeLabel: string, limit?: number): EdgeItem[] {
    this.schema.edge(edgeLabel);
    return this.incident(items, edgeLabel, "out", limit);
  }

  inE(items: readonly NodeItem[], edgeLabel: string, limit?: number): EdgeItem[] {
    this.schema.edge(edgeLabel);
    return this.incident(items, edgeLabel, "in", limit);
  }

  /** The listed edges: one without a record is built from its list entry (no read; a type without fields has none). */
  private incident(items: readonly NodeItem[], edgeLabel: string, direction: "out" | "in", limit?: number): EdgeItem[] {
    const res: EdgeItem[] = [];
    const mayHaveRecords = this.schema.edge(edgeLabel).fields.length > 0;
    for (const item of items) {
      if (limit !== undefined && res.length >= limit) break;
      const { edgeIds, otherIds } = this.adjacency(direction, item.id, edgeLabel, limit === undefined ? undefined : limit - res.length);
      for (let i = 0; i < edgeIds.length; i++) {
        const id = edgeIds[i]!;
        const rec = mayHaveRecords ? this.getRecord(this.dbs.edges, edgeLabel, id) : undefined;
        if (rec !== undefined) res.push(rec);
        else if (direction === "out") res.push(bareEdge(edgeLabel, id, item.id, otherIds[i]!));
        else res.push(bareEdge(edgeLabel, id, otherIds[i]!, item.id));
      }
    }
    return res;
  }

  countAdjacent(items: readonly NodeItem[], steps: readonly AdjacencyStep[], limit?: number): number {
    for (const step of steps) this.schema.edge(step[1]);
    if (this.opts === undefined) this.writer?.flushBuffered(); // a write counts its own new edges
    const reads: AdjacencyReads = {
      others: (direction, nodeId, label) => this.adjacency(direction, nodeId, label).otherIds,
      // A list the read cache holds already is counted there; else its tail is read (no entries decoded).
      degree: (direction, nodeId, label) =>
        this.cachedDegree(direction, nodeId, label) ?? listCount(this.dbs, direction, nodeId, label, this.opts),
    };
    return countWalks(reads, items, steps, limit);
  }

  fromN(edges: readonly EdgeItem[]): NodeItem[] {
    return this.ends(edges, "from");
  }

  toN(edges: readonly EdgeItem[]): NodeItem[] {
    return this.ends(edges, "to");
  }

  private ends(edges: readonly EdgeItem[], end: "from" | "to"): NodeItem[] {
    const res: NodeItem[] = [];
    for (const e of edges) {
      const rec = this.getNode(this.schema.edge(e.label)[end], end === "from" ? e.from_node : e.to_node);
      if (rec) res.push(rec);
    }
    return res;
  }

  shortestPath(
    sources: readonly NodeItem[],
    edgeLabel: string | readonly string[] | null,
    endpoint: PathEndpoint,
    weight: WeightFn | null,
  ): Path[] {
    const graph: PathGraph = {
      outgoing: (nodeId, label) => this.adjacency("out", nodeId, label),
      edge: (label, id) => this.getEdge(label, id),
      node: (label, id) => this.getNode(label, id),
    };
    return shortestPathsFrom({ graph, schema: this.schema, hasNode: (l, id) => this.hasNode(l, id) }, sources, edgeLabel, endpoint, weight);
  }

  rerankRRF<T extends NodeItem>(lists: readonly (readonly T[])[], k: number): T[] {
    const scoreLabels = this.schema.scoreLabels;
    return rerankRRF(lists, k, (item) => scoreLabels.has(item.label));
  }
}

/**
 * Whether `SearchV(…)::WHERE` scores every vector the index offers (`candidates` of `live`)
 * instead of searching the vector index with the filter. Each way reads records: all the
 * candidates, or about k·live/candidates index neighbours before k of them pass. Scoring the
 * candidates wins while candidates² ≤ 4·k·live (at 1% of 100k vectors and k = 10, 1,000
 * candidates against ~1,000 neighbours), and always for a few hundred.
 */
function scoreAllPassing(candidates: number, k: number, live: number): boolean {
  return candidates <= 256 || candidates * candidates <= 4 * Math.max(k, 1) * live;
}
