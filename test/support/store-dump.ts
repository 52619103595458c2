// The exact on-disk state of a store's graph databases, and the state store/keys.ts and adjacency/lists.ts say
// a given set of records must have, so tests can compare the two entry for entry.
import type { EdgeItem, NodeItem } from "../../core/items.js";
import {
  adjacencyEntry,
  CHUNK,
  chunkKey,
  joinEntries,
  listKey,
  readAdjacency,
  splitAdjacency,
  tailValue,
} from "../../runtime/adjacency/lists.js";
import type { StoreDbs } from "../../runtime/store/dbs.js";
import { ENDS_ENTRY, edgeEndsKey, parseEdgeEndsKey } from "../../runtime/records/edge-ends.js";
import { edgeById, edgeHasFields } from "../../runtime/records/edge-records.js";
import { idBytes } from "../../runtime/store/id-bytes.js";
import type { GraphStore } from "../../runtime/graph-store.js";
import { edgeUniqueKey, idValue, indexKey, itemKey, uniqueKey, type Key } from "../../runtime/store/keys.js";
import { parsePendingKey, readList } from "../../runtime/adjacency/pending-in.js";
import { readIdBytes } from "../../runtime/store/id-bytes.js";
import type { TypeInfo } from "../../runtime/store/schema-info.js";

const DUMPED = ["nodes", "edges", "edgeEnds", "out", "in", "index", "unique", "edgeUnique"] as const;
type Dumped = (typeof DUMPED)[number];

/** db name → JSON of the key → value. */
export type StoreDump = Record<Dumped, Record<string, unknown>>;

function empty(): StoreDump {
  return { nodes: {}, edges: {}, edgeEnds: {}, out: {}, in: {}, index: {}, unique: {}, edgeUnique: {} };
}

const k = (key: Key): string => JSON.stringify(key);
const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString("hex");

/**
 * Every committed entry (the store's handles are private: tests reach in on purpose). Incoming
 * entries still pending (runtime/adjacency/pending-in.ts) are shown in their lists, as the fold will
 * leave them (readers see the same): the dump is the store's graph whenever it is folded, and
 * `pendingIn` says how many were pending.
 */
export function dumpStore(store: GraphStore): StoreDump {
  return dumpStoreWithPending(store).dump;
}

export function dumpStoreWithPending(store: GraphStore): { dump: StoreDump; pendingIn: number } {
  const dbs = (store as unknown as { dbs: StoreDbs }).dbs;
  const dump = rawDump(dbs);
  const lists = new Map<string, [string, string]>();
  let pendingIn = 0;
  for (const key of dbs.inPending.getKeys({})) {
    const list: [string, string] = [readIdBytes(key, 0), parsePendingKey(key).label];
    lists.set(k(list), list);
    pendingIn++;
  }
  for (const [nodeId, label] of lists.values()) {
    const stored = readAdjacency(dbs.in, nodeId, label, undefined);
    for (let i = 0; i * CHUNK * 32 < stored.length; i++) delete dump.in[hex(chunkKey(nodeId, label, i))];
    const entries = readList(dbs, "in", nodeId, label, undefined);
    const parts: Uint8Array[] = [];
    for (let off = 0; off < entries.length; off += 32) parts.push(entries.subarray(off, off + 32));
    putList(dump.in, nodeId, label, parts);
  }
  return { dump, pendingIn };
}

function rawDump(dbs: StoreDbs): StoreDump {
  const out = empty();
  for (const name of DUMPED) {
    for (const { key, value } of (dbs[name] as unknown as StoreDbs["nodes"]).getRange({})) {
      if (name === "edgeEnds") {
        // Blocks (edge-ends.ts) depend on the order of the writes: each edge is shown as its own entry.
        const { label } = parseEdgeEndsKey(key as unknown as Uint8Array);
        const block = value as unknown as Uint8Array;
        for (let at = 0; at < block.length; at += ENDS_ENTRY) {
          out.edgeEnds[hex(edgeEndsKey(label, block.subarray(at, at + 16)))] = hex(block.subarray(at + 16, at + ENDS_ENTRY));
        }
        continue;
      }
      // Binary keys (edge_ends, adjacency) and values (adjacency, edge_ends) are compared as hex.
      const shown = key instanceof Uint8Array ? Buffer.from(key).toString("hex") : k(key);
      out[name][shown] = value instanceof Uint8Array ? Buffer.from(value).toString("hex") : value;
    }
  }
  return out;
}

