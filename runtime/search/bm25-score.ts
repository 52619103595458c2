// Okapi BM25 as Strand defines it (pure functions; the index feeds them per-type statistics).
//   idf(t)      = ln(1 + (N − df + 0.5) / (df + 0.5))
//   score(d, q) = Σ over the distinct terms t of q: idf(t) · tf · (k1 + 1) / (tf + k1 · (1 − b + b · len / avglen))
// N = documents of the type, df = those containing t, tf = occurrences of t in d, len = terms in
// d, avglen = total terms of the type / N. A term repeated in the query counts once.

export const K1 = 1.2;
export const B = 0.75;

export function idf(docs: number, df: number): number {
  return Math.log(1 + (docs - df + 0.5) / (df + 0.5));
}

export function termScore(idfValue: number, tf: number, len: number, avgLen: number): number {
  return (idfValue * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * len) / avgLen));
}

/**
 * The candidates whose score is at least the limit-th highest, unordered: exactly `limit` of
 * them unless several tie with that score (the caller breaks ties by id). A min-heap of the
 * best `limit` scores seen so far gives the threshold in O(n log limit).
 */
export function atLeastKth(candidates: readonly number[], scores: Float64Array, limit: number): number[] {
  if (candidates.length <= limit) return candidates.slice();
  if (limit <= 0) return [];
  const heap = new Float64Array(limit);
  let size = 0;
  for (const c of candidates) {
    const s = scores[c]!;
    if (size < limit) {
      let i = size++;
      heap[i] = s;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (heap[p]! <= heap[i]!) break;
        [heap[p], heap[i]] = [heap[i]!, heap[p]!];
        i = p;
      }
    } else if (s > heap[0]!) {
      heap[0] = s;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < size && heap[l]! < heap[m]!) m = l;
        if (r < size && heap[r]! < heap[m]!) m = r;
        if (m === i) break;
        [heap[m], heap[i]] = [heap[i]!, heap[m]!];
        i = m;
      }
    }
  }
  const threshold = heap[0]!;
  return candidates.filter((c) => scores[c]! >= threshold);
}
