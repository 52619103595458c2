// The adjacency entries of a bulk load (bulk-loader.ts), held until its end and then written one
// list at a time in key order. What adjacency-buffer.ts does for a query's write, shaped for a
// million edges: ids arrive as the four 32-bit words of their UUID (loaded-ids.ts) and stay
// numbers, so nothing is allocated per entry or per list (no id text, no Map key, no read-cache
// key: a load marks the whole read cache instead, read-cache.ts), and entries live in fixed
// pages that are never copied as they grow. At the end the lists are sorted by key and written
// front to back; a list whose key sorts after every key the database had is new, so it is
// written with MDB_APPEND (pages left full) and without reading a tail first; any other list
// goes through appendAdjacency, which extends its tail.
//
// The layout (store/adjacency.ts): a list's keys start with its node's 16 id bytes, then the
// edge label's UTF-8 (then, for a full chunk, 0x00 and its number); an entry is the edge id's 16
// bytes and the other node's 16 bytes. The keys are built from per-label templates made by
// listKey/chunkKey, with the node's bytes written over their first 16 bytes.
import { CHUNK_BYTES, ENTRY_BYTES, chunkKey, listKey, tailValue, type AdjacencyDb } from "../store/adjacency.js";
import { ID_BYTES, readIdBytes } from "../store/id-bytes.js";
import { APPEND, appendAdjacency, compareBytes, lastKeyOf } from "./adjacency-writes.js";
import { writeUuidWords } from "./loaded-ids.js";

type Direction = "out" | "in";

/** Words of one entry (edge id, other node id) and of one list's node. */
const ENTRY_WORDS = 8;
const PAGE_SHIFT = 16;
const PAGE_ENTRIES = 1 << PAGE_SHIFT;
const NIL = "00000000-0000-0000-0000-000000000000";

/** One (direction, edge label): its lists' key templates and its rank among its direction's labels. */
interface Group {
  readonly direction: Direction;
  readonly label: string;
  readonly tailKey: Uint8Array;
  /** Byte order of the labels of one direction, for sorting lists of one node. */
  rank: number;
}

export class BulkAdjacency {
  private readonly groups: Group[] = [];
  private readonly groupOf = { out: new Map<string, number>(), in: new Map<string, number>() };
  /** Entry pages: ENTRY_WORDS words per entry; and per entry, the next entry of its list (-1: none). */
  private readonly pages: Int32Array[] = [];
  private readonly nextPages: Int32Array[] = [];
  private entryCount = 0;
  /** Per list: its node's words (4), group, first and last entry, entry count. */
  private listNode = new Int32Array(4 * 1024);
  private listGroup = new Int32Array(1024);
  private first = new Int32Array(1024);
  private last = new Int32Array(1024);
  private length = new Int32Array(1024);
  private listCount = 0;
  /** Open addressing table (node words, group) → list + 1 (0: empty slot), at most half full. */
  private table = new Int32Array(1 << 12);
  private mask = (1 << 12) - 1;

  /** Entries held. */
  get size(): number {
    return this.entryCount;
  }

  /** The group number of (direction, edge label), made on first use. */
  group(direction: Direction, label: string): number {
    let g = this.groupOf[direction].get(label);
    if (g === undefined) {
      g = this.groups.length;
      this.groups.push({ direction, label, tailKey: listKey(NIL, label), rank: 0 });
      this.groupOf[direction].set(label, g);
    }
    return g;
  }

  /**
   * Holds the entry (edge, other) for the list of `group` at `node`: each id given as the words
   * w[at, at + 4) (uuidWords of loaded-ids.ts). Entries of one list keep the order they came in.
   */
  add(group: number, w: Int32Array, node: number, edge: number, other: number): void {
    const list = this.listFor(group, w, node);
    const e = this.entryCount++;
    const p = e >>> PAGE_SHIFT;
    if (p === this.pages.length) {
      this.pages.push(new Int32Array(PAGE_ENTRIES * ENTRY_WORDS));
      this.nextPages.push(new Int32Array(PAGE_ENTRIES));
    }
    const page = this.pages[p]!;
    const at = (e & (PAGE_ENTRIES - 1)) * ENTRY_WORDS;
    for (let i = 0; i < 4; i++) {
      page[at + i] = w[edge + i]!;
      page[at + 4 + i] = w[other + i]!;
    }
    this.nextPages[p]![e & (PAGE_ENTRIES - 1)] = -1;
    if (this.length[list] === 0) this.first[list] = e;
    else {
      const prev = this.last[list]!;
      this.nextPages[prev >>> PAGE_SHIFT]![prev & (PAGE_ENTRIES - 1)] = e;
    }
    this.last[list] = e;
    this.length[list]!++;
  }

  /** Writes every list (inside the load's write transaction) and forgets them. */
  flush(dbs: { readonly out: AdjacencyDb; readonly in: AdjacencyDb }): void {
    for (const direction of ["in", "out"] as const) {
      const lists: number[] = [];
      for (let l = 0; l < this.listCount; l++) if (this.groups[this.listGroup[l]!]!.direction === direction) lists.push(l);
      if (lists.length > 0) this.writeLists(dbs[direction], direction, lists);
    }
    this.pages.length = 0;
    this.nextPages.length = 0;
    this.entryCount = 0;
    this.listCount = 0;
    this.table.fill(0);
  }

