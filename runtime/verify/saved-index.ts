// A vector type's HNSW index as its saved files hold it (<data>/vectors/), for verifying a data
// directory without opening the store. The files are a cache: when they do not describe LMDB's
// current state the next open rebuilds them, so there is nothing of theirs to compare.
import type { StoreDbs } from "../store/dbs.js";
import { MAX_KEY, type Key } from "../store/keys.js";
import type { VectorTypeMeta } from "../store/vector-type-meta.js";
import { readIndexFileMeta, verifyIndexFiles } from "../vector/index-files.js";
import { DEFAULT_VECTOR_OPTIONS } from "../vector/metric.js";
import { VectorIndex, type IndexedVector, type VectorIndexContents } from "../vector/vector-index.js";

/** The saved index's contents, or why the files are not compared. */
export function savedIndexContents(dbs: StoreDbs, dataDir: string, label: string, meta: VectorTypeMeta): VectorIndexContents | string {
  const saved = readIndexFileMeta(dataDir, label);
  const unused = (reason: string): string => `saved files not compared (${reason}); the next open rebuilds them`;
  if (typeof saved === "string") return unused(saved);
  // The parameters are the files' own: a store opened with others rebuilds too.
  const { metric, m, efConstruction } = saved;
  const verified = verifyIndexFiles(dataDir, {
    label,
    epoch: meta.epoch,
    generation: meta.generation,
    dimension: meta.dimension,
    live: meta.live,
    metric,
    m,
    efConstruction,
  });
  if (!verified.ok) return unused(verified.reason);
  const index = new VectorIndex(label, { ...DEFAULT_VECTOR_OPTIONS, metric, m, efConstruction });
  index.load(verified.indexPath, meta.dimension, slots(dbs, label));
  index.epoch = meta.epoch;
  index.generation = meta.generation;
  return index.contents();
}

function* slots(dbs: StoreDbs, label: string): Iterable<IndexedVector> {
  const start: Key = [label];
  const end: Key = [label, MAX_KEY];
  for (const { key, value } of dbs.vectorIds.getRange({ start, end })) yield { slot: value, id: key[1] as string };
}
