// The store's integrity check (like redb's check_integrity): in one read snapshot, every piece of
// state the store keeps in step with its records is compared with them, and each disagreement
// is reported as a value. It only reads. See store/integrity.ts for what comes back, and the *-check.ts
// modules for each invariant.
import { silentProgress, type ProgressSink } from "../../core/progress.js";
import type { StoreDbs } from "../store/dbs.js";
import type { Key } from "../store/keys.js";
import type { SchemaInfo } from "../store/schema-info.js";
import { checkAdjacency } from "../adjacency/adjacency-check.js";
import { checkBm25 } from "../search/bm25-check.js";
import { checkRecords } from "../records/records-check.js";
import { entryName, type CheckContext, type Disagreement, type VerifyCheck, type VerifyReport } from "../store/integrity.js";
import { checkVectors, type IndexSource } from "../vector/vector-check.js";

export interface VerifyInput {
  dbs: StoreDbs;
  /** The types the records must fit: the open store's, or those the data last recorded (stored-schema.ts). */
  schema: SchemaInfo;
  /** Each vector type's HNSW index, or why it is not compared. */
  vectorIndex: IndexSource;
  /** Where the count of entries read goes while the check runs (a large store takes minutes). */
  progress?: ProgressSink;
}

/** Entries read between two reports to the progress sink. */
const TICKS_PER_REPORT = 4096;

export function verifyStore({ dbs, schema, vectorIndex, progress = silentProgress }: VerifyInput): VerifyReport {
  const disagreements: Disagreement[] = [];
  const task = progress.start("verify", "entries");
  let ticks = 0;
  const transaction = dbs.env.useReadTransaction();
  try {
    const ctx: CheckContext = {
      dbs,
      // A new object each time: lmdb's getKeys writes `values: false` into the options it is given.
      get read() {
        return { transaction };
      },
      counts: {
        nodes: 0,
        edges: 0,
        vectors: 0,
        indexEntries: 0,
        uniqueClaims: 0,
        adjacencyEntries: 0,
        bm25Documents: 0,
        bm25Postings: 0,
        vectorIndexes: 0,
      },
      report: (check: VerifyCheck, db: string, key: Key | Uint8Array, message: string) =>
        disagreements.push({ check, key: entryName(db, key), message }),
      tick: () => {
        if (++ticks === TICKS_PER_REPORT) {
          task.advance(ticks);
          ticks = 0;
        }
      },
    };
    const edges = checkRecords(ctx, schema);
    checkAdjacency(ctx, edges);
    const skipped: string[] = [];
    const bm25 = checkBm25(ctx);
    if (bm25 !== null) skipped.push(bm25);
    skipped.push(...checkVectors(ctx, schema, vectorIndex));
    task.advance(ticks);
    return { counts: ctx.counts, disagreements, skipped };
  } finally {
    transaction.done();
    task.finish();
  }
}