function putIndexes(dump: StoreDump, info: TypeInfo, rec: NodeItem): void {
  for (const field of info.indexed) {
    const v = rec[field.name];
    if (v === undefined) continue;
    if (field.descriptor.index === "unique") dump.unique[k(uniqueKey(info.kind, info.name, field.name, v))] = hex(idValue(rec.id));
    else dump.index[hex(indexKey(info.kind, info.name, field.name, v, rec.id))] = null;
  }
}

/** Full chunks of CHUNK entries, then the tail (sealed count + rest), as appendAdjacency leaves them. */
function putList(target: Record<string, unknown>, nodeId: string, label: string, entries: Uint8Array[]): void {
  const sealed = Math.floor(entries.length / CHUNK);
  for (let i = 0; i < sealed; i++) target[hex(chunkKey(nodeId, label, i))] = hex(joinEntries(entries.slice(i * CHUNK, (i + 1) * CHUNK)));
  target[hex(listKey(nodeId, label))] = hex(tailValue(sealed, joinEntries(entries.slice(sealed * CHUNK))));
}

/** The state the layout invariants require for exactly these nodes and edges. */
export function expectedDump(store: GraphStore, nodes: Iterable<NodeItem>, edges: Iterable<EdgeItem>): StoreDump {
  const dump = empty();
  for (const n of nodes) {
    dump.nodes[hex(itemKey(n.label, n.id))] = n;
    putIndexes(dump, store.schema.node(n.label), n);
  }
  const byId = [...edges].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const outs = new Map<string, Uint8Array[]>();
  const ins = new Map<string, Uint8Array[]>();
  const push = (m: Map<string, Uint8Array[]>, key: string, entry: Uint8Array) => {
    const list = m.get(key);
    if (list) list.push(entry);
    else m.set(key, [entry]);
  };
  for (const e of byId) {
    const info = store.schema.edge(e.label);
    if (edgeHasFields(e)) dump.edges[hex(itemKey(e.label, e.id))] = e;
    else dump.edgeEnds[hex(edgeEndsKey(e.label, e.id))] = hex(idBytes(e.from_node));
    putIndexes(dump, info, e);
    if (info.unique) dump.edgeUnique[hex(edgeUniqueKey(e.label, e.from_node, e.to_node))] = hex(idValue(e.id));
    push(outs, k([e.from_node, e.label]), adjacencyEntry(e.id, e.to_node));
    push(ins, k([e.to_node, e.label]), adjacencyEntry(e.id, e.from_node));
  }
  for (const [key, entries] of outs) {
    const [nodeId, label] = JSON.parse(key) as [string, string];
    putList(dump.out, nodeId, label, entries);
  }
  for (const [key, entries] of ins) {
    const [nodeId, label] = JSON.parse(key) as [string, string];
    putList(dump.in, nodeId, label, entries);
  }
  return dump;
}

/**
 * Keys of the store's read cache whose value differs from what the database now holds (the
 * cache invariant says: none, once every write has settled). Reaches into private state.
 */
export function staleCacheEntries(store: GraphStore): string[] {
  const dbs = (store as unknown as { dbs: StoreDbs }).dbs;
  const entries = (store as unknown as { cache: { entries: Map<string, { value: unknown }> } }).cache.entries;
  const stale: string[] = [];
  for (const [key, { value }] of entries) {
    let now: unknown;
    if (key.startsWith("\u0000")) {
      const sep = key.indexOf("\u0000", 1);
      const label = key.slice(2, sep);
      const nodeId = key.slice(sep + 1);
      now = splitAdjacency(readList(dbs, key[1] === "O" ? "out" : "in", nodeId, label, undefined));
    } else {
      const rec = value as NodeItem;
      now = dbs.nodes.get(itemKey(rec.label, key)) ?? edgeById(dbs, rec.label, key, undefined);
    }
    if (JSON.stringify(now) !== JSON.stringify(value)) stale.push(JSON.stringify(key));
  }
  return stale;
}
