// Changes to posting lists (layout and encoding in runtime/search/postings.ts): inserting and
// removing one document's entry of one term, keeping blocks within their capacities. Only the
// BM25 writer calls these, inside the write transaction of the record change, on the blocks as
// that write sees them (postings-overlay.ts), which it writes to LMDB at its end.
import { ENTRY, MAX_DOC_NO, SEALED_CAPACITY, TAIL, TAIL_CAPACITY, termKey } from "./postings.js";
import type { Key } from "../store/keys.js";
import type { PostingsBlocks } from "./postings-overlay.js";

interface BlockRef {
  key: Key;
  tail: boolean;
  entries: Uint32Array;
}

const firstDoc = (e: Uint32Array): number => e[0]!;
const lastDoc = (e: Uint32Array): number => e[e.length - ENTRY]!;
const count = (e: Uint32Array): number => e.length / ENTRY;

/** Mutations of one term's list; to be used inside a write transaction only. */
class TermList {
  private readonly prefix: Key;
  private readonly tailKey: Key;

  constructor(
    private readonly blocks: PostingsBlocks,
    label: string,
    term: string,
  ) {
    this.prefix = [label, termKey(term)];
    this.tailKey = [...this.prefix, TAIL];
  }

  /** The first block in [from, to) (forward) or the last in (from, to] (reverse). */
  private edge(from: Key, to: Key, reverse: boolean): BlockRef | undefined {
    const block = this.blocks.edge(from, to, reverse);
    return block === undefined ? undefined : { key: block.key, tail: block.key[2] === TAIL, entries: block.entries };
  }

  /** The block that holds (or would hold) docNo; undefined when the term has no postings. */
  private locate(docNo: number): BlockRef | undefined {
    const tail = this.blocks.get(this.tailKey);
    if (tail === undefined) return undefined;
    const tailRef: BlockRef = { key: this.tailKey, tail: true, entries: tail };
    if (docNo >= firstDoc(tailRef.entries)) return tailRef;
    // The sealed block with the greatest first docNo <= docNo; else docNo precedes every block.
    return this.edge(this.prefix, [...this.prefix, docNo], true) ?? this.edge(this.prefix, this.tailKey, false) ?? tailRef;
  }

  insert(docNo: number, tf: number, len: number): void {
    const entry = Uint32Array.of(docNo, tf, len);
    const ref = this.locate(docNo);
    if (ref === undefined) {
      this.blocks.put(this.tailKey, entry, true);
      return;
    }
    const e = ref.entries;
    if (ref.tail && docNo > lastDoc(e) && count(e) >= TAIL_CAPACITY) {
      this.seal(e);
      this.blocks.put(this.tailKey, entry, true);
      return;
    }
    // Appending (a new document) needs no search.
    let i = e.length;
    if (docNo <= lastDoc(e)) {
      i = 0;
      while (e[i]! < docNo) i += ENTRY;
    }
    if (i < e.length && e[i] === docNo) throw new Error(`bm25: document ${docNo} is already in the postings of ${String(this.prefix[1])}`);
    const next = new Uint32Array(e.length + ENTRY);
    next.set(e.subarray(0, i));
    next.set(entry, i);
    next.set(e.subarray(i), i + ENTRY);
    this.store(ref, next);
  }

  /**
   * Changes docNo's (tf, len) where the entry is: a re-indexed document whose term stays. The
   * block is copied at most once per write (postings-overlay.ts); later changes are in place.
   */
  set(docNo: number, tf: number, len: number): void {
    const { ref, i } = this.entryOf(docNo);
    const e = ref.entries;
    const next = this.blocks.held(ref.key) ? e : e.slice();
    next[i + 1] = tf;
    next[i + 2] = len;
    this.blocks.put(ref.key, next, true);
  }

  /** The block holding docNo's entry and the entry's index in it; the list must have one. */
  private entryOf(docNo: number): { ref: BlockRef; i: number } {
    const ref = this.locate(docNo);
    const e = ref?.entries;
    let i = 0;
    while (e !== undefined && i < e.length && e[i]! < docNo) i += ENTRY;
    if (ref === undefined || e === undefined || e[i] !== docNo) {
      throw new Error(`bm25: document ${docNo} is missing from the postings of ${String(this.prefix[1])}`);
    }
    return { ref, i };
  }

  remove(docNo: number): void {
    const { ref, i } = this.entryOf(docNo);
    const e = ref.entries;
    const next = new Uint32Array(e.length - ENTRY);
    next.set(e.subarray(0, i));
    next.set(e.subarray(i + ENTRY), i);
    if (next.length > 0 || !ref.tail) {
      this.store(ref, next);
      return;
    }
    // The tail emptied: the last sealed block (if any) becomes the tail.
    this.blocks.remove(this.tailKey);
    const last = this.edge(this.prefix, [...this.prefix, MAX_DOC_NO], true);
    if (last !== undefined) {
      this.blocks.remove(last.key);
      this.blocks.put(this.tailKey, last.entries, false);
    }
  }

