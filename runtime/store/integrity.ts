// What an integrity check (verify/verify.ts) finds: each disagreement between two things the store keeps
// in step, as a value, and counts of what was checked.
import type { Database, RangeOptions, Transaction } from "lmdb";
import type { EdgeItem } from "../../core/items.js";
import { decodedRange } from "./decoded-range.js";
import type { StoreDbs } from "./dbs.js";
import { type Key, parseEdgeUniqueKey, parseIndexKey, parseItemKey } from "./keys.js";

export type VerifyCheck =
  | "record" // a record's key, label or type
  | "endpoint" // an edge's from / to node
  | "index" // INDEX entries
  | "unique" // UNIQUE INDEX claims
  | "edge-unique" // the (from, to) claims of UNIQUE edge types
  | "adjacency" // the out / in lists
  | "bm25-doc" // bm25_docs and bm25_ids
  | "bm25-stats" // bm25_stats
  | "bm25-posting" // bm25_post
  | "vector-slot" // vector_ids and vector_types
  | "vector-index"; // the HNSW index

export interface Disagreement {
  check: VerifyCheck;
  /** The LMDB entry that is wrong or missing: its database and JSON key, e.g. `index ["N","User","age",30,"0192…"]`. */
  key: string;
  message: string;
}

export interface VerifyCounts {
  nodes: number;
  edges: number;
  vectors: number;
  indexEntries: number;
  uniqueClaims: number;
  adjacencyEntries: number;
  bm25Documents: number;
  bm25Postings: number;
  /** Vector types whose HNSW index was compared with LMDB. */
  vectorIndexes: number;
}

export interface VerifyReport {
  counts: VerifyCounts;
  /** In check order, then key order; empty when the store is consistent. */
  disagreements: Disagreement[];
  /** What could not be checked, and why (not disagreements). */
  skipped: string[];
}

/** An edge as the records check found it, for the checks of what describes edges (adjacency). */
export type StoredEdge = Pick<EdgeItem, "id" | "label" | "from_node" | "to_node">;

/** One consistent snapshot of the store, and where findings go. */
export interface CheckContext {
  readonly dbs: StoreDbs;
  /** Read options for that snapshot (a fresh object on every access). */
  readonly read: { transaction: Transaction };
  readonly counts: VerifyCounts;
  /** `key` as stored (a binary key is named by its parts, readableKey) or as its parts. */
  report(check: VerifyCheck, db: string, key: Key | Uint8Array, message: string): void;
  /** One more stored entry read (for progress). */
  tick(): void;
}

/** lmdb reads a one-element key back as the element itself ([label] as "User"). */
export function keyParts(key: Key | Key[number]): Key {
  return Array.isArray(key) ? key : [key as Key[number]];
}

/** A binary key (keys.ts) of `db` as its parts, e.g. [label, id]; one that does not parse as its hex. */
export function readableKey(db: string, key: Uint8Array): Key {
  try {
    if (db === "index") {
      const { kind, type, field, value, id } = parseIndexKey(key);
      return [kind, type, field, value, id] as Key;
    }
    if (db === "edge_unique") {
      const { label, from, to } = parseEdgeUniqueKey(key);
      return [label, from, to];
    }
    if (db === "nodes" || db === "edges" || db === "edge_ends" || db === "vector_ids" || db === "bm25_docs") {
      const { label, id } = parseItemKey(key);
      return [label, id];
    }
  } catch {
    // not a well-formed key: its bytes
  }
  return [Buffer.from(key).toString("hex")];
}

export function entryName(db: string, key: Key | Uint8Array): string {
  return `${db} ${JSON.stringify(key instanceof Uint8Array ? readableKey(db, key) : keyParts(key))}`;
}

/** "1 node, 2 edges, …" for the one-line summary. */
export function describeCounts(c: VerifyCounts): string {
  const n = (count: number, one: string, many: string): string => `${count} ${count === 1 ? one : many}`;
  return [
    n(c.nodes, "node", "nodes"),
    n(c.edges, "edge", "edges"),
    n(c.vectors, "vector", "vectors"),
    n(c.indexEntries, "index entry", "index entries"),
    n(c.uniqueClaims, "unique claim", "unique claims"),
    n(c.adjacencyEntries, "adjacency entry", "adjacency entries"),
    n(c.bm25Documents, "bm25 document", "bm25 documents"),
    n(c.bm25Postings, "posting", "postings"),
    n(c.vectorIndexes, "vector index", "vector indexes"),
  ].join(", ");
}

/**
 * The entries of `db` in `range` (this snapshot's read options): a value whose bytes do not decode
 * (decoded-range.ts) is reported under `check`, naming its key, when `report` names the database
 * (else skipped: another check reports it), and the check goes on.
 */
export function decodedEntries<V, K extends Key | Uint8Array>(
  ctx: CheckContext,
  db: Database<V, K>,
  range: RangeOptions,
  report?: { readonly check: VerifyCheck; readonly db: string },
): Generator<{ key: K; value: V }> {
  return decodedRange(db, range, (key, error) => {
    if (report !== undefined)
      ctx.report(report.check, report.db, key, `a value that does not decode (${error.message}): its bytes are damaged`);
  });
}
