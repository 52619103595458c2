// Runs one compiled query against the store: in one read snapshot or one durable write
// transaction, after fetching every embedding its Embed(..) calls need (see
// embedding-lookup.ts for why they are fetched outside the transaction).
import { createHash } from "node:crypto";
import { EmbeddingsMissing, type EmbeddingLookup } from "../../core/embedding-lookup.js";
import { echo } from "../../core/echo.js";
import { StrandError } from "../../core/errors.js";
import type { QueryContext, StoredAnswer } from "../../core/query-context.js";
import type { QueryModule } from "../../core/query-module.js";
import { vectorAnswerShaper } from "../../core/vector-score.js";
import type { EmbedderFor, EmbedOptions } from "../embed/types.js";
import { QueryBudget } from "./query-deadline.js";
import type { QueryStore } from "./query-store.js";

export type { EmbedderFor, TextEmbedder } from "../embed/types.js";

/** Attempts after which a query that keeps needing new embeddings is a bug, not a workload. */
const MAX_ATTEMPTS = 8;
const DEFAULT_CACHE_ENTRIES = 10_000;
/**
 * A longer text is cached under its SHA-256 digest, not itself: keyed by whole texts, 10,000
 * distinct texts near the body limit were gigabytes, and a client sending them ran the server out
 * of memory. Hashing 8 MB takes milliseconds; embedding it takes far longer.
 */
const LONGEST_KEY_TEXT = 256;

/** Embeddings by (model, text), least recently used dropped first. */
export class EmbeddingCache {
  private readonly entries = new Map<string, number[]>();
  private readonly dims = new Map<string, number>();

  constructor(private readonly capacity = DEFAULT_CACHE_ENTRIES) {}

  /** model, NUL, the text; or model, SOH, its digest (the separators keep the two forms apart). */
  static key(text: string, model: string | null): string {
    if (text.length <= LONGEST_KEY_TEXT) return `${model ?? ""}\u0000${text}`;
    return `${model ?? ""}\u0001${createHash("sha256").update(text).digest("base64")}`;
  }

  get(text: string, model: string | null): number[] | undefined {
    const key = EmbeddingCache.key(text, model);
    const v = this.entries.get(key);
    if (v !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, v);
    }
    return v;
  }

  set(text: string, model: string | null, vector: number[]): void {
    const key = EmbeddingCache.key(text, model);
    this.entries.delete(key);
    this.entries.set(key, vector);
    this.dims.set(model ?? "", vector.length);
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
  }

  /** The dimension of this model's embeddings once one is known. */
  dimension(model: string | null): number | undefined {
    return this.dims.get(model ?? "");
  }
}

class AttemptLookup implements EmbeddingLookup {
  readonly missing = new Map<string, { text: string; model: string | null }>();

  constructor(private readonly cache: EmbeddingCache) {}

  get(text: string, model: string | null): number[] | undefined {
    return this.cache.get(text, model);
  }

  miss(text: string, model: string | null): number[] {
    this.missing.set(`${model ?? ""}\u0000${text}`, { text, model });
    // A stand-in of the right size lets the attempt run on and collect every text it needs.
    const dim = this.cache.dimension(model);
    return dim === undefined ? [] : new Array<number>(dim).fill(1 / Math.sqrt(dim));
  }
}

/** A write's Idempotency-Key (server/http/idempotency-key.ts): the key, the request's hash, and the window. */
export interface Idempotency {
  key: string;
  /** Of the query's name and its parameters: the same key with another request is refused. */
  hash: string;
  /** How long an answer is kept, in ms. */
  windowMs: number;
  /** Epoch ms now (the answer's time). */
  now: number;
}

/**
 * What an earlier run under the key answered, as `db`'s snapshot holds it (undefined: none, or
 * older than the window); IDEMPOTENCY_KEY_REUSED when that run was another request.
 */
function answeredBefore(db: QueryContext, once: Idempotency, query: string): { result: unknown } | undefined {
  return checkedAnswer(db.storedAnswer(once.key, once.now - once.windowMs), once, query);
}

/** `stored`'s result when it answered this request; IDEMPOTENCY_KEY_REUSED when it answered another. */
function checkedAnswer(stored: StoredAnswer | undefined, once: Idempotency, query: string): { result: unknown } | undefined {
  if (stored === undefined) return undefined;
  if (stored.hash !== once.hash) throw keyReused(once.key, query);
  return { result: stored.result };
}

function keyReused(key: string, query: string): StrandError {
  return new StrandError(
    "IDEMPOTENCY_KEY_REUSED",
    `the Idempotency-Key "${echo(key)}" was used for another request (another query than ${query}, or other parameters); send a new key for a new request`,
  );
}

