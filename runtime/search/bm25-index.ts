// The BM25 keyword index of one graph, kept in LMDB and changed in the same write transaction
// as the records it describes (see keys.ts for the four bm25_* databases):
//
//   bm25_post  [label, term, firstDocNo | TAIL] → packed postings (see postings.ts)
//   bm25_docs  [label, nodeId]                  → [docNo, length]  (every record of a text type)
//   bm25_ids   [label, docNo]                   → nodeId
//   bm25_stats [label]                          → {docs, tokens, nextDocNo}
//   meta       "bm25"                           → the configuration the index was built with
//
// Every record of a type with text fields (document.ts) is a document, also when it holds no
// terms: N counts it and its length 0 enters avglen. docNo is a per-type integer handed out in
// insertion order (never reused), so a query adds scores into an array indexed by docNo.
//
// The meta "bm25" marker records the stemmer and the text fields of every type. Opening with
// BM25 enabled and a different (or no) marker rebuilds the index from the records; opening with
// BM25 disabled deletes the marker, so the documents written meanwhile get indexed on the next
// enabled open. Un-indexing re-tokenizes the stored record, which the marker keeps sound.
import type { RangeOptions, Transaction } from "lmdb";
import type { NodeItem } from "../../core/items.js";
import type { SchemaDescriptor } from "../../core/schema.js";
import type { StoreDbs } from "../store/dbs.js";
import { MAX_KEY } from "../store/keys.js";
import { accumulate, idf, topDocs } from "./bm25-score.js";
import { documentTerms, textFieldsByType, type DocumentTerms } from "./document.js";
import { blockEntries, ENTRY, insertPosting, MAX_DOC_NO, removePosting, termRange } from "./postings.js";
import type { Bm25DocEntry, Bm25Stats } from "../store/dbs.js";
import { createTokenizer, STEMMERS, type Stemmer, type Tokenizer } from "./tokenizer.js";



export interface ScoredId {
  id: string;
  score: number;
}

const MARKER_KEY = "bm25";
const MARKER_VERSION = 1;

export interface Bm25Options {
  stemmer: Stemmer;
}

/** How a store's keyword index was built, as its marker says. */
export interface BuiltBm25 {
  stemmer: Stemmer;
  /** The text fields of each type with documents. */
  fields: ReadonlyMap<string, readonly string[]>;
}

/**
 * The configuration the stored index was built with, read from the marker; null when there is
 * none (BM25 off, or a rebuild pending) or it is not one this version writes.
 */
export function builtBm25(dbs: StoreDbs, transaction?: Transaction): BuiltBm25 | null {
  const marker = dbs.meta.get(MARKER_KEY, transaction ? { transaction } : undefined);
  if (typeof marker !== "string") return null;
  const parsed = JSON.parse(marker) as { version?: unknown; stemmer?: unknown; types?: unknown };
  if (parsed.version !== MARKER_VERSION || !STEMMERS.includes(parsed.stemmer as Stemmer) || !Array.isArray(parsed.types)) return null;
  return { stemmer: parsed.stemmer as Stemmer, fields: new Map(parsed.types as [string, string[]][]) };
}

export class Bm25Index {
  private readonly fields: ReadonlyMap<string, readonly string[]>;
  private readonly tokenize: Tokenizer;
  private readonly marker: string;

  private constructor(
    private readonly dbs: StoreDbs,
    schema: SchemaDescriptor,
    options: Bm25Options,
  ) {
    this.fields = textFieldsByType(schema);
    this.tokenize = createTokenizer(options.stemmer);
    this.marker = JSON.stringify({ version: MARKER_VERSION, stemmer: options.stemmer, types: [...this.fields].sort() });
  }

  /** The index of an opened store, rebuilt first when it was built differently (or not at all). */
  static open(dbs: StoreDbs, schema: SchemaDescriptor, options: Bm25Options): Bm25Index {
    const index = new Bm25Index(dbs, schema, options);
    if (dbs.meta.get(MARKER_KEY) !== index.marker) index.rebuild();
    return index;
  }

  /** BM25 is off for this store: whatever is indexed now goes stale, so forget the marker. */
  static disable(dbs: StoreDbs): void {
    if (dbs.meta.get(MARKER_KEY) !== undefined) dbs.meta.removeSync(MARKER_KEY);
  }

  /** Does this label have text fields (and so documents)? */
  indexes(label: string): boolean {
    return this.fields.has(label);
  }

  // ---- writes (inside the write transaction of the record change)

  /** A record that was just created. */
  indexDocument(record: NodeItem): void {
    const fields = this.fields.get(record.label);
    if (fields === undefined) return;
    const stats = this.stats(record.label) ?? { docs: 0, tokens: 0, nextDocNo: 0 };
    const docNo = stats.nextDocNo;
    if (docNo > MAX_DOC_NO) throw new Error(`bm25: type ${record.label} ran out of document numbers`);
    const doc = documentTerms(record, fields, this.tokenize);
    this.dbs.bm25Docs.putSync([record.label, record.id], [docNo, doc.length]);
    this.dbs.bm25Ids.putSync([record.label, docNo], record.id);
    this.putPostings(record.label, docNo, doc, null);
    this.dbs.bm25Stats.putSync([record.label], { docs: stats.docs + 1, tokens: stats.tokens + doc.length, nextDocNo: docNo + 1 });
  }

