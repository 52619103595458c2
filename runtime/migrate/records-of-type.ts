// The stored records of one type, for the open's migrations. Edges come in both forms
// (records/edge-records.ts) and are read into a list first: rewriting one can move it between
// `edges` and `edge_ends`, which a live range over both would then meet again.
import type { NodeItem } from "../../core/items.js";
import type { StoreDbs } from "../store/dbs.js";
import { edgesOfLabel } from "../records/edge-records.js";
import { labelRange } from "../store/keys.js";

export function recordsOfType(dbs: StoreDbs, kind: "N" | "E" | "V", type: string): Iterable<NodeItem> {
  if (kind === "E") return [...edgesOfLabel(dbs, type, undefined)];
  return mapValues(dbs.nodes.getRange(labelRange(type)));
}

function* mapValues(range: Iterable<{ value: NodeItem }>): Generator<NodeItem> {
  for (const { value } of range) yield value;
}
