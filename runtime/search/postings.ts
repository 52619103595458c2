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
// rewrites all of a document's postings anyway. The changes are runtime/search/postings-writes.ts.
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
  return `\x01${createHash("sha256").update(term).digest("base64url")}`;
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
export function encode(entries: Uint32Array): Uint8Array {
  if (LITTLE_ENDIAN) return new Uint8Array(entries.buffer, entries.byteOffset, entries.byteLength);
  const out = new Uint8Array(entries.length * 4);
  const view = new DataView(out.buffer);
  for (let i = 0; i < entries.length; i++) view.setUint32(i * 4, entries[i]!, true);
  return out;
}

/** Range options over the blocks of one term, in the given transaction (none: the write txn). */
export function termRange(label: string, term: string, readOptions?: RangeOptions): RangeOptions {
  const prefix: Key = [label, termKey(term)];
  return { ...readOptions, start: prefix, end: [...prefix, MAX_KEY] };
}
