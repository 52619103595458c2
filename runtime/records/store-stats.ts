// What the store holds, for monitoring (`GET /metrics`): file size, records per type, and the
// sizes of the vector and keyword indexes. Reads one snapshot. Record counts walk the keys of each
// type (keys only, no values decoded), so the cost grows with the store; callers cache the answer.
import { statSync } from "node:fs";
import { join } from "node:path";
import type { SchemaDescriptor } from "../../core/schema.js";
import { edgeCount } from "./edge-records.js";
import type { StoreDbs } from "../store/dbs.js";
import { labelRange } from "../store/keys.js";

export interface TypeCount {
  kind: "N" | "E" | "V";
  type: string;
  count: number;
}

export interface StoreStats {
  /** Size of data.mdb on disk, in bytes. */
  fileBytes: number;
  /** Bytes of the file in use (LMDB pages up to the last one written). */
  usedBytes: number;
  records: TypeCount[];
  /** Live vectors of each vector type in its HNSW index. */
  vectors: { type: string; count: number; dimension: number }[];
  /** Documents and their total tokens of each type with a BM25 index. */
  bm25: { type: string; docs: number; tokens: number }[];
}

interface EnvStats {
  pageSize?: number;
  lastPageNumber?: number;
}

export function storeStats(dbs: StoreDbs, schema: SchemaDescriptor): StoreStats {
  const count = (db: StoreDbs["nodes"], label: string): number => db.getKeysCount(labelRange(label));
  const records: TypeCount[] = [
    ...schema.nodes.map((t) => ({ kind: "N" as const, type: t.name, count: count(dbs.nodes, t.name) })),
    ...schema.vectors.map((t) => ({ kind: "V" as const, type: t.name, count: count(dbs.nodes, t.name) })),
    ...schema.edges.map((t) => ({ kind: "E" as const, type: t.name, count: edgeCount(dbs, t.name, undefined) })),
  ];
  const vectors = schema.vectors.map((t) => {
    const meta = dbs.vectorTypes.get([t.name]);
    return { type: t.name, count: meta?.live ?? 0, dimension: meta?.dimension ?? 0 };
  });
  const bm25: StoreStats["bm25"] = [];
  for (const { key, value } of dbs.bm25Stats.getRange({})) {
    // A one-element key reads back as its element.
    const type = Array.isArray(key) ? key[0] : key;
    bm25.push({ type: String(type), docs: value.docs, tokens: value.tokens });
  }
  const env = dbs.env.getStats() as EnvStats;
  const usedBytes = (env.pageSize ?? 0) * ((env.lastPageNumber ?? -1) + 1);
  return { fileBytes: fileSize(join((dbs.env as unknown as { path: string }).path, "data.mdb")), usedBytes, records, vectors, bm25 };
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
