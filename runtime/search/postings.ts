// Posting lists in LMDB: for each (label, term), the documents containing the term as entries
// (docNo, tf, len) of three little-endian u32, sorted by docNo and packed into blocks, so a
// query reads a term's whole list in about df/1024 range steps instead of df.
//
//   bm25_post [label, term, firstDocNo] → a sealed block (its first entry's docNo is the key)
//             [label, term, TAIL]       → the tail block, the last one; it exists iff the term
//                                        has any posting
//
// A new document has the highest docNo of its type, so indexing it appends to the tail: one get
// and one put of at most TAIL_CAPACITY entries per distinct term. A full tail is sealed: merged
// into the last sealed block while that stays within SEALED_CAPACITY (one larger rewrite per
// TAIL_CAPACITY appends), else stored as a new sealed block; a new tail begins. Re-indexing an
// updated document inserts into the middle: a block over its capacity splits in two. A block
// that empties is deleted; when the tail empties, the last sealed block becomes the tail.
// Storing the document length in every posting keeps scoring to this one range read; an update
// rewrites all of a document's postings anyway.
import type { Database, RangeOptions } from "lmdb";
import { createHash } from "node:crypto";
import { MAX_KEY, type Key } from "../store/keys.js";

export type PostingsDb = Database<Uint8Array, Key>;

/** Entries in the tail, which every new document of the term rewrites. */
export const TAIL_CAPACITY = 128;
/** Entries in a sealed block: few, large blocks make a long list few range steps. */
export const SEALED_CAPACITY = 1024;
/** Words per entry: docNo, tf, len. */
export const ENTRY = 3;
/** docNos are u32, so this key sorts after every sealed block. */
export const TAIL = 2 ** 32;
export const MAX_DOC_NO = TAIL - 1;
/** Longer terms are keyed by a digest (LMDB keys are at most 1978 bytes). */
const MAX_TERM_LENGTH = 100;

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** The key component for a term: itself, or for a long term "\x01" + digest (no term has \x01). */
export function termKey(term: string): string {
  if (term.length <= MAX_TERM_LENGTH) return term;
  return "\x01" + createHash("sha256").update(term).digest("base64url");
}

/** A block's entries, never modified in place: a view of `bytes` when aligned, else a copy. */
export function blockEntries(bytes: Uint8Array): Uint32Array {
  if (!LITTLE_ENDIAN) return decodeBigEndianHost(bytes);
  if (bytes.byteOffset % 4 === 0) return new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >>> 2);
  return new Uint32Array(bytes.slice().buffer);
}

function decodeBigEndianHost(bytes: Uint8Array): Uint32Array {
  const out = new Uint32Array(bytes.byteLength >>> 2);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < out.length; i++) out[i] = view.getUint32(i * 4, true);
  return out;
}

/** The bytes to store (lmdb copies them on put, so a view will do). */
function encode(entries: Uint32Array): Uint8Array {
  if (LITTLE_ENDIAN) return new Uint8Array(entries.buffer, entries.byteOffset, entries.byteLength);
  const out = new Uint8Array(entries.length * 4);
  const view = new DataView(out.buffer);
  for (let i = 0; i < entries.length; i++) view.setUint32(i * 4, entries[i]!, true);
  return out;
}

interface BlockRef {
  key: Key;
  tail: boolean;
  entries: Uint32Array;
}

const firstDoc = (e: Uint32Array): number => e[0]!;
const lastDoc = (e: Uint32Array): number => e[e.length - ENTRY]!;
const count = (e: Uint32Array): number => e.length / ENTRY;

/** Range options over the blocks of one term, in the given transaction (none: the write txn). */
export function termRange(label: string, term: string, readOptions?: RangeOptions): RangeOptions {
  const prefix: Key = [label, termKey(term)];
  return { ...readOptions, start: prefix, end: [...prefix, MAX_KEY] };
}

/** Mutations of one term's list; to be used inside a write transaction only. */
class TermList {
  private readonly prefix: Key;
  private readonly tailKey: Key;

  constructor(
    private readonly db: PostingsDb,
    label: string,
    term: string,
  ) {
    this.prefix = [label, termKey(term)];
    this.tailKey = [...this.prefix, TAIL];
  }

  private ref(key: Key, tail: boolean, bytes: Uint8Array): BlockRef {
    return { key, tail, entries: blockEntries(bytes) };
  }

