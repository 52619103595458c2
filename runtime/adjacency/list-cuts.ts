// The adjacency entries a DROP cuts out of lists that stay, gathered over the whole DROP so that a
// list loses all of them in one rewrite (1000 leaves of one hub: one rewrite of the hub's list,
// not 1000). Lists the DROP deletes whole (a dropped node's own) are taken out again.
import type { StoreDbs } from "../store/dbs.js";
import { adjacencyKey } from "../store/read-cache.js";
import { removeAdjacency } from "./list-writes.js";
import { removeInEntries } from "./pending-in-writes.js";

interface Cut {
  direction: "out" | "in";
  nodeId: string;
  edgeLabel: string;
  edgeIds: Set<string>;
}

export class ListCuts {
  /** By the list's read-cache key. */
  private readonly cuts = new Map<string, Cut>();

  add(direction: "out" | "in", nodeId: string, edgeLabel: string, edgeId: string): void {
    const key = adjacencyKey(direction, nodeId, edgeLabel);
    const cut = this.cuts.get(key);
    if (cut !== undefined) cut.edgeIds.add(edgeId);
    else this.cuts.set(key, { direction, nodeId, edgeLabel, edgeIds: new Set([edgeId]) });
  }

  /** The list (by its read-cache key) is deleted whole: nothing to cut from it. */
  wholeList(key: string): void {
    this.cuts.delete(key);
  }

  /** Cuts every gathered entry, each list once; `changing` hears each list's key first. Inside the write transaction. */
  apply(dbs: StoreDbs, changing: (key: string) => void): void {
    for (const [key, cut] of this.cuts) {
      changing(key);
      if (cut.direction === "out") removeAdjacency(dbs.out, cut.nodeId, cut.edgeLabel, cut.edgeIds);
      else removeInEntries(dbs, cut.nodeId, cut.edgeLabel, cut.edgeIds);
    }
  }
}
