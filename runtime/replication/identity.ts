// The identity of a store's meaning (protocol.ts StoreIdentity): a replica must hold data written
// under the same schema and store settings as its leader, or the entries it applies would not
// mean what its queries expect.
import { createHash } from "node:crypto";
import type { SchemaDescriptor } from "../../core/schema.js";
import { LOG_OPS_VERSION } from "../commit-log/log-entries.js";
import { FORMAT_VERSION } from "../store/keys.js";
import { describeIdentity, type StoreIdentity } from "./protocol.js";

export interface IdentitySettings {
  bm25: boolean;
  bm25Stemmer: string;
  vector: { m: number; efConstruction: number; efSearch: number; metric: string };
}

export function storeIdentity(schema: SchemaDescriptor, settings: IdentitySettings, strand: string): StoreIdentity {
  const { bm25, bm25Stemmer, vector } = settings;
  // LOG_OPS_VERSION is in the fingerprint because a replica of every version compares it: one
  // whose Strand cannot apply what its leader logs refuses to follow, instead of failing on a fold
  // of a slice or, worse, applying entries without their packed part (log-entries.ts).
  const text = JSON.stringify({
    schema,
    bm25,
    bm25Stemmer,
    vector: [vector.m, vector.efConstruction, vector.metric],
    ...(LOG_OPS_VERSION > 1 ? { log: LOG_OPS_VERSION } : {}),
  });
  return {
    format: FORMAT_VERSION,
    schemaVersion: schema.version ?? null,
    fingerprint: createHash("sha256").update(text).digest("hex").slice(0, 16),
    strand,
  };
}

/** Null when a replica of `mine` may follow a leader of `leader`; else why not. */
export function identityMismatch(mine: StoreIdentity, leader: StoreIdentity): string | null {
  if (mine.format === leader.format && mine.fingerprint === leader.fingerprint && mine.schemaVersion === leader.schemaVersion) return null;
  return `the leader serves ${describeIdentity(leader)}, this replica ${describeIdentity(mine)}: deploy the leader's project version here (the same .hx files and strand.toml${leader.schemaVersion === null ? "" : `, schema::${leader.schemaVersion}`}) and the leader's Strand version, and start it again`;
}