  /** The first block in [from, to) (forward) or the last in (from, to] (reverse). */
  private edge(from: Key, to: Key, reverse: boolean): BlockRef | undefined {
    const opts: RangeOptions = reverse ? { start: to, end: from, reverse: true, limit: 1 } : { start: from, end: to, limit: 1 };
    for (const { key, value } of this.db.getRange(opts)) return this.ref(key, key[2] === TAIL, value);
    return undefined;
  }

  /** The block that holds (or would hold) docNo; undefined when the term has no postings. */
  private locate(docNo: number): BlockRef | undefined {
    const tail = this.db.get(this.tailKey);
    if (tail === undefined) return undefined;
    const tailRef = this.ref(this.tailKey, true, tail);
    if (docNo >= firstDoc(tailRef.entries)) return tailRef;
    // The sealed block with the greatest first docNo <= docNo; else docNo precedes every block.
    return this.edge(this.prefix, [...this.prefix, docNo], true) ?? this.edge(this.prefix, this.tailKey, false) ?? tailRef;
  }

  insert(docNo: number, tf: number, len: number): void {
    const entry = Uint32Array.of(docNo, tf, len);
    const ref = this.locate(docNo);
    if (ref === undefined) {
      this.db.putSync(this.tailKey, encode(entry));
      return;
    }
    const e = ref.entries;
    if (ref.tail && docNo > lastDoc(e) && count(e) >= TAIL_CAPACITY) {
      this.seal(e);
      this.db.putSync(this.tailKey, encode(entry));
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

  remove(docNo: number): void {
    const ref = this.locate(docNo);
    const e = ref?.entries;
    let i = 0;
    while (e !== undefined && i < e.length && e[i]! < docNo) i += ENTRY;
    if (ref === undefined || e === undefined || e[i] !== docNo) {
      throw new Error(`bm25: document ${docNo} is missing from the postings of ${String(this.prefix[1])}`);
    }
    const next = new Uint32Array(e.length - ENTRY);
    next.set(e.subarray(0, i));
    next.set(e.subarray(i + ENTRY), i);
    if (next.length > 0 || !ref.tail) {
      this.store(ref, next);
      return;
    }
    // The tail emptied: the last sealed block (if any) becomes the tail.
    this.db.removeSync(this.tailKey);
    const last = this.edge(this.prefix, [...this.prefix, MAX_DOC_NO], true);
    if (last !== undefined) {
      this.db.removeSync(last.key);
      this.db.putSync(this.tailKey, encode(last.entries));
    }
  }

  /** Stores a full tail's entries as sealed: appended to the last sealed block if they fit. */
  private seal(tail: Uint32Array): void {
    const last = this.edge(this.prefix, [...this.prefix, MAX_DOC_NO], true);
    if (last === undefined || count(last.entries) + count(tail) > SEALED_CAPACITY) {
      this.db.putSync([...this.prefix, firstDoc(tail)], encode(tail));
      return;
    }
    const merged = new Uint32Array(last.entries.length + tail.length);
    merged.set(last.entries);
    merged.set(tail, last.entries.length);
    this.db.putSync(last.key, encode(merged));
  }

  /** Writes a changed block back: re-keyed when its first docNo changed, split when over capacity. */
  private store(ref: BlockRef, entries: Uint32Array): void {
    if (!ref.tail && (entries.length === 0 || firstDoc(entries) !== ref.key[2])) this.db.removeSync(ref.key);
    if (entries.length === 0) return;
    const parts = count(entries) > (ref.tail ? TAIL_CAPACITY : SEALED_CAPACITY) ? split(entries) : [entries];
    parts.forEach((part, i) => {
      const isTail = ref.tail && i === parts.length - 1;
      this.db.putSync(isTail ? this.tailKey : [...this.prefix, firstDoc(part)], encode(part));
    });
  }
}

function split(entries: Uint32Array): Uint32Array[] {
  const half = Math.floor(count(entries) / 2) * ENTRY;
  return [entries.subarray(0, half), entries.subarray(half)];
}

export function insertPosting(db: PostingsDb, label: string, term: string, docNo: number, tf: number, len: number): void {
  new TermList(db, label, term).insert(docNo, tf, len);
}

export function removePosting(db: PostingsDb, label: string, term: string, docNo: number): void {
  new TermList(db, label, term).remove(docNo);
}