  private writeLists(db: AdjacencyDb, direction: Direction, lists: number[]): void {
    this.rankLabels(direction);
    const node = this.listNode;
    const groups = this.groups;
    const group = this.listGroup;
    // Key order: the node's bytes (its words, compared unsigned), then the label's bytes.
    lists.sort((a, b) => {
      for (let i = 0; i < 4; i++) {
        const x = node[a * 4 + i]! >>> 0;
        const y = node[b * 4 + i]! >>> 0;
        if (x !== y) return x < y ? -1 : 1;
      }
      return groups[group[a]!]!.rank - groups[group[b]!]!.rank;
    });
    // Lists whose key sorts after every key the database had are new (none of their keys can exist).
    const lastBefore = lastKeyOf(db);
    let entries = new Uint8Array(64 * ENTRY_BYTES);
    for (const list of lists) {
      const bytes = this.length[list]! * ENTRY_BYTES;
      if (entries.length < bytes) entries = new Uint8Array(Math.max(bytes, entries.length * 2));
      this.entryBytes(list, entries);
      const g = groups[group[list]!]!;
      const key = g.tailKey.slice();
      writeUuidWords(key, 0, node, list * 4);
      const view = entries.subarray(0, bytes);
      if (compareBytes(key, lastBefore) > 0) this.writeNew(db, g, key, view);
      else appendAdjacency(db, readIdBytes(key, 0), g.label, view);
    }
  }

  /** A list with no keys yet, whose keys sort after all others: its tail, then its full chunks. */
  private writeNew(db: AdjacencyDb, g: Group, key: Uint8Array, entries: Uint8Array): void {
    // A refused append (a chunk of a list written just before sorts after this key) writes nothing: then a plain put.
    const put = (k: Uint8Array, value: Uint8Array): void => {
      // lmdb's typings say void; it returns false when LMDB refuses the append.
      if (!(db.putSync(k, value, APPEND) as unknown as boolean)) db.putSync(k, value);
    };
    const sealed = Math.floor(entries.length / CHUNK_BYTES);
    put(key, tailValue(sealed, entries.subarray(sealed * CHUNK_BYTES)));
    if (sealed === 0) return;
    const nodeId = readIdBytes(key, 0);
    for (let i = 0; i < sealed; i++) put(chunkKey(nodeId, g.label, i), entries.subarray(i * CHUNK_BYTES, (i + 1) * CHUNK_BYTES));
  }

  /** The list's entries as stored (edge id bytes, other node bytes), oldest first, into `out`. */
  private entryBytes(list: number, out: Uint8Array): void {
    let at = 0;
    for (let e = this.first[list]!; e >= 0; ) {
      const p = e >>> PAGE_SHIFT;
      const i = e & (PAGE_ENTRIES - 1);
      const page = this.pages[p]!;
      writeUuidWords(out, at, page, i * ENTRY_WORDS);
      writeUuidWords(out, at + ID_BYTES, page, i * ENTRY_WORDS + 4);
      at += ENTRY_BYTES;
      e = this.nextPages[p]![i]!;
    }
  }

  /** Ranks the labels of one direction by their UTF-8 bytes (the order of their keys). */
  private rankLabels(direction: Direction): void {
    const mine = this.groups.filter((g) => g.direction === direction);
    const labelBytes = (g: Group) => g.tailKey.subarray(ID_BYTES);
    mine.sort((a, b) => compareBytes(labelBytes(a), labelBytes(b)));
    mine.forEach((g, rank) => {
      g.rank = rank;
    });
  }

  /** The list of (group, node words w[at, at + 4)), made on first use. */
  private listFor(group: number, w: Int32Array, at: number): number {
    const a = w[at]!;
    const b = w[at + 1]!;
    const c = w[at + 2]!;
    const d = w[at + 3]!;
    let slot = this.slotOf(a, b, c, d, group);
    const found = this.table[slot]!;
    if (found !== 0) return found - 1;
    const list = this.listCount++;
    if (list === this.listGroup.length) this.growLists();
    const n = this.listNode;
    n[list * 4] = a;
    n[list * 4 + 1] = b;
    n[list * 4 + 2] = c;
    n[list * 4 + 3] = d;
    this.listGroup[list] = group;
    this.length[list] = 0;
    if ((list + 1) * 2 > this.table.length) {
      this.growTable();
      slot = this.slotOf(a, b, c, d, group);
    }
    this.table[slot] = list + 1;
    return list;
  }

  /** The slot holding the list of these words and group, or the empty slot where it would go. */
  private slotOf(a: number, b: number, c: number, d: number, group: number): number {
    // The last words are a UUID's random bits (v7 leads with a timestamp): hash those.
    let h = Math.imul(d ^ Math.imul(c, 0x9e3779b1), 0x85ebca6b) ^ Math.imul(b ^ group, 0xc2b2ae35);
    h ^= h >>> 15;
    const n = this.listNode;
    for (let slot = h & this.mask; ; slot = (slot + 1) & this.mask) {
      const found = this.table[slot]!;
      if (found === 0) return slot;
      const l = found - 1;
      if (n[l * 4] === a && n[l * 4 + 1] === b && n[l * 4 + 2] === c && n[l * 4 + 3] === d && this.listGroup[l] === group) return slot;
    }
  }

  private growTable(): void {
    this.table = new Int32Array(this.table.length * 2);
    this.mask = this.table.length - 1;
    const n = this.listNode;
    for (let l = 0; l < this.listCount - 1; l++) {
      const slot = this.slotOf(n[l * 4]!, n[l * 4 + 1]!, n[l * 4 + 2]!, n[l * 4 + 3]!, this.listGroup[l]!);
      this.table[slot] = l + 1;
    }
  }

  private growLists(): void {
    const size = this.listGroup.length * 2;
    const grow = (from: Int32Array, factor: number) => {
      const to = new Int32Array(size * factor);
      to.set(from);
      return to;
    };
    this.listNode = grow(this.listNode, 4);
    this.listGroup = grow(this.listGroup, 1);
    this.first = grow(this.first, 1);
    this.last = grow(this.last, 1);
    this.length = grow(this.length, 1);
  }
}
