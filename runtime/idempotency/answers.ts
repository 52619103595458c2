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
  const oldest = oldestAnswer.get(dbs.env);
  if (oldest !== undefined && answer.at < oldest) oldestAnswer.set(dbs.env, answer.at);
}

/**
 * Per store (by its environment): the time of its oldest stored answer, as its last sweep found it
 * (Infinity: none); absent until the first sweep. A write sweeps only once that has expired, not
 * at each write (a cursor each time was ~35 us of a keyed write's ~1 ms). A write rolled back
 * leaves it too early (one sweep for nothing) or too late (answers removed later; an expired one
 * counts as absent anyway).
 */
const oldestAnswer = new WeakMap<object, number>();

function sweep(dbs: StoreDbs, expiredBefore: number): void {
  const oldest = oldestAnswer.get(dbs.env);
  if (oldest !== undefined && oldest >= expiredBefore) return;
  let removed = 0;
  let next = Number.POSITIVE_INFINITY;
  for (const key of dbs.idempotency.getKeys({ start: ["t"], end: ["t", Number.MAX_VALUE], limit: SWEEP_PER_WRITE + 1 })) {
    const [, at, clientKey] = key as [string, number, string];
    if (at >= expiredBefore || removed === SWEEP_PER_WRITE) {
      next = at;
      break;
    }
    dbs.idempotency.removeSync(key);
    dbs.idempotency.removeSync(["k", clientKey]);
    removed++;
  }
  oldestAnswer.set(dbs.env, next);
}