/** What answers do with the project's vector records (core/vector-score.ts). */
export interface VectorAnswers {
  /** The project's vector types: their records leave with a `score`. */
  readonly labels: Iterable<string>;
  /** Whether they leave with their embedding, `data` (strand.toml [server] vector_data_in_answers; default true). */
  readonly data?: boolean | undefined;
}

export class QueryRunner {
  /** The result as it goes on the wire: every vector in it carries `score`, and `data` unless left out (core/vector-score.ts). */
  private readonly shape: (result: unknown) => unknown;

  constructor(
    private readonly store: QueryStore,
    private readonly embedders: EmbedderFor | null,
    vectors: VectorAnswers = { labels: [] },
    private readonly cache = new EmbeddingCache(),
  ) {
    this.shape = vectorAnswerShaper(vectors.labels, vectors.data !== false);
  }

  /** The query's result as it goes on the wire: every vector in it carries `score` (and `data` unless left out). */
  async run(query: QueryModule, params: Record<string, unknown>): Promise<unknown> {
    return this.shape(await this.attempt(query, params, null));
  }

  /**
   * A write sent with an Idempotency-Key: run at most once per key. The first run stores its
   * answer in its own transaction (idempotency/answers.ts); a run that finds one stored under the
   * key (and newer than the window) answers it again without writing, and one whose request hash
   * differs is 422 IDEMPOTENCY_KEY_REUSED. Two runs of one key in flight are serialized by the
   * write lock: the second finds the first's answer.
   */
  async runOnce(query: QueryModule, params: Record<string, unknown>, once: Idempotency): Promise<{ result: unknown; replayed: boolean }> {
    // A retry of an answered write, where a write is acknowledged once committed: from what is
    // committed, once it is on disk (the write path would take the write lock for it). One lookup,
    // not a read snapshot: a miss (a new key) costs the write next to nothing, and the write path
    // looks again inside its transaction.
    const { store } = this;
    if (store.replaysWithoutWriting?.() === true && store.flushed !== undefined && store.storedAnswer !== undefined) {
      const stored = checkedAnswer(store.storedAnswer(once.key, once.now - once.windowMs), once, query.name);
      if (stored !== undefined) {
        await store.flushed();
        return { result: this.shape(stored.result), replayed: true };
      }
    }
    const outcome = { replayed: false };
    const result = await this.attempt(query, params, { ...once, outcome });
    return { result: this.shape(result), replayed: outcome.replayed };
  }

  /**
   * The attempts and the embedding calls between them share the query's time limit (one
   * QueryBudget): a request that spends 3 s embedding a text has that much less for its query.
   * The wait for the write lock is not counted.
   */
  private async attempt(
    query: QueryModule,
    params: Record<string, unknown>,
    once: (Idempotency & { outcome: { replayed: boolean } }) | null,
  ): Promise<unknown> {
    const budget = new QueryBudget(this.store.queryTimeoutMs ?? 0, query.writes);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const lookup = new AttemptLookup(this.cache);
      const body = (db: QueryContext): unknown =>
        budget.spend(() => {
          db.limitTime(budget.remainingMs, budget.limitMs);
          db.useEmbeddings(this.embedders === null ? null : lookup);
          if (once !== null) {
            const stored = answeredBefore(db, once, query.name);
            if (stored !== undefined) {
              once.outcome.replayed = true;
              return stored.result;
            }
          }
          const result = query.run(db, params);
          // Abandon (roll back) an attempt that ran on stand-in vectors.
          if (lookup.missing.size > 0) throw new EmbeddingsMissing();
          if (once !== null) db.rememberAnswer(once.key, { hash: once.hash, at: once.now, result }, once.now - once.windowMs);
          return result;
        });
      try {
        return query.writes ? await this.store.write(body) : this.store.read(body);
      } catch (error) {
        // An error in an attempt with stand-in vectors may be caused by them: embed, then retry.
        if (lookup.missing.size === 0) throw error;
      }
      await budget.spendAsync((signal, check) => this.fetch([...lookup.missing.values()], { signal, check }));
    }
    throw new StrandError("INTERNAL", `query ${query.name} still needed new embeddings after ${MAX_ATTEMPTS} attempts`);
  }

  private async fetch(needed: readonly { text: string; model: string | null }[], options: EmbedOptions): Promise<void> {
    const byModel = new Map<string | null, string[]>();
    for (const { text, model } of needed) byModel.set(model, [...(byModel.get(model) ?? []), text]);
    for (const [model, texts] of byModel) {
      const vectors = await this.embedders!(model).embed(texts, options);
      if (vectors.length !== texts.length) {
        throw new StrandError("EMBEDDING_FAILED", `the embedding provider returned ${vectors.length} embeddings for ${texts.length} texts`);
      }
      for (let i = 0; i < texts.length; i++) this.cache.set(texts[i]!, model, vectors[i]!);
    }
  }
}
