// The ids a store already holds, put into an import's id table (loaded-ids.ts) before its first
// record: with them there, an import into a directory that holds records answers "id taken?" and
// "endpoint present with the declared type?" from the table, exactly, like an import into an
// empty one, instead of asking LMDB once per type for every record (about 17x the time per edge
// in bench/README.md). Read inside the load's write transaction: the
// record keys of `nodes` and `edges` under each label of the schema (their last 16 bytes are the
// id) and each entry of the `edge_ends` blocks (its first 16 bytes).
import { ENDS_ENTRY, edgeEndsRange } from "../records/edge-ends.js";
import type { StoreDbs } from "../store/dbs.js";
import { ID_BYTES } from "../store/id-bytes.js";
import { labelRange } from "../store/keys.js";
import { readUuidWords } from "../store/id-words.js";
import type { LoadedIds } from "./loaded-ids.js";

/** Labels with their tags in the table: node and vector types (in `nodes`), edge types. */
export interface TaggedLabels {
  readonly items: ReadonlyMap<string, number>;
  readonly edges: ReadonlyMap<string, number>;
}

/**
 * Adds every id the store holds under a label of `labels` to `loaded`, with its label's tag;
 * `expected` ids in all (the table is sized for them first). Stops early when the table is full
 * (`loaded.complete` then says so).
 */
export function addStoredIds(dbs: StoreDbs, labels: TaggedLabels, loaded: LoadedIds, expected: number): void {
  loaded.reserve(loaded.size + expected);
  const words = new Int32Array(4);
  const addKeyId = (key: Uint8Array, tag: number): void => {
    readUuidWords(key, key.length - ID_BYTES, words, 0);
    loaded.addWords(words, 0, tag);
  };
  for (const [label, tag] of labels.items) {
    for (const key of dbs.nodes.getKeys(labelRange(label))) {
      addKeyId(key, tag);
      if (!loaded.complete) return;
    }
  }
  for (const [label, tag] of labels.edges) {
    for (const key of dbs.edges.getKeys(labelRange(label))) {
      addKeyId(key, tag);
      if (!loaded.complete) return;
    }
    for (const { value } of dbs.edgeEnds.getRange(edgeEndsRange(label))) {
      for (let at = 0; at + ENDS_ENTRY <= value.length; at += ENDS_ENTRY) {
        readUuidWords(value, at, words, 0);
        loaded.addWords(words, 0, tag);
      }
      if (!loaded.complete) return;
    }
  }
}