  /**
   * Appends entries of new documents (docNos above every one in the list, in order), with the
   * same outcome as inserting them one by one: the tail fills to TAIL_CAPACITY, then is sealed
   * (merged into the last sealed block while that stays within SEALED_CAPACITY) and a new tail
   * begins. Every block is written once. `fresh`: the term is known to have no list yet.
   */
  appendMany(added: Uint32Array, fresh: boolean): void {
    const tail: Uint32Array = (fresh ? undefined : this.blocks.get(this.tailKey)) ?? new Uint32Array(0);
    if (tail.length > 0 && added[0]! <= lastDoc(tail))
      throw new Error(`bm25: appending document ${added[0]} after ${lastDoc(tail)} in the postings of ${String(this.prefix[1])}`);
    let all = added;
    if (tail.length > 0) {
      all = new Uint32Array(tail.length + added.length);
      all.set(tail);
      all.set(added, tail.length);
    }
    // A full tail is sealed only when another entry follows it: while more than TAIL_CAPACITY
    // entries remain, the next TAIL_CAPACITY of them are sealed.
    const chunk = TAIL_CAPACITY * ENTRY;
    let off = 0;
    let last: BlockRef | undefined | null = fresh ? undefined : null; // null: not looked up yet
    const sealed = new Map<number, Uint32Array>(); // first docNo -> entries, to write
    for (; all.length - off > chunk; off += chunk) {
      const full = all.subarray(off, off + chunk);
      if (last === null) last = this.edge(this.prefix, [...this.prefix, MAX_DOC_NO], true);
      if (last === undefined || count(last.entries) + count(full) > SEALED_CAPACITY) {
        last = { key: [...this.prefix, firstDoc(full)], tail: false, entries: full };
      } else {
        const merged: Uint32Array = new Uint32Array(last.entries.length + full.length);
        merged.set(last.entries);
        merged.set(full, last.entries.length);
        last = { ...last, entries: merged };
      }
      sealed.set(last.key[2] as number, last.entries);
    }
    for (const [first, entries] of sealed) this.blocks.put([...this.prefix, first], entries, false);
    this.blocks.put(this.tailKey, all.subarray(off), false);
  }

  /** Stores a full tail's entries as sealed: appended to the last sealed block if they fit. */
  private seal(tail: Uint32Array): void {
    const last = this.edge(this.prefix, [...this.prefix, MAX_DOC_NO], true);
    if (last === undefined || count(last.entries) + count(tail) > SEALED_CAPACITY) {
      this.blocks.put([...this.prefix, firstDoc(tail)], tail, false);
      return;
    }
    const merged = new Uint32Array(last.entries.length + tail.length);
    merged.set(last.entries);
    merged.set(tail, last.entries.length);
    this.blocks.put(last.key, merged, true);
  }

  /** Writes a changed block back: re-keyed when its first docNo changed, split when over capacity. */
  private store(ref: BlockRef, entries: Uint32Array): void {
    if (!ref.tail && (entries.length === 0 || firstDoc(entries) !== ref.key[2])) this.blocks.remove(ref.key);
    if (entries.length === 0) return;
    const parts = count(entries) > (ref.tail ? TAIL_CAPACITY : SEALED_CAPACITY) ? split(entries) : [entries];
    parts.forEach((part, i) => {
      const isTail = ref.tail && i === parts.length - 1;
      // `entries` is always a new array of the caller's (insert, remove): its parts are owned.
      this.blocks.put(isTail ? this.tailKey : [...this.prefix, firstDoc(part)], part, true);
    });
  }
}

function split(entries: Uint32Array): Uint32Array[] {
  const half = Math.floor(count(entries) / 2) * ENTRY;
  return [entries.subarray(0, half), entries.subarray(half)];
}

export function insertPosting(blocks: PostingsBlocks, label: string, term: string, docNo: number, tf: number, len: number): void {
  new TermList(blocks, label, term).insert(docNo, tf, len);
}

/**
 * Appends the postings of new documents to a term's list: `entries` are (docNo, tf, length)
 * triples in docNo order. `fresh`: the term has no list yet (its type had no document), so
 * nothing is read first.
 */
export function appendPostings(blocks: PostingsBlocks, label: string, term: string, entries: Uint32Array, fresh = false): void {
  if (entries.length > 0) new TermList(blocks, label, term).appendMany(entries, fresh);
}

export function setPosting(blocks: PostingsBlocks, label: string, term: string, docNo: number, tf: number, len: number): void {
  new TermList(blocks, label, term).set(docNo, tf, len);
}

export function removePosting(blocks: PostingsBlocks, label: string, term: string, docNo: number): void {
  new TermList(blocks, label, term).remove(docNo);
}
