// Writing `edge_ends` blocks (records/edge-ends.ts): adding and removing the entry of an edge
// without a record, inside a write transaction. A block keeps its entries sorted by edge id and
// holds at most ENDS_BLOCK; its key always names its first entry.
//
// Pages stay mostly full under appends: new edges' ids (UUID v7) mostly sort after every other
// of their label, so they grow the label's last block, and a full block is followed by a new one
// (not split) when the new entry sorts after all of it; a new block that sorts last in the
// database is an MDB_APPEND.
//
// A label's last block is held in memory while edges are appended to it and written when it is
// full or at flush(): putting it after every edge rewrote a block of up to 512 bytes 16 times
// (a quarter of a bulk import's time, and one commit-log op per edge). Whoever reads `edge_ends`
// inside the transaction flushes first (GraphWriter.flushBuffered), and so does the end of the
// write's callback, before the commit.
import {
  blockAtOrBefore,
  ENDS_BLOCK,
  ENDS_ENTRY,
  type EdgeEndsDb,
  edgeEndsKey,
  type EndsBlock,
  findEntry,
  firstBlock,
  lastBlock,
} from "./edge-ends.js";
import { ID_BYTES, idBytes, writeIdBytes } from "../store/id-bytes.js";
import { compareBytes, type LastKey, putAfterLast } from "../store/append-put.js";
import { writeUuidWords } from "../store/id-words.js";

/** A label's last block as this writer holds it: its first `count` entries are the block. */
interface HeldTail {
  key: Uint8Array;
  /** Room for ENDS_BLOCK entries. */
  entries: Uint8Array;
  count: number;
  /** Entries added since it was last put. */
  unwritten: boolean;
}

/** Does the edge id at byte `at` of `a` sort after the one at byte `bAt` of `b`? (Entries are sorted: a block's last one decides.) */
function idAfter(a: Uint8Array, at: number, b: Uint8Array, bAt: number): boolean {
  for (let i = 0; i < ID_BYTES; i++) {
    const d = a[at + i]! - b[bAt + i]!;
    if (d !== 0) return d > 0;
  }
  return false;
}

function heldTail(key: Uint8Array, entries: Uint8Array, unwritten: boolean): HeldTail {
  const room = new Uint8Array(ENDS_BLOCK * ENDS_ENTRY);
  room.set(entries, 0);
  return { key, entries: room, count: entries.length / ENDS_ENTRY, unwritten };
}

/** `entries` with `entry` inserted as entry number `at`. */
function inserted(entries: Uint8Array, at: number, entry: Uint8Array): Uint8Array {
  const next = new Uint8Array(entries.length + ENDS_ENTRY);
  next.set(entries.subarray(0, at * ENDS_ENTRY), 0);
  next.set(entry, at * ENDS_ENTRY);
  next.set(entries.subarray(at * ENDS_ENTRY), (at + 1) * ENDS_ENTRY);
  return next;
}

/** `entries` without entry number `at`. */
function without(entries: Uint8Array, at: number): Uint8Array {
  const next = new Uint8Array(entries.length - ENDS_ENTRY);
  next.set(entries.subarray(0, at * ENDS_ENTRY), 0);
  next.set(entries.subarray((at + 1) * ENDS_ENTRY), at * ENDS_ENTRY);
  return next;
}

/** The writes of one transaction to `edge_ends`. */
export class EdgeEndsWriter {
  /** The database's last key as this writer last saw it (read once, then kept up to date by its own writes). */
  private readonly last: LastKey = { key: null };
  /**
   * Per label, its last block as this writer holds it (null: the label has none): an edge after
   * all of it is appended there without a seek or a put, as a bulk load's and a FOR loop's edges
   * mostly are. Any other change of the label's blocks flushes and forgets it.
   */
  private readonly tails = new Map<string, HeldTail | null>();

  constructor(private readonly db: EdgeEndsDb) {}

  /** Adds the edge (label, id) without a record, from `from`; an entry already there gets this from node. */
  add(label: string, id: string, from: string): void {
    const entry = new Uint8Array(ENDS_ENTRY);
    writeIdBytes(id, entry, 0);
    writeIdBytes(from, entry, ID_BYTES);
    this.addEntry(label, entry);
  }

