// The graph writer's search hook (write/hooks.ts SearchHook, checked where the commit hands it
// to the writer): keeps the BM25 keyword index (layout in runtime/search/) in step
// with node and vector records, inside the write transaction of the record change. Also the
// full rebuild an open runs when the index was built with another configuration (or not at all).
import type { WorkLimit } from "../../core/work-limit.js";
import type { NodeItem } from "../../core/items.js";
import { silentProgress, type ProgressSink } from "../../core/progress.js";
import type { Bm25Index } from "./bm25-index.js";
import { MAX_DOC_NO } from "./postings.js";
import type { StoreDbs } from "../store/dbs.js";
import { idValue, itemKey, labelRange } from "../store/keys.js";
import { forgetBm25Marker, writeBm25Marker } from "./bm25-marker.js";
import { PostingsBatch } from "./postings-batch.js";
import { PostingsOverlay } from "./postings-overlay.js";
import { appendPostings, insertPosting, removePosting, setPosting } from "./postings-writes.js";

export class Bm25Writes {
  /** New documents' postings and the statistics of this write, not yet written (see flush). */
  private readonly batch = new PostingsBatch();
  /** The postings blocks this write changed, written to LMDB once at flush. */
  private readonly blocks: PostingsOverlay;

  constructor(
    private readonly dbs: StoreDbs,
    private readonly index: Bm25Index,
  ) {
    this.blocks = new PostingsOverlay(dbs.bm25Post);
  }

  added(record: NodeItem, limit?: WorkLimit | null): void {
    const terms = this.index.termsOf(record);
    if (terms === null) return;
    limit?.tickMany(terms.length); // a large text's tokens are the query's work
    const label = record.label;
    const stats = this.batch.stats.get(label) ?? this.index.stats(label) ?? { docs: 0, tokens: 0, nextDocNo: 0 };
    const docNo = stats.nextDocNo;
    if (docNo > MAX_DOC_NO) throw new Error(`bm25: type ${label} ran out of document numbers`);
    this.dbs.bm25Docs.putSync(itemKey(label, record.id), [docNo, terms.length]);
    this.dbs.bm25Ids.putSync([label, docNo], idValue(record.id));
    // No document yet: no posting lists yet (removing a type's last document removes them all).
    this.batch.of(label, () => stats.docs === 0).addDocument(docNo, terms);
    this.batch.stats.set(label, { docs: stats.docs + 1, tokens: stats.tokens + terms.length, nextDocNo: docNo + 1 });
  }

  /**
   * Writes what the write gathered to LMDB (one append per term, each changed block once, the
   * statistics once); called before a search reads postings in the write, and at its end.
   */
  flush(progress: ProgressSink = silentProgress, limit?: WorkLimit | null): void {
    this.gatherAppends(progress, limit);
    this.blocks.flush(limit);
  }

  /** The new documents' postings into `blocks`, and the statistics; before existing postings change. */
  private gatherAppends(progress: ProgressSink = silentProgress, limit?: WorkLimit | null): void {
    if (this.batch.empty) return;
    const { appends, stats } = this.batch.take();
    const task = progress.start("keyword index", "terms", appends.length);
    for (let i = 0; i < appends.length; i++) {
      limit?.tick();
      const { label, term, entries, fresh } = appends[i]!;
      appendPostings(this.blocks, label, term, entries, fresh);
      if ((i & 4095) === 4095) task.advance(4096);
    }
    task.advance(appends.length & 4095);
    task.finish();
    for (const [label, s] of stats) this.dbs.bm25Stats.putSync([label], s);
  }

  /** The write failed (its transaction is rolled back): forget what it gathered. */
  discard(): void {
    this.batch.clear();
    this.blocks.clear();
  }

  /** `record` is the stored record being removed (re-tokenized: the marker keeps that sound). */
  removed(record: NodeItem): void {
    this.gatherAppends();
    const doc = this.index.documentOf(record);
    if (doc === null) return;
    const [docNo, length] = this.index.docEntry(record);
    for (const term of doc.tf.keys()) removePosting(this.blocks, record.label, term, docNo);
    this.dbs.bm25Docs.removeSync(itemKey(record.label, record.id));
    this.dbs.bm25Ids.removeSync([record.label, docNo]);
    const stats = this.index.stats(record.label)!;
    this.dbs.bm25Stats.putSync([record.label], { docs: stats.docs - 1, tokens: stats.tokens - length, nextDocNo: stats.nextDocNo });
  }

  /** The document keeps its docNo. */
  replaced(previous: NodeItem, next: NodeItem, limit?: WorkLimit | null): void {
    this.gatherAppends(undefined, limit);
    const before = this.index.documentOf(previous);
    const after = this.index.documentOf(next);
    if (before === null || after === null) return;
    limit?.tickMany(before.length + after.length);
    const [docNo, length] = this.index.docEntry(previous);
    // Every posting carries the length: when it changes, all of them are rewritten (a term the
    // document keeps is changed where it is; one it loses is removed, one it gains inserted).
    const sameLength = before.length === after.length;
    for (const [term, tf] of before.tf) {
      const kept = after.tf.get(term);
      if (kept === undefined) removePosting(this.blocks, next.label, term, docNo);
      else if (!sameLength || kept !== tf) setPosting(this.blocks, next.label, term, docNo, kept, after.length);
    }
    for (const [term, tf] of after.tf) {
      if (!before.tf.has(term)) insertPosting(this.blocks, next.label, term, docNo, tf, after.length);
    }
    if (sameLength) return;
    this.dbs.bm25Docs.putSync(itemKey(next.label, next.id), [docNo, after.length]);
    const stats = this.index.stats(next.label)!;
    this.dbs.bm25Stats.putSync([next.label], { ...stats, tokens: stats.tokens - length + after.length });
  }

  /**
   * Clears the bm25 databases and indexes every record of every text type in one transaction
   * that also writes the marker; a crash before its commit leaves no marker, so the next open
   * rebuilds again.
   */
  rebuild(progress: ProgressSink = silentProgress): void {
    const { dbs } = this;
    forgetBm25Marker(dbs);
    for (const db of [dbs.bm25Post, dbs.bm25Docs, dbs.bm25Ids, dbs.bm25Stats]) db.clearSync();
    const labels = [...this.index.labels()];
    const range = labelRange;
    const task = progress.start("rebuild keyword index", "records", sum(labels.map((label) => dbs.nodes.getCount(range(label)))));
    dbs.env.transactionSync(() => {
      for (const label of labels) {
        for (const { value } of dbs.nodes.getRange(range(label))) {
          this.added(value);
          task.advance(1);
        }
      }
      this.flush();
      writeBm25Marker(dbs, this.index.marker);
    });
    task.finish();
  }
}

function sum(ns: readonly number[]): number {
  return ns.reduce((a, b) => a + b, 0);
}
