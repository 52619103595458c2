// New documents' postings gathered over one write transaction and written once per term at its
// end (Bm25Writes.flush): indexing n documents that share a term costs one get and one put of that
// term's tail (plus the sealed blocks it fills), not n of each. Only appends are gathered — a new
// document has the highest docNo of its type — so the blocks come out exactly as n single
// appends would leave them (postings-writes.ts appendPostings).
import type { Bm25Stats } from "../store/dbs.js";

interface TermAppends {
  readonly label: string;
  readonly term: string;
  /** (docNo, tf, length) triples in docNo order. */
  readonly entries: number[];
}

export class PostingsBatch {
  private readonly terms = new Map<string, TermAppends>();
  /** Each type's statistics as this batch leaves them (written at flush). */
  readonly stats = new Map<string, Bm25Stats>();

  get empty(): boolean {
    return this.terms.size === 0 && this.stats.size === 0;
  }

  append(label: string, term: string, docNo: number, tf: number, length: number): void {
    const key = `${label}\u0000${term}`;
    let t = this.terms.get(key);
    if (t === undefined) {
      t = { label, term, entries: [] };
      this.terms.set(key, t);
    }
    t.entries.push(docNo, tf, length);
  }

  /** The gathered appends, one per (label, term), and forgets them. */
  take(): { appends: TermAppends[]; stats: [string, Bm25Stats][] } {
    const out = { appends: [...this.terms.values()], stats: [...this.stats] };
    this.clear();
    return out;
  }

  clear(): void {
    this.terms.clear();
    this.stats.clear();
  }
}
