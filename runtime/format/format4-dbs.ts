// The databases whose keys (or id values) format 5 made binary (store/keys.ts), opened the way the
// format-4 code and every older one wrote them: ordered-binary array keys holding ids as text,
// msgpack values. Only the format migration reads and writes through these: the steps up to 4
// (runtime/write/format1..3-migration.ts) work on that layout, and the 4 → 5 step converts it.
// They are second handles on the same LMDB databases as StoreDbs', and like those they read keys
// as their bytes: a handle with lmdb's ordered-binary key encoding would set its own comparison
// function on the database (lmdb-js's compareFast, which expects the zero padding only that
// encoding writes after a key) for every handle of the process, and lookups through the binary
// handles would then miss. The older keys are built and parsed here instead (format4ItemKey).
import type { Database } from "lmdb";
import type { EdgeItem, NodeItem } from "../../core/items.js";
import type { StoreDbs } from "../store/dbs.js";
import { withF32Vectors } from "../store/vector-encoding.js";

export interface Format4Dbs {
  /** Records keyed as format4ItemKey; vectors read and written as StoreDbs' `nodes` does (f32). */
  readonly nodes: Database<NodeItem, Uint8Array>;
  readonly edges: Database<EdgeItem, Uint8Array>;
}

const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder();

/** The ordered-binary bytes of [label, id] as format 4 stored them: label, 0x00, the id's 36 characters. */
export function format4ItemKey(label: string, id: string): Uint8Array {
  return utf8.encode(`${label}\u0000${id}`);
}

/** The label of a format4ItemKey (its bytes before the first 0x00). */
export function format4KeyLabel(key: Uint8Array): string {
  const sep = key.indexOf(0);
  return utf8Decoder.decode(sep < 0 ? key : key.subarray(0, sep));
}

const OPENED = new WeakMap<StoreDbs, Format4Dbs>();

export function format4Dbs(dbs: StoreDbs): Format4Dbs {
  let opened = OPENED.get(dbs);
  if (opened === undefined) {
    const plainMaps: object = { encoder: { useRecords: false } };
    const options = { keyEncoding: "binary", ...plainMaps } as const;
    const nodes = dbs.env.openDB<NodeItem, Uint8Array>({ name: "nodes", ...options });
    withF32Vectors(nodes);
    opened = { nodes, edges: dbs.env.openDB<EdgeItem, Uint8Array>({ name: "edges", ...options }) };
    OPENED.set(dbs, opened);
  }
  return opened;
}

/**
 * A format-3 or older step's resume point as bytes: the code before format 5 recorded an
 * interrupted step's last key as the array [label, id] (lmdb decoded it), this code as its bytes.
 */
export function format4ResumeKey(after: unknown): Uint8Array | null {
  if (after === null || after === undefined) return null;
  if (after instanceof Uint8Array) return after;
  if (Array.isArray(after) && after.length === 2) return format4ItemKey(String(after[0]), String(after[1]));
  throw new Error(`a format migration marker names the key ${JSON.stringify(after)}, which this version cannot resume from`);
}
