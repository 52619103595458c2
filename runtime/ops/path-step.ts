// `ShortestPath` as a query step: the id paths of paths.ts (BFS or Dijkstra over one edge type),
// with weights checked and ids resolved to records through the caller's reads.
import { StrandError } from "../../core/errors.js";
import type { EdgeItem, NodeItem, Path } from "../../core/items.js";
import type { WeightFn } from "../../core/query-context.js";
import { describeValue } from "../../core/values.js";
import { shortestPaths, type PathNeighbor } from "./paths.js";

/** At most this many equally short paths per source (QueryContext.shortestPath contract). */
const MAX_PATHS = 16;

/** What the step reads, in the caller's transaction; all of one edge type. */
export interface PathReads {
  /** The edge type, and its From and To node types. */
  readonly edgeLabel: string;
  readonly from: string;
  readonly to: string;
  /** The node's outgoing edges of the type and the node each goes to, in creation order. */
  outgoing(nodeId: string): { readonly edgeIds: readonly string[]; readonly otherIds: readonly string[] };
  edge(id: string): EdgeItem | undefined;
  node(label: string, id: string): NodeItem | undefined;
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
      if (e === undefined) throw new Error(`adjacency names missing edge ${reads.edgeLabel}/${id}`);
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
        const label = i === 0 ? (toEnd ? node.label : reads.from) : reads.to;
        const rec = reads.node(label, id);
        if (rec === undefined) throw new Error(`path names missing node ${label}/${id}`);
        nodes.push(rec);
      }
      paths.push([nodes, p.edges.map(loadEdge)]);
    }
  }
  return paths;
}
