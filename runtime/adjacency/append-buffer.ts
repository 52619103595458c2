// Adjacency appends of one write transaction, held until the transaction's end (or until
// something reads a list) and then written one list at a time. Reading and rewriting an edge's
// two lists' tails on the spot would cost k tail rewrites for k edges of one list (each up to
// 1 KB, each dirtying a B-tree page): adjacency was then most of the cost of an edge insert.
// Held here, a list gets all of a transaction's new entries in one rewrite (appendAdjacency),
// and the lists are written in key order, so a bulk load appends to the B-tree in sequence.
//
// Nothing is allocated per entry (an import holds two million): entries are written into one
// growing byte array, each list is a chain through it (`next`), and a list is one slot of typed
// arrays (first and last entry, count), found by node id in a Map per (direction, edge label).
import { ENTRY_BYTES, writeAdjacencyEntry } from "./lists.js";
import { copyBytes } from "../store/id-bytes.js";
import type { AdjacencyDbs } from "./pending-in.js";
import { appendAdjacency } from "./list-writes.js";
import type { LastKey } from "../store/append-put.js";
import { deferInEntries } from "./pending-in-writes.js";

type Direction = "out" | "in";

/** The lists of one direction and edge label: node id → list slot. */
interface Group {
  readonly direction: Direction;
  readonly edgeLabel: string;
  readonly lists: Map<string, number>;
}

const INITIAL_ENTRIES = 256;
const INITIAL_LISTS = 64;

export class AdjacencyBuffer {
  private readonly groups = { out: new Map<string, Group>(), in: new Map<string, Group>() };
  /** Every pending entry, ENTRY_BYTES each, in the order added. */
  private entries = new Uint8Array(INITIAL_ENTRIES * ENTRY_BYTES);
  /** Per entry: the next entry of its list, -1 at its end. */
  private next = new Int32Array(INITIAL_ENTRIES);
  private entryCount = 0;
  /** Per list slot: its first and last entry and how many it has. */
  private first = new Int32Array(INITIAL_LISTS);
  private last = new Int32Array(INITIAL_LISTS);
  private length = new Int32Array(INITIAL_LISTS);
  private listCount = 0;

  /**
   * Holds the entry (edgeId, otherId) for the list (direction, nodeId, edgeLabel); true when the
   * list had none pending yet.
   */
  add(direction: Direction, nodeId: string, edgeLabel: string, edgeId: string, otherId: string): boolean {
    const e = this.entryCount;
    if (e === this.next.length) this.growEntries();
    writeAdjacencyEntry(this.entries, e * ENTRY_BYTES, edgeId, otherId);
    this.next[e] = -1;
    this.entryCount = e + 1;
    const lists = this.group(direction, edgeLabel).lists;
    const slot = lists.get(nodeId);
    if (slot !== undefined) {
      this.next[this.last[slot]!] = e;
      this.last[slot] = e;
      this.length[slot]!++;
      return false;
    }
    const s = this.listCount;
    if (s === this.first.length) this.growLists();
    this.first[s] = e;
    this.last[s] = e;
    this.length[s] = 1;
    this.listCount = s + 1;
    lists.set(nodeId, s);
    return true;
  }

  /** Lists with entries pending. */
  get size(): number {
    return this.listCount;
  }

  /**
   * Writes every pending list (must run inside the write transaction) and forgets them. `deferIn`:
   * incoming entries go to the pending database (adjacency/pending-in.ts) instead of their lists, as
   * a query's write does; a bulk load (which folded the pending entries first) appends them.
   * Returns the number of entries deferred.
   */
  flush(dbs: AdjacencyDbs, deferIn: boolean): number {
    if (this.listCount === 0) return 0;
    let deferred = 0;
    // Key order ([nodeId, edgeLabel], compared as ordered-binary compares ASCII strings): the
    // B-tree is written front to back instead of at random places. "in" sorts before "out".
    for (const direction of ["in", "out"] as const) {
      const byLabel = this.groups[direction];
      if (byLabel.size === 0) continue;
      const lists: { nodeId: string; edgeLabel: string; slot: number }[] = [];
      for (const group of byLabel.values())
        for (const [nodeId, slot] of group.lists) lists.push({ nodeId, edgeLabel: group.edgeLabel, slot });
      lists.sort((a, b) =>
        a.nodeId < b.nodeId ? -1 : a.nodeId > b.nodeId ? 1 : a.edgeLabel < b.edgeLabel ? -1 : a.edgeLabel > b.edgeLabel ? 1 : 0,
      );
      let scratch = new Uint8Array(0);
      const last: LastKey = { key: null };
      for (const { nodeId, edgeLabel, slot } of lists) {
        const bytes = this.length[slot]! * ENTRY_BYTES;
        if (scratch.length < bytes) scratch = new Uint8Array(Math.max(bytes, scratch.length * 2));
        let at = 0;
        for (let e = this.first[slot]!; e >= 0; e = this.next[e]!) {
          copyBytes(this.entries, e * ENTRY_BYTES, scratch, at, ENTRY_BYTES);
          at += ENTRY_BYTES;
        }
        if (direction === "in" && deferIn) {
          deferInEntries(dbs, nodeId, edgeLabel, scratch.subarray(0, bytes));
          deferred += this.length[slot]!;
        } else appendAdjacency(dbs[direction], nodeId, edgeLabel, scratch.subarray(0, bytes), last);
      }
    }
    this.clear();
    return deferred;
  }

  private clear(): void {
    this.groups.out.clear();
    this.groups.in.clear();
    this.entryCount = 0;
    this.listCount = 0;
    // A large load's arrays are let go; a query's small ones are kept for its next flush.
    if (this.next.length > 1 << 16) {
      this.entries = new Uint8Array(INITIAL_ENTRIES * ENTRY_BYTES);
      this.next = new Int32Array(INITIAL_ENTRIES);
      this.first = new Int32Array(INITIAL_LISTS);
      this.last = new Int32Array(INITIAL_LISTS);
      this.length = new Int32Array(INITIAL_LISTS);
    }
  }

  private group(direction: Direction, edgeLabel: string): Group {
    const byLabel = this.groups[direction];
    let group = byLabel.get(edgeLabel);
    if (group === undefined) {
      group = { direction, edgeLabel, lists: new Map() };
      byLabel.set(edgeLabel, group);
    }
    return group;
  }

  private growEntries(): void {
    const size = this.next.length * 2;
    const entries = new Uint8Array(size * ENTRY_BYTES);
    entries.set(this.entries);
    this.entries = entries;
    const next = new Int32Array(size);
    next.set(this.next);
    this.next = next;
  }

  private growLists(): void {
    const size = this.first.length * 2;
    for (const name of ["first", "last", "length"] as const) {
      const grown = new Int32Array(size);
      grown.set(this[name]);
      this[name] = grown;
    }
  }
}
