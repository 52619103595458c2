// Answers of writes sent with an Idempotency-Key (server/http/idempotency-key.ts): stored in the
// same transaction as the write they answer, so they survive kill -9 with it and reach replicas
// through the commit log with it (the `idempotency` database is recorded like any other). Keys:
//   ["k", key]      → { h: the request's hash, t: when (epoch ms), r: the query's result }
//   ["t", t, key]   → null, in time order: what the sweep of expired answers walks
// An answer older than the window counts as absent even before the sweep removes it.
import type { Transaction } from "lmdb";
import type { StoredAnswer } from "../../core/query-context.js";
import type { StoreDbs } from "../store/dbs.js";

/** Expired answers a write removes at most, so one write never pays for a day's backlog. */
const SWEEP_PER_WRITE = 16;

interface Entry {
  h: string;
  t: number;
  r: unknown;
}

/** The answer stored under `key` at or after `notBefore`, if any. */
export function storedAnswer(dbs: StoreDbs, key: string, notBefore: number, opts?: { transaction: Transaction }): StoredAnswer | undefined {
  const entry = dbs.idempotency.get(["k", key], opts) as Entry | null | undefined;
  if (entry === undefined || entry === null || entry.t < notBefore) return undefined;
  return { hash: entry.h, at: entry.t, result: entry.r };
}

/**
 * Stores `answer` under `key` (replacing an expired one), and removes up to SWEEP_PER_WRITE
 * answers stored before `expiredBefore`. `dbs`: the write's (recorded) databases.
 */
export function rememberAnswer(dbs: StoreDbs, key: string, answer: StoredAnswer, expiredBefore: number): void {
  sweep(dbs, expiredBefore);
  const old = dbs.idempotency.get(["k", key]) as Entry | null | undefined;
  if (old !== undefined && old !== null) dbs.idempotency.removeSync(["t", old.t, key]);
  const entry: Entry = { h: answer.hash, t: answer.at, r: answer.result };
  dbs.idempotency.putSync(["k", key], entry);
  dbs.idempotency.putSync(["t", answer.at, key], null);
}

function sweep(dbs: StoreDbs, expiredBefore: number): void {
  const expired = [...dbs.idempotency.getKeys({ start: ["t"], end: ["t", expiredBefore], limit: SWEEP_PER_WRITE })];
  for (const key of expired) {
    const [, , clientKey] = key as [string, number, string];
    dbs.idempotency.removeSync(key);
    dbs.idempotency.removeSync(["k", clientKey]);
  }
}
