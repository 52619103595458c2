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
//
// A search (SearchBM25) sums bm25-score.ts over the distinct terms of the query, reading each
// term's blocks in about df/1024 range steps into a Float64Array indexed by docNo; only the
// candidates at or above the limit-th score are mapped to ids, best first, ties by id ascending.
// A query without terms finds nothing. The query context attaches `score` to each stored record
// (a type that declares its own `score` field keeps its value: W003).
//
// This class reads (search) and says what a record's document is; every change to the bm25_*
// databases and the marker is made by runtime/search/bm25-writes.ts, the graph writer's search hook.
import type { RangeOptions, Transaction } from "lmdb";
import { StrandError } from "../../core/errors.js";
import { describeValue } from "../../core/values.js";
import type { NodeItem } from "../../core/items.js";
import type { SchemaDescriptor } from "../../core/schema.js";
import type { StoreDbs } from "../store/dbs.js";
import { BM25_MARKER_KEY, idOfValue, itemKey } from "../store/keys.js";
import { accumulate, idf, topDocs } from "./bm25-score.js";
import { documentTermList, documentTerms, textFieldsByType, type DocumentTerms } from "./document.js";
import { blockEntries, ENTRY, termRange } from "./postings.js";
import type { Bm25DocEntry, Bm25Stats } from "../store/dbs.js";
import { createTokenizer, STEMMERS, type Stemmer, type Tokenizer } from "./tokenizer.js";

export interface ScoredId {
  id: string;
  score: number;
}

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
  const marker = dbs.meta.get(BM25_MARKER_KEY, transaction ? { transaction } : undefined);
  if (typeof marker !== "string") return null;
  const parsed = JSON.parse(marker) as { version?: unknown; stemmer?: unknown; types?: unknown };
  if (parsed.version !== MARKER_VERSION || !STEMMERS.includes(parsed.stemmer as Stemmer) || !Array.isArray(parsed.types)) return null;
  return { stemmer: parsed.stemmer as Stemmer, fields: new Map(parsed.types as [string, string[]][]) };
}

export class Bm25Index {
  private readonly fields: ReadonlyMap<string, readonly string[]>;
  private readonly tokenize: Tokenizer;
  /** The configuration the index is built with, as stored in meta "bm25". */
  readonly marker: string;

  constructor(
    private readonly dbs: StoreDbs,
    schema: SchemaDescriptor,
    options: Bm25Options,
  ) {
    this.fields = textFieldsByType(schema);
    this.tokenize = createTokenizer(options.stemmer);
    this.marker = JSON.stringify({ version: MARKER_VERSION, stemmer: options.stemmer, types: [...this.fields].sort() });
  }

  /** Was the stored index built with this configuration? If not, it must be rebuilt before use. */
  isCurrent(): boolean {
    return this.dbs.meta.get(BM25_MARKER_KEY) === this.marker;
  }

  /** The labels that have text fields (and so documents). */
  labels(): Iterable<string> {
    return this.fields.keys();
  }

  /** The document of a record, or null when its type has no text fields. */
  documentOf(record: NodeItem): DocumentTerms | null {
    const fields = this.fields.get(record.label);
    return fields === undefined ? null : documentTerms(record, fields, this.tokenize);
  }

  /** The terms of a record's document in order, with repeats (its length is theirs), or null when its type has no text fields. */
  termsOf(record: NodeItem): string[] | null {
    const fields = this.fields.get(record.label);
    return fields === undefined ? null : documentTermList(record, fields, this.tokenize);
  }

  /** The stored [docNo, length] of an indexed record (in the current write transaction). */
  docEntry(record: NodeItem): Bm25DocEntry {
    const entry = this.dbs.bm25Docs.get(itemKey(record.label, record.id));
    if (entry === undefined) throw new Error(`bm25: ${record.label} ${record.id} is not indexed`);
    return entry;
  }

  /** The type's statistics, read in `transaction` or in the current write transaction. */
  stats(label: string, transaction?: Transaction): Bm25Stats | undefined {
    return this.dbs.bm25Stats.get([label], transaction ? { transaction } : undefined);
  }

  // ---- queries

  /**
   * Up to `limit` documents of `label` containing any term of `text`, best first, ties by id
   * ascending. Reads in `transaction`, or in the current write transaction when absent.
   */
  /** `tick` is called at every postings block and hit (a query's time limit, runtime/query/query-deadline.ts). */
  search(label: string, text: string, limit: number, transaction?: Transaction, tick: () => void = () => {}): ScoredId[] {
    if (limit <= 0 || !this.fields.has(label)) return [];
    const terms = [...new Set(this.tokenize(text))];
    if (terms.length === 0) return [];
    if (terms.length > MAX_QUERY_TERMS) {
      throw new StrandError(
        "INVALID_VALUE",
        `SearchBM25 text has ${terms.length} distinct terms; at most ${MAX_QUERY_TERMS} (shorten the query)`,
      );
    }
    const stats = this.stats(label, transaction);
    if (stats === undefined || stats.docs === 0 || stats.tokens === 0) return [];
    const avgLen = stats.tokens / stats.docs;
    const read: RangeOptions | undefined = transaction ? { transaction } : undefined;

    const scores = new Float64Array(stats.nextDocNo);
    for (const term of terms) {
      const blocks: Uint32Array[] = [];
      let df = 0;
      for (const { value } of this.dbs.bm25Post.getRange(termRange(label, term, read))) {
        tick();
        const entries = blockEntries(value);
        blocks.push(entries);
        df += entries.length / ENTRY;
      }
      if (df === 0) continue;
      const w = idf(stats.docs, df);
      for (const e of blocks) {
        tick();
        accumulate(e, w, avgLen, scores);
      }
    }

    const hits: ScoredId[] = topDocs(scores, limit).map((docNo) => {
      tick();
      const id = this.dbs.bm25Ids.get([label, docNo], read);
      if (id === undefined) throw new Error(`bm25: no id for ${label} document ${docNo}`);
      return { id: idOfValue(id), score: scores[docNo]! };
    });
    hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return hits.length > limit ? hits.slice(0, limit) : hits;
  }
}

/**
 * Distinct terms a query may have (as Lucene's default clause limit). Each term is a range read
 * of its postings: one request of 1.5 million distinct terms (an 8 MiB text) held the engine
 * for seconds, and every other request with it.
 */
export const MAX_QUERY_TERMS = 1024;

/** SearchBM25's arguments as a query passes them (unchecked values from the request). */
export function checkBm25Query(text: unknown, limit: unknown): void {
  if (typeof text !== "string") throw new StrandError("INVALID_VALUE", `SearchBM25 text must be a string, got ${describeValue(text)}`);
  if (!Number.isSafeInteger(limit) || (limit as number) < 0) {
    throw new StrandError("INVALID_VALUE", `SearchBM25 limit must be an integer >= 0, got ${describeValue(limit)}`);
  }
}
