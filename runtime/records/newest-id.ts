// The newest UUID v7 a store holds, so that the ids this process generates sort after it even
// when the clock is now behind the one that wrote it (a clock set back, a VM restored, a store
// copied from a machine whose clock ran ahead). Ids sort in creation order only because each is
// greater than every earlier one: label ranges, `edge_ends` appends and the order of pending
// `in` entries rely on it. Read at open: one reverse seek per label and database; and again when a
// replica is promoted (GraphStore.keepNewIdsAfterStored), since the entries it applied carry ids
// its old leader's clock made. An id more than a day ahead of the clock is not trusted (ids.ts).
import { readIdBytes } from "../store/id-bytes.js";
import type { StoreDbs } from "../store/dbs.js";
import { ENDS_ENTRY, lastBlock } from "./edge-ends.js";
import { keyId, labelRange } from "../store/keys.js";
import type { SchemaInfo } from "../store/schema-info.js";

/** A UUID v7 as this process writes it (lower case): its version nibble. */
const isV7 = (id: string): boolean => id[14] === "7";

/**
 * The greatest UUID v7 among the last id of every label (nodes, vectors, edge records, edges
 * without a record), or null. A label whose last id is not a v7 (ids imported from elsewhere) is
 * skipped: its ids carry no creation time.
 */
export function newestStoredId(dbs: StoreDbs, schema: SchemaInfo): string | null {
  let newest: string | null = null;
  const consider = (id: string): void => {
    if (isV7(id) && (newest === null || id > newest)) newest = id;
  };
  const lastKey = (db: StoreDbs["nodes"] | StoreDbs["edges"], label: string): void => {
    const { start, end } = labelRange(label);
    for (const key of db.getKeys({ start: end, end: start, reverse: true, limit: 1 })) consider(keyId(key as Uint8Array));
  };
  for (const label of [...schema.nodes.keys(), ...schema.vectors.keys()]) lastKey(dbs.nodes, label);
  for (const label of schema.edges.keys()) {
    lastKey(dbs.edges, label);
    const block = lastBlock(dbs.edgeEnds, label);
    if (block !== null) consider(readIdBytes(block.entries, block.entries.length - ENDS_ENTRY));
  }
  return newest;
}
