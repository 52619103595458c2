// Opening a vector type's index from its checkpoint files: load the last saved HNSW index, then
// replay the changes LMDB logged after its generation (vector_log, written in each change's own
// transaction), so a restart after a crash costs the changes since the checkpoint, not a rebuild
// of every vector. Anything that does not fit — files of another state, a log that does not cover
// the gap, a replay that fails — is a reason to rebuild instead, never an error.
import type { Transaction } from "lmdb";
import type { StoreDbs } from "../store/dbs.js";
import { keyId, labelRange, type Key } from "../store/keys.js";
import { vectorFromLogBytes, type VectorLogEntry, type VectorTypeMeta } from "../store/vector-type-meta.js";
import { verifyIndexFiles } from "./index-files.js";
import type { VectorOptions } from "./metric.js";
import { VectorIndex, type IndexedVector } from "./vector-index.js";

export type CheckpointLoad = { ok: true; index: VectorIndex; replayed: number; savedGeneration: number } | { ok: false; reason: string };

/** The type's index as of LMDB's `meta`, from its checkpoint plus the logged changes since. */
export function loadCheckpoint(
  dbs: StoreDbs,
  dataDir: string,
  label: string,
  meta: VectorTypeMeta,
  options: VectorOptions,
  txn: Transaction | undefined,
  /** False for runtime/verify/, which reports a count that disagrees instead of refusing the files. */
  checkLive = true,
): CheckpointLoad {
  const { metric, m, efConstruction } = options;
  const verified = verifyIndexFiles(dataDir, { label, epoch: meta.epoch, dimension: meta.dimension, metric, m, efConstruction });
  if (!verified.ok) return verified;
  const stale = `stale: generation is ${verified.generation} in the file, ${meta.generation} expected`;
  if (verified.generation > meta.generation) return { ok: false, reason: stale };
  const changes = loggedChanges(dbs, label, verified.generation, meta.generation, txn);
  if (changes === null) return { ok: false, reason: `${stale}, and the vector log does not cover the difference` };
  const index = new VectorIndex(label, options);
  try {
    index.load(verified.indexPath, meta.dimension, slotsOf(dbs, label, txn));
    for (const entry of changes) {
      if (entry[0] === "a") index.replayAdd(entry[1], vectorFromLogBytes(entry[2]));
      else index.replayRemove(entry[1]);
    }
  } catch (error) {
    return { ok: false, reason: `replay failed: ${(error as Error).message}` };
  }
  index.epoch = meta.epoch;
  index.generation = meta.generation;
  if (checkLive && index.live !== meta.live)
    return { ok: false, reason: `${index.live} slots in vector_ids, ${meta.live} in vector_types` };
  return { ok: true, index, replayed: changes.length, savedGeneration: verified.generation };
}

/** The logged changes with generation in (after, upTo], in order; null unless every one is there. */
function loggedChanges(dbs: StoreDbs, label: string, after: number, upTo: number, txn: Transaction | undefined): VectorLogEntry[] | null {
  const out: VectorLogEntry[] = [];
  const range = { start: [label, after + 1] as Key, end: [label, upTo + 1] as Key, ...(txn ? { transaction: txn } : {}) };
  let expected = after + 1;
  for (const { key, value } of dbs.vectorLog.getRange(range)) {
    if (key[1] !== expected) return null;
    out.push(value);
    expected++;
  }
  return expected === upTo + 1 ? out : null;
}

/** (slot, id) of every vector of the type, in id order. */
export function* slotsOf(dbs: StoreDbs, label: string, txn: Transaction | undefined): Iterable<IndexedVector> {
  for (const { key, value } of dbs.vectorIds.getRange({ ...labelRange(label), ...(txn ? { transaction: txn } : {}) }))
    yield { slot: value, id: keyId(key) };
}
