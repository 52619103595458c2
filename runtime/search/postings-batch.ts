// New documents' postings gathered over one write transaction and written once per term at its
// end (Bm25Writes.flush): indexing n documents that share a term costs one get and one put of that
// term's tail (plus the sealed blocks it fills), not n of each. Only appends are gathered — a new
// document has the highest docNo of its type — so the blocks come out exactly as n single
// appends would leave them (postings-writes.ts appendPostings).
//
// A bulk index of 100k documents gathers millions of postings, so gathering one must cost about
// one Map lookup: each label numbers its terms as they first appear (a slot); a posting is two
// words (slot, tf) appended to one growing Uint32Array, and each document's docNo and length are
// kept once, with where its postings start. `grouped` sorts them by slot with a counting sort,
// which keeps each term's postings in the order they came (docNo order). One array per term
// instead cost an allocation per new term and a copy per doubling, a third of the bulk path's
// CPU in profiles; fresh memory is the other cost (first touches of new pages), hence two words.

import type { Bm25Stats } from "../store/dbs.js";

/** Grows `a` to hold at least `need` elements, doubling; the first `used` are kept. */
function grown(a: Uint32Array, used: number, need: number): Uint32Array {
  if (need <= a.length) return a;
  const next = new Uint32Array(Math.max(need, a.length * 2));
  next.set(a.subarray(0, used));
  return next;
}

/** The postings gathered for one label. */
export class LabelPostings {
  /** term → slot */
  private readonly slots = new Map<string, number>();
  /** slot → term */
  private readonly terms: string[] = [];
  /** (slot, tf) pairs */
  private pairs: Uint32Array = new Uint32Array(1024);
  private pairsUsed = 0;
  /** Per document: (first pair index, docNo, length). */
  private docs: Uint32Array = new Uint32Array(48);
  private docsUsed = 0;
  /** Per slot: the mark of the last document it occurred in, and where that document's pair is. */
  private seen: Uint32Array = new Uint32Array(1024);
  private pairAt: Uint32Array = new Uint32Array(1024);
  private documentMark = 0;

  /**
   * @param fresh no document of the label was indexed before (so no term has a posting list
   *   yet and flushing need not read any)
   */
  constructor(
    readonly label: string,
    readonly fresh: boolean,
  ) {}

  get empty(): boolean {
    return this.docsUsed === 0;
  }

  /**
   * One document's postings, from its terms as the tokenizer gave them (with repeats; docNos
   * must increase). Counting tf here, by slot, spares the per-document Map of term → tf: each
   * occurrence costs one lookup in `slots`.
   */
  addDocument(docNo: number, terms: readonly string[]): void {
    this.docs = grown(this.docs, this.docsUsed, this.docsUsed + 3);
    const d = this.docs;
    d[this.docsUsed] = this.pairsUsed;
    d[this.docsUsed + 1] = docNo;
    d[this.docsUsed + 2] = terms.length;
    this.docsUsed += 3;
    const mark = ++this.documentMark;
    const first = this.pairsUsed;
    if (first + 2 * terms.length > this.pairs.length) this.pairs = grown(this.pairs, first, first + 2 * terms.length);
    const p = this.pairs;
    let at = first;
    for (const term of terms) {
      let slot = this.slots.get(term);
      if (slot === undefined) {
        slot = this.terms.length;
        this.slots.set(term, slot);
        this.terms.push(term);
        if (slot >= this.seen.length) {
          this.seen = grown(this.seen, slot, slot + 1);
          this.pairAt = grown(this.pairAt, slot, slot + 1);
        }
      }
      if (this.seen[slot] === mark) p[this.pairAt[slot]! + 1]!++;
      else {
        this.seen[slot] = mark;
        this.pairAt[slot] = at;
        p[at] = slot;
        p[at + 1] = 1;
        at += 2;
      }
    }
    this.pairsUsed = at;
  }

  /** Each term with its (docNo, tf, length) triples in the order appended, in first-seen term order. */
  grouped(): { term: string; entries: Uint32Array }[] {
    const n = this.terms.length;
    const p = this.pairs;
    const starts = new Uint32Array(n + 1);
    for (let i = 0; i < this.pairsUsed; i += 2) starts[p[i]! + 1]! += 3;
    for (let s = 0; s < n; s++) starts[s + 1]! += starts[s]!;
    const out = new Uint32Array(starts[n]!);
    const fill = starts.slice(0, n);
    const d = this.docs;
    for (let k = 0; k < this.docsUsed; k += 3) {
      const end = k + 3 < this.docsUsed ? d[k + 3]! : this.pairsUsed;
      const docNo = d[k + 1]!;
      const length = d[k + 2]!;
      for (let i = d[k]!; i < end; i += 2) {
        const slot = p[i]!;
        const at = fill[slot]!;
        out[at] = docNo;
        out[at + 1] = p[i + 1]!;
        out[at + 2] = length;
        fill[slot] = at + 3;
      }
    }
    return this.terms.map((term, s) => ({ term, entries: out.subarray(starts[s]!, starts[s + 1]!) }));
  }
}

/** A term's gathered postings; `fresh`: the term has no posting list yet. */
export interface GatheredAppend {
  label: string;
  term: string;
  entries: Uint32Array;
  fresh: boolean;
}

export class PostingsBatch {
  private readonly labels = new Map<string, LabelPostings>();
  /** Each type's statistics as this batch leaves them (written at flush). */
  readonly stats = new Map<string, Bm25Stats>();

  get empty(): boolean {
    for (const postings of this.labels.values()) if (!postings.empty) return false;
    return this.stats.size === 0;
  }

  /** The postings of one label, to append documents' postings to; `fresh()` is asked once per batch. */
  of(label: string, fresh: () => boolean): LabelPostings {
    let postings = this.labels.get(label);
    if (postings === undefined) {
      postings = new LabelPostings(label, fresh());
      this.labels.set(label, postings);
    }
    return postings;
  }

  /** The gathered appends, one per (label, term) with its triples, and forgets them. */
  take(): { appends: GatheredAppend[]; stats: [string, Bm25Stats][] } {
    const appends: GatheredAppend[] = [];
    for (const postings of this.labels.values()) {
      const { label, fresh } = postings;
      for (const { term, entries } of postings.grouped()) appends.push({ label, term, entries, fresh });
    }
    const out = { appends, stats: [...this.stats] };
    this.clear();
    return out;
  }

  clear(): void {
    this.labels.clear();
    this.stats.clear();
  }
}
