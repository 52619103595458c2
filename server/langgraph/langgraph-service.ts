// The LangGraph routes' work over one store: each checkpoint call is one read snapshot or one
// durable write transaction; a store batch embeds its texts first (outside any transaction: a
// provider's call may take seconds), then runs in one write transaction when it puts anything,
// else in a read snapshot followed, when it read items with a TTL, by a small write moving their
// expiry. Answers are values: the result, or the StrandError that stopped the call (nothing
// written). Anything else thrown is a bug and propagates.
import { requireWriteScope } from "../http/caller.js";
import { isStrandError, StrandError } from "../../core/errors.js";
import { type Outcome, outcomeOf } from "../../core/outcome.js";
import type { QueryContext } from "../../core/query-context.js";
import type { QueryModule } from "../../core/query-module.js";
import type { TextEmbedder } from "../../runtime/embed/types.js";
import type { QueryStore } from "../../runtime/query/query-store.js";
import { deleteThread, getCheckpoint, listCheckpoints, putCheckpoint, putWrites } from "./checkpoints.js";
import { bindLangGraphQueries, type LangGraphQueries } from "./langgraph-queries.js";
import { type Embeddings, hasPuts, refreshExpiry, runBatch, textsToEmbed } from "./store-items.js";
import type * as wire from "./wire.js";
import type { CheckpointRecord, StoreOperation, StoreResult } from "./wire.js";
import type { z } from "zod/v4";

export type { Outcome } from "../../core/outcome.js";

export interface LangGraphServiceOptions {
  /** Embeds a store's texts and queries (the served project's default embedder); null: searches are unranked. */
  embedder: TextEmbedder | null;
  /** Epoch ms (tests move it to expire items). */
  now?: () => number;
}

export class LangGraphService {
  private readonly now: () => number;

  private constructor(
    private readonly store: QueryStore,
    private readonly q: LangGraphQueries,
    private readonly embedder: TextEmbedder | null,
    now: (() => number) | undefined,
  ) {
    this.now = now ?? Date.now;
  }

  /** The service over a store of the built-in LangGraph project; an error when `queries` lack its queries. */
  static create(
    store: QueryStore,
    queries: readonly QueryModule[],
    options: LangGraphServiceOptions,
  ): LangGraphService | { error: string } {
    const bound = bindLangGraphQueries(queries);
    if ("missing" in bound) return { error: `not the LangGraph project: it lacks the queries ${bound.missing.join(", ")}` };
    return new LangGraphService(store, bound, options.embedder, options.now);
  }

  getCheckpoint(body: z.output<typeof wire.getCheckpointBody>): Promise<Outcome<CheckpointRecord | null>> {
    return this.read((db) => getCheckpoint(this.q, db, body));
  }

  listCheckpoints(body: z.output<typeof wire.listCheckpointsBody>): Promise<Outcome<CheckpointRecord[]>> {
    return this.read((db) => listCheckpoints(this.q, db, body));
  }

  putCheckpoint(body: z.output<typeof wire.putCheckpointBody>): Promise<Outcome<void>> {
    return this.write((db) => putCheckpoint(this.q, db, body));
  }

  putWrites(body: z.output<typeof wire.putWritesBody>): Promise<Outcome<void>> {
    return this.write((db) => putWrites(this.q, db, body));
  }

  deleteThread(thread: string): Promise<Outcome<void>> {
    return this.write((db) => deleteThread(this.q, db, thread));
  }

  async storeBatch(operations: readonly StoreOperation[]): Promise<Outcome<StoreResult[]>> {
    const embedded = await this.embed(textsToEmbed(operations));
    if (!embedded.ok) return embedded;
    const now = this.now();
    if (hasPuts(operations)) return this.write((db) => runBatch(this.q, db, operations, embedded.value, now, true).results);
    const read = await this.read((db) => runBatch(this.q, db, operations, embedded.value, now, false));
    if (!read.ok || read.value.refresh.size === 0) return read.ok ? { ok: true, value: read.value.results } : read;
    // A read's TTL refresh is part of the read: a read-only key may cause it.
    const refreshed = await outcomeOf(() => this.store.write((db) => refreshExpiry(this.q, db, read.value.refresh, now)));
    return refreshed.ok ? { ok: true, value: read.value.results } : refreshed;
  }

  private async embed(texts: string[]): Promise<Outcome<Embeddings>> {
    if (texts.length === 0 || this.embedder === null) return { ok: true, value: new Map() };
    // The query time limit covers the embedding call too: a provider that never answers is cut off.
    const limitMs = this.store.queryTimeoutMs ?? 0;
    const signal = limitMs > 0 ? AbortSignal.timeout(limitMs) : undefined;
    try {
      const vectors = await this.embedder.embed(texts, { signal });
      return { ok: true, value: new Map(texts.map((t, i) => [t, vectors[i]!])) };
    } catch (error) {
      if (isStrandError(error)) return { ok: false, error };
      if (signal?.aborted === true)
        return { ok: false, error: new StrandError("QUERY_TIMEOUT", `embedding the store's texts took longer than ${limitMs} ms`) };
      return { ok: false, error: new StrandError("EMBEDDING_FAILED", `embedding the store's texts failed: ${(error as Error).message}`) };
    }
  }

  private write<T>(fn: (db: QueryContext) => T): Promise<Outcome<T>> {
    return outcomeOf(() => {
      requireWriteScope("a LangGraph checkpoint or store write");
      return this.store.write(fn);
    });
  }

  private read<T>(fn: (db: QueryContext) => T): Promise<Outcome<T>> {
    return outcomeOf(() => this.store.read(fn));
  }
}