  /** add() of an entry already in its stored form (edge id's 16 bytes, from node's 16), as a bulk load has it; the writer copies it. */
  addEntry(label: string, entry: Uint8Array): void {
    const idB = entry.subarray(0, ID_BYTES);
    if (this.appendToTail(label, idB, entry)) return;
    this.forget(label);
    const block = blockAtOrBefore(this.db, label, idB, undefined);
    if (block === null) {
      // Before the label's first block (or it has none): that block takes it, if it has room.
      const first = firstBlock(this.db, label, undefined);
      if (first !== null && first.entries.length < ENDS_BLOCK * ENDS_ENTRY) this.rekey(first, inserted(first.entries, 0, entry));
      else this.put(edgeEndsKey(label, idB), entry.slice());
      return;
    }
    const found = findEntry(block.entries, idB);
    if (found >= 0) {
      const next = block.entries.slice();
      next.set(entry, found * ENDS_ENTRY);
      this.put(block.key, next);
      return;
    }
    const at = -found - 1;
    const count = block.entries.length / ENDS_ENTRY;
    if (count < ENDS_BLOCK) this.put(block.key, inserted(block.entries, at, entry));
    else if (at === count) this.put(edgeEndsKey(label, idB), entry.slice());
    else {
      // A full block split in two halves around the new entry.
      const all = inserted(block.entries, at, entry);
      const half = Math.ceil((count + 1) / 2) * ENDS_ENTRY;
      this.put(block.key, all.slice(0, half));
      this.put(edgeEndsKey(label, all.subarray(half, half + ID_BYTES)), all.slice(half));
    }
  }

  /**
   * addEntry() of the entry whose edge id and from node are the words w[at, at + 8) (uuidWords
   * of load/loaded-ids.ts), as a bulk load has them. When the entry goes at the end of the label's
   * held block (a load's edges mostly do) it is written there in place, with nothing allocated.
   */
  addEntryWords(label: string, w: Int32Array, at: number): void {
    const tail = this.tails.get(label);
    if (tail != null && tail.count < ENDS_BLOCK) {
      const to = tail.count * ENDS_ENTRY;
      const room = tail.entries;
      writeUuidWords(room, to, w, at);
      writeUuidWords(room, to + ID_BYTES, w, at + 4);
      // Past `count` the bytes are not part of the block, so a refusal leaves it as it was.
      if (idAfter(room, to, room, to - ENDS_ENTRY)) {
        tail.count++;
        tail.unwritten = true;
        if (tail.count === ENDS_BLOCK) this.putTail(tail);
        return;
      }
    }
    const entry = new Uint8Array(ENDS_ENTRY);
    writeUuidWords(entry, 0, w, at);
    writeUuidWords(entry, ID_BYTES, w, at + 4);
    this.addEntry(label, entry);
  }

  /** Puts every held block with entries not yet written; the blocks stay held. Call before reading `edge_ends` and before the commit. */
  flush(): void {
    for (const tail of this.tails.values()) if (tail?.unwritten) this.putTail(tail);
  }

  /** Adds the entry after every edge of the label, if it sorts there; false (nothing changed) when not. */
  private appendToTail(label: string, id: Uint8Array, entry: Uint8Array): boolean {
    let tail = this.tails.get(label);
    if (tail === undefined) {
      const stored = lastBlock(this.db, label);
      tail = stored === null ? null : heldTail(stored.key, stored.entries, false);
      this.tails.set(label, tail);
    }
    if (tail === null) {
      this.tails.set(label, heldTail(edgeEndsKey(label, id), entry, true));
      return true;
    }
    if (!idAfter(id, 0, tail.entries, (tail.count - 1) * ENDS_ENTRY)) return false; // not after all of it
    if (tail.count < ENDS_BLOCK) {
      tail.entries.set(entry, tail.count * ENDS_ENTRY);
      tail.count++;
      tail.unwritten = true;
      // A full block will not change again: written now, so flush() has only the last ones left.
      if (tail.count === ENDS_BLOCK) this.putTail(tail);
    } else {
      this.tails.set(label, heldTail(edgeEndsKey(label, id), entry, true));
    }
    return true;
  }

  private putTail(tail: HeldTail): void {
    this.put(tail.key, tail.entries.subarray(0, tail.count * ENDS_ENTRY));
    tail.unwritten = false;
  }

  /** Writes the label's held block if it has unwritten entries and stops holding it (its blocks are about to change otherwise). */
  private forget(label: string): void {
    const tail = this.tails.get(label);
    if (tail?.unwritten) this.putTail(tail);
    this.tails.delete(label);
  }

  /** Removes the entry of the edge (label, id); false when there is none. */
  remove(label: string, id: string): boolean {
    this.forget(label);
    const idB = idBytes(id);
    const block = blockAtOrBefore(this.db, label, idB, undefined);
    if (block === null) return false;
    const at = findEntry(block.entries, idB);
    if (at < 0) return false;
    const rest = without(block.entries, at);
    if (rest.length === 0) this.db.removeSync(block.key);
    else if (at === 0) this.rekey(block, rest);
    else this.db.putSync(block.key, rest);
    return true;
  }

  /** Stores `entries` as a block whose first entry may have changed: under the key that names it now. */
  private rekey(block: EndsBlock, entries: Uint8Array): void {
    const sep = block.key.length - ID_BYTES;
    const key = block.key.slice();
    key.set(entries.subarray(0, ID_BYTES), sep);
    if (compareBytes(key, block.key) !== 0) this.db.removeSync(block.key);
    this.put(key, entries);
  }

  /** Puts a block; a new one whose key sorts last in the database is appended (store/append-put.ts). */
  private put(key: Uint8Array, value: Uint8Array): void {
    putAfterLast(this.db, key, value, this.last);
  }
}
