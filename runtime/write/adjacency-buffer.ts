// Adjacency appends of one write transaction, held until the transaction's end (or until
// something reads a list) and then written one list at a time. Appending an edge used to read and
// rewrite its two lists' tails on the spot: k edges of one list cost k tail rewrites (each up to
// 2.3 KB, each dirtying a B-tree page), which made adjacency most of the cost of an edge insert.
// Held here, a list gets all of a transaction's new entries in one rewrite (appendAdjacency),
// and the lists are written in key order, so a bulk load appends to the B-tree in sequence.
import { joinEntries, type AdjacencyDb } from "../store/adjacency.js";
import { appendAdjacency } from "./adjacency-writes.js";

interface PendingList {
  readonly direction: "out" | "in";
  readonly nodeId: string;
  readonly edgeLabel: string;
  /** New 32-byte entries in creation order (joined once, at the flush). */
  readonly parts: Uint8Array[];
}

export class AdjacencyBuffer {
  /**
   * Pending lists by direction and edge label, then by node id: keyed by the id string as given,
   * so holding an entry builds no key string (an import holds millions; the list's cache key is
   * built by the caller only when a list is new).
   */
  private readonly groups = { out: new Map<string, Map<string, PendingList>>(), in: new Map<string, Map<string, PendingList>>() };
  private count = 0;

  /** Holds one entry for the list (direction, nodeId, edgeLabel); true when the list had none pending yet. */
  add(direction: "out" | "in", nodeId: string, edgeLabel: string, entry: Uint8Array): boolean {
    const byLabel = this.groups[direction];
    let group = byLabel.get(edgeLabel);
    if (group === undefined) {
      group = new Map();
      byLabel.set(edgeLabel, group);
    }
    const list = group.get(nodeId);
    if (list !== undefined) {
      list.parts.push(entry);
      return false;
    }
    group.set(nodeId, { direction, nodeId, edgeLabel, parts: [entry] });
    this.count++;
    return true;
  }

  get size(): number {
    return this.count;
  }

  /** Writes every pending list (must run inside the write transaction) and forgets them. */
  flush(dbs: { readonly out: AdjacencyDb; readonly in: AdjacencyDb }): void {
    if (this.count === 0) return;
    const lists: PendingList[] = [];
    for (const byLabel of [this.groups.out, this.groups.in]) {
      for (const group of byLabel.values()) for (const list of group.values()) lists.push(list);
      byLabel.clear();
    }
    this.count = 0;
    // Key order ([nodeId, edgeLabel], compared as ordered-binary compares ASCII strings): the
    // B-tree is written front to back instead of at random places.
    lists.sort((a, b) =>
      a.direction !== b.direction
        ? a.direction < b.direction
          ? -1
          : 1
        : a.nodeId < b.nodeId
          ? -1
          : a.nodeId > b.nodeId
            ? 1
            : a.edgeLabel < b.edgeLabel
              ? -1
              : a.edgeLabel > b.edgeLabel
                ? 1
                : 0,
    );
    for (const list of lists) appendAdjacency(dbs[list.direction], list.nodeId, list.edgeLabel, joinEntries(list.parts));
  }
}
