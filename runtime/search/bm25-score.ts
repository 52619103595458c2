// Okapi BM25 as Strand defines it (pure functions; the index feeds them per-type statistics).
//   idf(t)      = ln(1 + (N − df + 0.5) / (df + 0.5))
//   score(d, q) = Σ over the distinct terms t of q: idf(t) · tf · (k1 + 1) / (tf + k1 · (1 − b + b · len / avglen))
// N = documents of the type, df = those containing t, tf = occurrences of t in d, len = terms in
// d, avglen = total terms of the type / N. A term repeated in the query counts once.
import { ENTRY } from "./postings.js";

export const K1 = 1.2;
export const B = 0.75;

export function idf(docs: number, df: number): number {
  return Math.log(1 + (docs - df + 0.5) / (df + 0.5));
}

/**
 * Adds one posting block's contributions (entries docNo, tf, len) to `scores`, indexed by
 * docNo: idf·tf·(k1+1) / (tf + k1·(1 − b + b·len/avgLen)) with its per-term constants hoisted out of
 * this, the hot loop. Every
 * contribution is > 0 (idf > 0 since df <= N; tf >= 1), so a score of 0 means "no match".
 */
export function accumulate(entries: Uint32Array, idfValue: number, avgLen: number, scores: Float64Array): void {
  const c = idfValue * (K1 + 1);
  const base = K1 * (1 - B);
  const slope = (K1 * B) / avgLen;
  for (let i = 0; i < entries.length; i += ENTRY) {
    const docNo = entries[i]!;
    const tf = entries[i + 1]!;
    scores[docNo] = scores[docNo]! + (c * tf) / (tf + base + slope * entries[i + 2]!);
  }
}

/**
 * The docNos whose score is > 0 and at least the limit-th highest, unordered: exactly `limit`
 * of them unless several tie with that score (the caller breaks ties by id). One pass keeps a
 * min-heap of the best `limit` scores; a second collects the documents at or above its root.
 * The heap holds at most one entry per document, so any `limit` (up to 2^53 from a request)
 * allocates no more than the type has documents.
 */
export function topDocs(scores: Float64Array, limit: number): number[] {
  const k = Math.min(limit, scores.length);
  if (!(k > 0)) return [];
  const heap = new Float64Array(k);
  let size = 0;
  for (let d = 0; d < scores.length; d++) {
    const s = scores[d]!;
    if (s === 0) continue;
    if (size < k) {
      let i = size++;
      heap[i] = s;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (heap[p]! <= s) break;
        heap[i] = heap[p]!;
        i = p;
      }
      heap[i] = s;
    } else if (s > heap[0]!) {
      siftDown(heap, size, s);
    }
  }
  const threshold = size < k ? Number.MIN_VALUE : heap[0]!;
  const out: number[] = [];
  for (let d = 0; d < scores.length; d++) if (scores[d]! >= threshold) out.push(d);
  return out;
}

/** Replaces the heap's root with s and restores the min-heap order. */
function siftDown(heap: Float64Array, size: number, s: number): void {
  let i = 0;
  for (;;) {
    const l = 2 * i + 1;
    if (l >= size) break;
    const r = l + 1;
    const m = r < size && heap[r]! < heap[l]! ? r : l;
    if (heap[m]! >= s) break;
    heap[i] = heap[m]!;
    i = m;
  }
  heap[i] = s;
}
