// A vector type's HNSW index as its saved checkpoint holds it (<data>/vectors/) plus the changes
// LMDB logged since — what the next open would load — for verifying a data directory without
// opening the store. When the files cannot be used the next open rebuilds them from LMDB, so
// there is nothing of theirs to compare.
import type { StoreDbs } from "../store/dbs.js";
import type { VectorTypeMeta } from "../store/vector-type-meta.js";
import { readIndexFileMeta } from "./index-files.js";
import { loadCheckpoint } from "./index-load.js";
import { DEFAULT_VECTOR_OPTIONS } from "./metric.js";
import type { VectorIndexContents } from "./vector-index.js";

/** The saved index's contents (checkpoint + replayed log), or why the files are not compared. */
export function savedIndexContents(dbs: StoreDbs, dataDir: string, label: string, meta: VectorTypeMeta): VectorIndexContents | string {
  const saved = readIndexFileMeta(dataDir, label);
  const unused = (reason: string): string => `saved files not compared (${reason}); the next open rebuilds them`;
  if (typeof saved === "string") return unused(saved);
  // The parameters are the files' own: a store opened with others rebuilds too.
  const { metric, m, efConstruction } = saved;
  const loaded = loadCheckpoint(dbs, dataDir, label, meta, { ...DEFAULT_VECTOR_OPTIONS, metric, m, efConstruction }, undefined, false);
  if (!loaded.ok) return unused(loaded.reason);
  return loaded.index.contents();
}
