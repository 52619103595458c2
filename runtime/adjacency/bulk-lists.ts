// The adjacency entries of a bulk load (load/bulk-loader.ts), held until its end and then written one
// list at a time in key order. What append-buffer.ts does for a query's write, shaped for a
// million edges: ids arrive as the four 32-bit words of their UUID (load/loaded-ids.ts) and stay
// numbers, so nothing is allocated per entry or per list (no id text, no Map key, no read-cache
// key: a load marks the whole read cache instead, read-cache.ts). Entries are kept in the order
// they came, each with its list's number, in fixed pages that are never copied as they grow; a
// list is a slot of typed arrays found through an open addressing table. At the end the lists
// are sorted by key, each list's entries are placed together in one byte array (a counting
// sort: one pass, input order kept within a list) and the lists written front to back. A list
// whose key sorts after every key the database had is new, so it is written with MDB_APPEND
// (pages left full) and without reading a tail first; any other goes through appendAdjacency,
// which extends its tail.
//
// The layout (adjacency/lists.ts): a list's keys start with its node's 16 id bytes, then the
// edge label's UTF-8 (then, for a full chunk, 0x00 and its number); an entry is the edge id's 16
// bytes and the other node's 16 bytes. The keys are built from per-label templates made by
// listKey/chunkKey, with the node's bytes written over their first 16 bytes.
import { silentProgress, type ProgressSink } from "../../core/progress.js";
import { CHUNK_BYTES, ENTRY_BYTES, chunkKey, listKey, tailValue, type AdjacencyDb } from "./lists.js";
import { ID_BYTES, readIdBytes } from "../store/id-bytes.js";
import { appendAdjacency } from "./list-writes.js";
import { APPEND, compareBytes, lastKeyOf } from "../store/append-put.js";
import { writeUuidWords } from "../store/id-words.js";

type Direction = "out" | "in";

/** Words of one entry: the edge id's, then the other node's (uuidWords). */
const ENTRY_WORDS = 8;
const PAGE_SHIFT = 16;
const PAGE_ENTRIES = 1 << PAGE_SHIFT;
const NIL = "00000000-0000-0000-0000-000000000000";
/** Bytes of lists placed at once at most, by default (a list larger than that is placed alone). */
const BATCH_BYTES = 1 << 28;
/** What one placed batch can hold: offsets are 32-bit. */
const MAX_PLACED_BYTES = 2 ** 31 - 1;

