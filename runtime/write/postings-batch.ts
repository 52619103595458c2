// New documents' postings gathered over one write transaction and written once per term at its
// end (Bm25Writes.flush): indexing n documents that share a term costs one get and one put of that
// term's tail (plus the sealed blocks it fills), not n of each. Only appends are gathered — a new
// document has the highest docNo of its type — so the blocks come out exactly as n single
// appends would leave them (postings-writes.ts appendPostings). Per term the (docNo, tf, length)
// triples go straight into a growing Uint32Array (no per-posting objects or arrays: a bulk
// index of 100k documents gathers millions of them), looked up by label, then term.
import type { Bm25Stats } from "../store/dbs.js";

interface TermAppends {
  readonly label: string;
  readonly term: string;
  /** (docNo, tf, length) triples in docNo order: the first `length` words of `words`. */
  words: Uint32Array;
  length: number;
}

export class PostingsBatch {
  private readonly labels = new Map<string, Map<string, TermAppends>>();
  private count = 0;
  /** Each type's statistics as this batch leaves them (written at flush). */
  readonly stats = new Map<string, Bm25Stats>();

  get empty(): boolean {
    return this.count === 0 && this.stats.size === 0;
  }

  /** The terms of one label, to append a document's postings to (see appendTo). */
  termsOf(label: string): Map<string, TermAppends> {
    let terms = this.labels.get(label);
    if (terms === undefined) {
      terms = new Map();
      this.labels.set(label, terms);
    }
    return terms;
  }

  /** Appends one posting to `term` of the label whose terms `terms` are (termsOf). */
  appendTo(terms: Map<string, TermAppends>, label: string, term: string, docNo: number, tf: number, length: number): void {
    let t = terms.get(term);
    if (t === undefined) {
      t = { label, term, words: new Uint32Array(6), length: 0 };
      terms.set(term, t);
      this.count++;
    } else if (t.length + 3 > t.words.length) {
      const grown = new Uint32Array(t.words.length * 2);
      grown.set(t.words);
      t.words = grown;
    }
    t.words[t.length] = docNo;
    t.words[t.length + 1] = tf;
    t.words[t.length + 2] = length;
    t.length += 3;
  }

  /** The gathered appends, one per (label, term) with its triples, and forgets them. */
  take(): { appends: { label: string; term: string; entries: Uint32Array }[]; stats: [string, Bm25Stats][] } {
    const appends: { label: string; term: string; entries: Uint32Array }[] = [];
    for (const terms of this.labels.values()) {
      for (const t of terms.values()) appends.push({ label: t.label, term: t.term, entries: t.words.subarray(0, t.length) });
    }
    const out = { appends, stats: [...this.stats] };
    this.clear();
    return out;
  }

  clear(): void {
    this.labels.clear();
    this.count = 0;
    this.stats.clear();
  }
}