  /** The hook for DROP: `record` is the stored record being removed, before it is deleted. */
  unindexDocument(record: NodeItem): void {
    const fields = this.fields.get(record.label);
    if (fields === undefined) return;
    const [docNo, length] = this.docEntry(record);
    const doc = documentTerms(record, fields, this.tokenize);
    for (const term of doc.tf.keys()) removePosting(this.dbs.bm25Post, record.label, term, docNo);
    this.dbs.bm25Docs.removeSync([record.label, record.id]);
    this.dbs.bm25Ids.removeSync([record.label, docNo]);
    const stats = this.stats(record.label)!;
    this.dbs.bm25Stats.putSync([record.label], { docs: stats.docs - 1, tokens: stats.tokens - length, nextDocNo: stats.nextDocNo });
  }

  /** `previous` (the stored record) was replaced by `next`; the document keeps its docNo. */
  reindexDocument(previous: NodeItem, next: NodeItem): void {
    const fields = this.fields.get(next.label);
    if (fields === undefined) return;
    const [docNo, length] = this.docEntry(previous);
    const before = documentTerms(previous, fields, this.tokenize);
    const after = documentTerms(next, fields, this.tokenize);
    // Every posting carries the length: when it changes, all of them are rewritten.
    const sameLength = before.length === after.length;
    for (const [term, tf] of before.tf) {
      if (!sameLength || after.tf.get(term) !== tf) removePosting(this.dbs.bm25Post, next.label, term, docNo);
    }
    this.putPostings(next.label, docNo, after, sameLength ? before : null);
    if (sameLength) return;
    this.dbs.bm25Docs.putSync([next.label, next.id], [docNo, after.length]);
    const stats = this.stats(next.label)!;
    this.dbs.bm25Stats.putSync([next.label], { ...stats, tokens: stats.tokens - length + after.length });
  }

  /** Postings of `doc`, skipping the terms `unchanged` already has with the same tf. */
  private putPostings(label: string, docNo: number, doc: DocumentTerms, unchanged: DocumentTerms | null): void {
    for (const [term, tf] of doc.tf) {
      if (unchanged?.tf.get(term) === tf) continue;
      insertPosting(this.dbs.bm25Post, label, term, docNo, tf, doc.length);
    }
  }

  private docEntry(record: NodeItem): Bm25DocEntry {
    const entry = this.dbs.bm25Docs.get([record.label, record.id]);
    if (entry === undefined) throw new Error(`bm25: ${record.label} ${record.id} is not indexed`);
    return entry;
  }

  private stats(label: string, transaction?: Transaction): Bm25Stats | undefined {
    return this.dbs.bm25Stats.get([label], transaction ? { transaction } : undefined);
  }

  // ---- queries

  /**
   * Up to `limit` documents of `label` containing any term of `text`, best first, ties by id
   * ascending. Reads in `transaction`, or in the current write transaction when absent.
   */
  search(label: string, text: string, limit: number, transaction?: Transaction): ScoredId[] {
    if (limit <= 0 || !this.fields.has(label)) return [];
    const terms = [...new Set(this.tokenize(text))];
    if (terms.length === 0) return [];
    const stats = this.stats(label, transaction);
    if (stats === undefined || stats.docs === 0 || stats.tokens === 0) return [];
    const avgLen = stats.tokens / stats.docs;
    const read: RangeOptions | undefined = transaction ? { transaction } : undefined;

    const scores = new Float64Array(stats.nextDocNo);
    for (const term of terms) {
      const blocks: Uint32Array[] = [];
      let df = 0;
      for (const { value } of this.dbs.bm25Post.getRange(termRange(label, term, read))) {
        const entries = blockEntries(value);
        blocks.push(entries);
        df += entries.length / ENTRY;
      }
      if (df === 0) continue;
      const w = idf(stats.docs, df);
      for (const e of blocks) accumulate(e, w, avgLen, scores);
    }

    const hits: ScoredId[] = topDocs(scores, limit).map((docNo) => {
      const id = this.dbs.bm25Ids.get([label, docNo], read);
      if (id === undefined) throw new Error(`bm25: no id for ${label} document ${docNo}`);
      return { id, score: scores[docNo]! };
    });
    hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return hits.length > limit ? hits.slice(0, limit) : hits;
  }

  // ---- (re)building

  /**
   * Clears the bm25 databases and indexes every record of every text type in one transaction
   * that also writes the marker; a crash before its commit leaves no marker, so the next open
   * rebuilds again.
   */
  private rebuild(): void {
    const { dbs } = this;
    if (dbs.meta.get(MARKER_KEY) !== undefined) dbs.meta.removeSync(MARKER_KEY);
    for (const db of [dbs.bm25Post, dbs.bm25Docs, dbs.bm25Ids, dbs.bm25Stats]) db.clearSync();
    dbs.env.transactionSync(() => {
      for (const label of this.fields.keys()) {
        for (const { value } of dbs.nodes.getRange({ start: [label], end: [label, MAX_KEY] })) this.indexDocument(value);
      }
      dbs.meta.putSync(MARKER_KEY, this.marker);
    });
  }
}