/** The tail value of a list with no full chunk and no entries: the header its entries follow. */
const EMPTY_TAIL = tailValue(0, new Uint8Array(0));

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
  /** Entry pages: each entry's list, and its ENTRY_WORDS words. */
  private readonly listPages: Int32Array[] = [];
  private readonly wordPages: Int32Array[] = [];
  private entryCount = 0;
  /** Per list: its node's words (4), group, entry count. */
  private listNode = new Int32Array(4 * 1024);
  private listGroup = new Int32Array(1024);
  private length = new Int32Array(1024);
  private listCount = 0;
  /** Open addressing table (node words, group) → list + 1 (0: empty slot), at most half full. */
  private table = new Int32Array(1 << 12);
  private mask = (1 << 12) - 1;

  /** @param batchBytes lists placed at once at most (tests pass a small one) */
  constructor(private readonly batchBytes = BATCH_BYTES) {}

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
   * w[at, at + 4) (uuidWords of load/loaded-ids.ts). Entries of one list keep the order they came in.
   */
  add(group: number, w: Int32Array, node: number, edge: number, other: number): void {
    const list = this.listFor(group, w, node);
    const e = this.entryCount++;
    const p = e >>> PAGE_SHIFT;
    if (p === this.listPages.length) {
      this.listPages.push(new Int32Array(PAGE_ENTRIES));
      this.wordPages.push(new Int32Array(PAGE_ENTRIES * ENTRY_WORDS));
    }
    const i = e & (PAGE_ENTRIES - 1);
    this.listPages[p]![i] = list;
    const page = this.wordPages[p]!;
    const at = i * ENTRY_WORDS;
    for (let k = 0; k < 4; k++) {
      page[at + k] = w[edge + k]!;
      page[at + 4 + k] = w[other + k]!;
    }
    this.length[list]!++;
  }

  /** Writes every list (inside the load's write transaction) and forgets them. */
  flush(dbs: { readonly out: AdjacencyDb; readonly in: AdjacencyDb }, progress: ProgressSink = silentProgress): void {
    if (this.listCount > 0) {
      const task = progress.start("adjacency lists", "lists", this.listCount);
      const lists = this.sortedLists();
      // Lists whose key sorts after every key its database had are new (none of their keys can exist).
      const lastBefore = { in: lastKeyOf(dbs.in), out: lastKeyOf(dbs.out) };
      // Batches of whole lists, each placed and written before the next (memory is one batch).
      for (let first = 0; first < lists.length; ) {
        let end = first;
        let bytes = 0;
        while (end < lists.length && (end === first || bytes + this.placedBytes(lists[end]!) <= this.batchBytes)) {
          bytes += this.placedBytes(lists[end]!);
          end++;
        }
        if (bytes > MAX_PLACED_BYTES)
          throw new Error(`bulk load: one adjacency list of ${this.length[lists[first]!]} new entries is more than one load can hold`);
        const batch = lists.subarray(first, end);
        const at = this.placeEntries(batch, bytes, end === lists.length);
        for (const list of batch) this.writeList(dbs, list, at.bytes, at.start, lastBefore);
        task.advance(batch.length);
        first = end;
      }
      task.finish();
    }
    this.listPages.length = 0;
    this.wordPages.length = 0;
    this.entryCount = 0;
    this.listCount = 0;
    this.table.fill(0);
  }

  /** Every list, by direction, then in key order. */
  private sortedLists(): Int32Array {
    this.rankLabels();
    const node = this.listNode;
    const groups = this.groups;
    const group = this.listGroup;
    const lists = new Int32Array(this.listCount);
    for (let l = 0; l < lists.length; l++) lists[l] = l;
    // By direction, then the node's bytes (its words, compared unsigned), then the label's bytes.
    return lists.sort((a, b) => {
      const ga = groups[group[a]!]!;
      const gb = groups[group[b]!]!;
      if (ga.direction !== gb.direction) return ga.direction < gb.direction ? -1 : 1;
      for (let i = 0; i < 4; i++) {
        const x = node[a * 4 + i]! >>> 0;
        const y = node[b * 4 + i]! >>> 0;
        if (x !== y) return x < y ? -1 : 1;
      }
      return ga.rank - gb.rank;
    });
  }

  /** The bytes a list takes when placed: room for its tail's header, then its entries. */
  private placedBytes(list: number): number {
    return EMPTY_TAIL.length + this.length[list]! * ENTRY_BYTES;
  }

  /**
   * The entries of the lists of `batch` (`total` bytes placed) as stored (edge id bytes, other
   * node bytes), each list's together in input order, each after EMPTY_TAIL's length of room (for
   * its tail's header): `start[list]` is where its first entry is (-1: not in the batch). One
   * pass over every entry; with `last`, the pages are let go as they are read.
   */
  private placeEntries(batch: Int32Array, total: number, last: boolean): { bytes: Uint8Array; start: Int32Array } {
    const start = new Int32Array(this.listCount).fill(-1);
    let at = 0;
    for (const list of batch) {
      start[list] = at + EMPTY_TAIL.length;
      at += this.placedBytes(list);
    }
    const bytes = new Uint8Array(total);
    const next = start.slice();
    for (let p = 0; p * PAGE_ENTRIES < this.entryCount; p++) {
      const listPage = this.listPages[p]!;
      const page = this.wordPages[p]!;
      const n = Math.min(PAGE_ENTRIES, this.entryCount - p * PAGE_ENTRIES);
      for (let i = 0; i < n; i++) {
        const list = listPage[i]!;
        const to = next[list]!;
        if (to < 0) continue;
        writeUuidWords(bytes, to, page, i * ENTRY_WORDS);
        writeUuidWords(bytes, to + ID_BYTES, page, i * ENTRY_WORDS + 4);
        next[list] = to + ENTRY_BYTES;
      }
      if (last) {
        this.listPages[p] = EMPTY_PAGE;
        this.wordPages[p] = EMPTY_PAGE;
      }
    }
    return { bytes, start };
  }

  private writeList(
    dbs: { readonly out: AdjacencyDb; readonly in: AdjacencyDb },
    list: number,
    bytes: Uint8Array,
    start: Int32Array,
    lastBefore: { readonly out: Uint8Array; readonly in: Uint8Array },
  ): void {
    const g = this.groups[this.listGroup[list]!]!;
    const db = dbs[g.direction];
    const key = g.tailKey.slice();
    writeUuidWords(key, 0, this.listNode, list * 4);
    const from = start[list]!;
    const entries = bytes.subarray(from, from + this.length[list]! * ENTRY_BYTES);
    if (compareBytes(key, lastBefore[g.direction]) > 0) writeNew(db, g, key, bytes, from, entries);
    else appendAdjacency(db, readIdBytes(key, 0), g.label, entries);
  }

  /** Ranks the labels of each direction by their UTF-8 bytes (the order of their keys). */
  private rankLabels(): void {
    const labelBytes = (g: Group) => g.tailKey.subarray(ID_BYTES);
    const sorted = [...this.groups].sort((a, b) => compareBytes(labelBytes(a), labelBytes(b)));
    sorted.forEach((g, rank) => {
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
    this.length = grow(this.length, 1);
  }
}

const EMPTY_PAGE = new Int32Array(0);

/**
 * A list with no keys yet, whose keys sort after all others: its tail, then its full chunks.
 * `entries` is bytes[start, ..): a tail without full chunks is written from there, with its
 * header in the room before it (placeEntries), instead of copied into a value of its own.
 */
function writeNew(db: AdjacencyDb, g: Group, key: Uint8Array, bytes: Uint8Array, start: number, entries: Uint8Array): void {
  const put = (k: Uint8Array, value: Uint8Array): void => {
    // lmdb's typings say void; it returns false when LMDB refuses the append (a chunk of a list
    // written just before sorts after this key): then a plain put.
    if (!(db.putSync(k, value, APPEND) as unknown as boolean)) db.putSync(k, value);
  };
  const sealed = Math.floor(entries.length / CHUNK_BYTES);
  if (sealed === 0) {
    const from = start - EMPTY_TAIL.length;
    bytes.set(EMPTY_TAIL, from);
    put(key, bytes.subarray(from, start + entries.length));
    return;
  }
  put(key, tailValue(sealed, entries.subarray(sealed * CHUNK_BYTES)));
  const nodeId = readIdBytes(key, 0);
  for (let i = 0; i < sealed; i++) put(chunkKey(nodeId, g.label, i), entries.subarray(i * CHUNK_BYTES, (i + 1) * CHUNK_BYTES));
}
