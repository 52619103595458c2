// `ShortestPath` as a query step: the id paths of paths.ts (BFS or Dijkstra over one edge type,
// or over edges of any type), with weights checked and ids resolved to records through the
// caller's reads.
import { StrandError } from "../../core/errors.js";
import type { EdgeItem, NodeItem, Path } from "../../core/items.js";
import type { WeightFn } from "../../core/query-context.js";
import { describeValue } from "../../core/values.js";
import { shortestPaths, type PathNeighbor } from "./paths.js";

/** At most this many equally short paths per source (QueryContext.shortestPath contract). */
const MAX_PATHS = 16;

/** The graph as the step reads it, in the caller's transaction. */
export interface PathGraph {
  /** The node's outgoing edges of one type and the node each goes to, in creation order. */
  outgoing(nodeId: string, edgeLabel: string): { readonly edgeIds: readonly string[]; readonly otherIds: readonly string[] };
  edge(label: string, id: string): EdgeItem | undefined;
  node(label: string, id: string): NodeItem | undefined;
}

/** What the step reads: the edges a path may take, of one type or of any. */
export interface PathReads {
  /** The edges walked, for messages: `Road`, or `any type`. */
  readonly edges: string;
  /** The node's outgoing usable edges and the node each goes to. */
  outgoing(nodeId: string): { readonly edgeIds: readonly string[]; readonly otherIds: readonly string[] };
  edge(id: string): EdgeItem | undefined;
  /** A node on a path: a path's first node, or one that `outgoing` named. */
  node(id: string): NodeItem | undefined;
}

/** Paths over the edges of one type (From → To). */
export function typedReads(graph: PathGraph, edge: { name: string; from: string; to: string }): PathReads {
  return {
    edges: edge.name,
    outgoing: (nodeId) => graph.outgoing(nodeId, edge.name),
    edge: (id) => graph.edge(edge.name, id),
    // Ids are unique across types: a path's first node is a From node, the others To nodes.
    node: (id) => graph.node(edge.to, id) ?? (edge.from === edge.to ? undefined : graph.node(edge.from, id)),
  };
}

/**
 * Paths over edges of any type (`ShortestPath::To(x)` without `<E>`): from a node of type L,
 * every edge type whose From is L, in schema declaration order, each in creation order.
 * `labels` holds the type of each search source; the types of the nodes reached are learnt
 * from the edges that reach them.
 */
export function anyEdgeReads(
  graph: PathGraph,
  edgeTypes: Iterable<{ name: string; from: string; to: string }>,
  labels: Map<string, string>,
): PathReads {
  const byFrom = new Map<string, { name: string; to: string }[]>();
  for (const e of edgeTypes) {
    const list = byFrom.get(e.from);
    if (list === undefined) byFrom.set(e.from, [{ name: e.name, to: e.to }]);
    else list.push({ name: e.name, to: e.to });
  }
  const edgeLabels = new Map<string, string>();
  return {
    edges: "any type",
    outgoing: (nodeId) => {
      const edgeIds: string[] = [];
      const otherIds: string[] = [];
      for (const e of byFrom.get(labels.get(nodeId) ?? "") ?? []) {
        const adj = graph.outgoing(nodeId, e.name);
        for (let i = 0; i < adj.edgeIds.length; i++) {
          edgeIds.push(adj.edgeIds[i]!);
          otherIds.push(adj.otherIds[i]!);
          edgeLabels.set(adj.edgeIds[i]!, e.name);
          labels.set(adj.otherIds[i]!, e.to);
        }
      }
      return { edgeIds, otherIds };
    },
    edge: (id) => {
      const label = edgeLabels.get(id);
      return label === undefined ? undefined : graph.edge(label, id);
    },
    node: (id) => {
      const label = labels.get(id);
      return label === undefined ? undefined : graph.node(label, id);
    },
  };
}

/**
 * Paths from each source to `endId` (`toEnd`), or from `endId` to each source; the caller has
 * checked that `endId` exists. INVALID_WEIGHT when `weight` yields anything but a number >= 0.
 */
export function shortestPathStep(
  reads: PathReads,
  sources: readonly NodeItem[],
  endId: string,
  toEnd: boolean,
  weight: WeightFn | null,
): Path[] {
  const neighbors = (nodeId: string): PathNeighbor[] => {
    const { edgeIds, otherIds } = reads.outgoing(nodeId);
    const res = new Array<PathNeighbor>(edgeIds.length);
    for (let i = 0; i < edgeIds.length; i++) res[i] = { edgeId: edgeIds[i]!, nodeId: otherIds[i]! };
    return res;
  };
  const edgeCache = new Map<string, EdgeItem>();
  const loadEdge = (id: string): EdgeItem => {
    let e = edgeCache.get(id);
    if (e === undefined) {
      e = reads.edge(id);
      if (e === undefined) throw new Error(`adjacency names missing edge ${reads.edges}/${id}`);
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
            throw new StrandError("INVALID_WEIGHT", `weight of edge '${edgeId}' must be a finite number >= 0, got ${describeValue(w)}`);
          }
          return w;
        };

  const paths: Path[] = [];
  for (const node of sources) {
    const found = shortestPaths({
      source: toEnd ? node.id : endId,
      target: toEnd ? endId : node.id,
      neighbors,
      weight: weightOf,
      maxPaths: MAX_PATHS,
    });
    for (const p of found) {
      const nodes: NodeItem[] = [];
      for (let i = 0; i < p.nodes.length; i++) {
        const id = p.nodes[i]!;
        const rec = reads.node(id);
        if (rec === undefined) throw new Error(`path names missing node ${id}`);
        nodes.push(rec);
      }
      paths.push([nodes, p.edges.map(loadEdge)]);
    }
  }
  return paths;
}
