// The meta "bm25" marker: how the keyword index was built (stemmer, text fields per type). An open
// whose configuration differs from it, or finds none, rebuilds the index (bm25-index.ts isCurrent).
import type { StoreDbs } from "../store/dbs.js";
import { BM25_MARKER_KEY } from "../store/keys.js";

/** The BM25 configuration the keyword index was (re)built with. */
export function writeBm25Marker(dbs: StoreDbs, marker: string): void {
  dbs.meta.putSync(BM25_MARKER_KEY, marker);
}

/** The keyword index no longer describes the records: the next open with BM25 enabled rebuilds it. */
export function forgetBm25Marker(dbs: StoreDbs): void {
  if (dbs.meta.get(BM25_MARKER_KEY) !== undefined) dbs.meta.removeSync(BM25_MARKER_KEY);
}
