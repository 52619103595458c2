// QueryContext.shortestPath: finds the fixed endpoint (a node of the edge type's end type, or of
// any type when the path may take any edge), then walks with path-step.ts.
import { StrandError } from "../../core/errors.js";
import type { NodeItem, Path } from "../../core/items.js";
import type { PathEndpoint, WeightFn } from "../../core/query-context.js";
import { notFound, plausibleId } from "../store/ids.js";
import type { SchemaInfo } from "../store/schema-info.js";
import { anyEdgeReads, type PathGraph, shortestPathStep, typedReads } from "./path-step.js";

export interface PathLookups {
  graph: PathGraph;
  schema: SchemaInfo;
  hasNode(label: string, id: string): boolean;
}

export function shortestPathsFrom(
  lookups: PathLookups,
  sources: readonly NodeItem[],
  edgeLabel: string | readonly string[] | null,
  endpoint: PathEndpoint,
  weight: WeightFn | null,
): Path[] {
  const { graph, schema, hasNode } = lookups;
  const isTo = "to" in endpoint;
  const endId = isTo ? endpoint.to : endpoint.from;
  if (typeof edgeLabel !== "string") {
    // Over edges of any type the fixed endpoint may be a node or a vector of any type.
    const endLabel = plausibleId(endId) ? schema.nodeLabels().find((l) => hasNode(l, endId)) : undefined;
    if (endLabel === undefined)
      throw new StrandError("NOT_FOUND", `node with id '${String(endId)}' not found (no node or vector of any type has it)`);
    const labels = new Map(sources.map((s) => [s.id, s.label]));
    labels.set(endId, endLabel);
    const types = edgeLabel === null ? [...schema.edges.values()] : edgeLabel.map((l) => schema.edge(l));
    return shortestPathStep(anyEdgeReads(graph, types, labels), sources, endId, isTo, weight);
  }
  const info = schema.edge(edgeLabel);
  // The fixed endpoint is a path's last node (::To) or first node (::From).
  const endLabel = isTo ? info.to : info.from;
  if (!plausibleId(endId) || !hasNode(endLabel, endId)) throw notFound("N", endLabel, endId);
  return shortestPathStep(typedReads(graph, info), sources, endId, isTo, weight);
}
