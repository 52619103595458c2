// COUNT and EXISTS of a chain of graph steps (`x::Out<A>::InE<B>::COUNT`, `EXISTS(_::Out<A>)`,
// and so degree filters like `WHERE(_::Out<A>::COUNT::GT(3))`) compile to one
// QueryContext.countAdjacent call, which reads adjacency lists and never the records the
// traversal would return (runtime/ops/adjacency-paths.ts). Any other step in the chain (WHERE,
// Dedup, RANGE, ...) needs the records, and the chain is emitted as a traversal.
import type { Ir } from "../ir/ir.js";

export interface AdjacencyChain {
  /** the items the first step starts from */
  base: Ir;
  /** each hop, first to last: ["out" | "in", edge type] */
  steps: Array<readonly ["out" | "in", string]>;
}

/**
 * The chain `ir` is, or null. Steps are Out/In/OutE/InE; OutE may be followed by ToN (that walks
 * as Out does) and InE by FromN; an edge step may also end the chain (each edge counts once).
 */
export function adjacencyChain(ir: Ir): AdjacencyChain | null {
  const steps: Array<readonly ["out" | "in", string]> = [];
  let end: "toN" | "fromN" | null = null; // an endpoint step waiting for the edge step it follows
  let cur = ir;
  for (;;) {
    if (cur.op === "endpoint" && end === null) {
      end = cur.end;
      cur = cur.input;
    } else if (cur.op === "adjacent") {
      const overEdges = cur.direction === "outE" || cur.direction === "inE";
      if (end !== null) {
        // OutE::FromN (InE::ToN) leads back to the node it left: one item per edge, but not a hop.
        if (end !== (cur.direction === "outE" ? "toN" : cur.direction === "inE" ? "fromN" : null)) return null;
        end = null;
      } else if (overEdges && steps.length > 0) return null;
      steps.unshift([cur.direction === "out" || cur.direction === "outE" ? "out" : "in", cur.label]);
      cur = cur.input;
    } else break;
  }
  return end === null && steps.length > 0 ? { base: cur, steps } : null;
}

/** The module constant holding the steps (`$steps0`), declared once per distinct list. */
export function stepsConstant(steps: AdjacencyChain["steps"], constants: Map<string, string>): string {
  const init = `[${steps.map(([direction, label]) => `[${JSON.stringify(direction)}, ${JSON.stringify(label)}]`).join(", ")}] as const`;
  let name = constants.get(init);
  if (name === undefined) {
    name = `$steps${constants.size}`;
    constants.set(init, name);
  }
  return name;
}
