// The on-disk layout as data: one row per (database, key shape). docs/ARCHITECTURE.md's table
// of the layout is rendered from these rows and test/docs.test.ts fails when the two differ, or
// when a database that dbs.ts opens (DB_NAMES) has no row here, so the description cannot drift
// from the code. The key constructors themselves are in keys.ts; encodings are lmdb's defaults
// (ordered-binary keys, msgpack values) unless a row says otherwise. Ids are 16 bytes wherever a
// key or an id value holds one (format 5); records hold them as text (the wire form).
import type { DB_NAMES } from "./keys.js";

export type DbName = (typeof DB_NAMES)[number];

export interface KeyLayoutRow {
  readonly db: DbName;
  /** The key's shape: an array key's elements, or a string constant. */
  readonly key: string;
  readonly value: string;
}

export const KEY_LAYOUT: readonly KeyLayoutRow[] = [
  { db: "meta", key: '`"format"`', value: "the format version (FORMAT_VERSION, 5; a format-1, -2, -3 or -4 store is migrated at open)" },
  {
    db: "meta",
    key: '`"format_migration"`',
    value: "`{from, to, phase, after}` while a format migration is unfinished: where it resumes (absent otherwise)",
  },
  { db: "meta", key: '`"schema_version"`', value: "the `schema::N` the data is at (versioned projects)" },
  {
    db: "meta",
    key: '`"schema_types"`',
    value:
      '`{format: 1, types: {"N::T": definition, ..}}`: each type as its records were last checked against (a bare `types` map, written before `format` existed, reads as format 1)',
  },
  { db: "meta", key: '`"bm25"`', value: "how the keyword index was built (stemmer, text fields per type)" },
  {
    db: "meta",
    key: '`"log_hollow"`',
    value:
      "the newest sequence whose commit-log entry is hollow (a write recorded while no follower needed it: its sequence, none of its changes); a follower behind it seeds again (absent: none)",
  },
  {
    db: "nodes",
    key: "binary: label (UTF-8), 0x00, nodeId (16 bytes)",
    value:
      "node (or vector) record in wire form `{id, label, ...fields}`; a vector record's vector (`data` or its `embedding` field) is a binary of f32 little-endian components",
  },
  {
    db: "edges",
    key: "binary: label (UTF-8), 0x00, edgeId (16 bytes)",
    value: "edge record `{id, label, from_node, to_node, ...fields}`, only for an edge with at least one field value",
  },
  {
    db: "edge_ends",
    key: "binary: label (UTF-8), 0x00, the block's first edgeId (16 bytes)",
    value:
      "binary: a block of 1 to 16 entries of 32 bytes (edge id, from node id; 16 bytes each) sorted by edge id: the edges without field values, which have this instead of a record (their to node is in the out list)",
  },
  {
    db: "adjacency_out",
    key: "binary: fromId (16 bytes), edgeLabel (UTF-8)",
    value: "binary: `n` (u32 LE, the full chunks before it), then up to 32 entries of 32 bytes (edge id, to node id; 16 bytes each)",
  },
  {
    db: "adjacency_out",
    key: "binary: fromId (16 bytes), edgeLabel (UTF-8), 0x00, `i` (u32 BE), `i < n`",
    value: "binary: 32 full entries (1024 bytes)",
  },
  { db: "adjacency_in", key: "the same with toId", value: "the same, listing incoming edges (edge id, from node id)" },
  {
    db: "adjacency_in_pending",
    key: "binary: toId (16 bytes), edgeLabel (UTF-8), 0x00, edgeId (16 bytes)",
    value:
      "binary: the from node's id (16 bytes): an incoming entry not yet folded into its `adjacency_in` list, which readers see after the list's stored entries; folded a slice of whole lists at a time by the writes that find enough pending (adjacency/pending-in.ts)",
  },
  {
    db: "index",
    key: "binary: `[kind, type, field, indexValue]` (ordered-binary), 0x00, itemId (16 bytes)",
    value: "`null` (one entry per item, for `INDEX` fields)",
  },
  { db: "unique", key: "`[kind, type, field, indexValue]`", value: "binary: itemId (16 bytes; for `UNIQUE INDEX` fields)" },
  {
    db: "edge_unique",
    key: "binary: edgeLabel (UTF-8), 0x00, fromId (16 bytes), toId (16 bytes)",
    value: "binary: edgeId (16 bytes; edge types declared `UNIQUE`)",
  },
  { db: "vector_types", key: "`[vectorLabel]`", value: "`{epoch, dimension, nextSlot, live, generation}`" },
  {
    db: "vector_ids",
    key: "binary: vectorLabel (UTF-8), 0x00, vectorId (16 bytes)",
    value: "slot: the vector's integer label in the HNSW index",
  },
  {
    db: "vector_log",
    key: "`[vectorLabel, generation]`",
    value: '`["a", slot, f32 bytes]` (add) or `["r", slot]` (drop): the changes after the saved HNSW checkpoint, replayed at open',
  },
  {
    db: "bm25_post",
    key: "`[label, term, firstDocNo]`, `[label, term, 2^32]`",
    value: "binary: a block of (docNo, tf, length) u32 triples; the block keyed 2^32 is the tail",
  },
  { db: "bm25_docs", key: "binary: label (UTF-8), 0x00, nodeId (16 bytes)", value: "`[docNo, length]`" },
  { db: "bm25_ids", key: "`[label, docNo]`", value: "binary: nodeId (16 bytes)" },
  { db: "bm25_stats", key: "`[label]`", value: "`{docs, tokens, nextDocNo}` of the type" },
  {
    db: "idempotency",
    key: '`["k", key]`',
    value:
      "`{h, t, r}`: the answer of a write sent with this Idempotency-Key: the request's hash, when (epoch ms), the query's result; stored in the write's transaction, replicated with it (idempotency/answers.ts)",
  },
  { db: "idempotency", key: '`["t", t, key]`', value: "`null`: the answers in time order, for the sweep of those older than the window" },
  {
    db: "commit_log",
    key: "`seq` (a number, 1, 2, ..)",
    value:
      "`{t, ops, b, vec, keys}`: one write transaction's changes: `t` its commit time (ms), `ops` the final `[db, key, value]` (put) or `[db, key]` (remove) of every key it changed outside the binary databases (`db` as `StoreDbs` names it), `b` (when any) the changes of `edge_ends`, the adjacency lists and the pending incoming entries in the order made, packed (commit-log/binary-ops.ts): puts, removals, a list's append (the entries appended), a fold of every pending incoming entry or of a slice of them (after the write's own pending puts), `vec` the in-memory vector index changes, `keys` the read-cache keys it touched but the adjacency lists' (a follower names those from the ops on their keys); oldest entries trimmed by the retention, never the newest: its key is the store's sequence (replication). A hollow entry (`ops`, `vec`, `keys` empty, no `b`, its sequence at or below meta `log_hollow`) stands for a write no follower needed",
  },
];
