// The memory tools over one store: each call is one transaction, a write (serialized, durable:
// answered once committed) or a read snapshot, so concurrent clients each see a whole call or
// none of it, and a call that fails (add_observations to a name that is no entity, a value the
// store refuses) writes nothing. Answers are values: the result, or the StrandError that stopped
// the call. Anything else thrown is a bug and propagates. With an embedding model, each write
// also keeps its entities' text vectors (entity-vectors.ts) and search_nodes ranks by BM25 and
// meaning (search.ts); without one, neither happens.
import { requireWriteScope } from "../http/caller.js";
import { isStrandError, StrandError } from "../../core/errors.js";
import { type Outcome, outcomeOf } from "../../core/outcome.js";
import type { QueryContext } from "../../core/query-context.js";
import type { QueryModule } from "../../core/query-module.js";
import type { TextEmbedder } from "../../runtime/embed/types.js";
import type { QueryStore } from "../../runtime/query/query-store.js";
import type {
  Entity,
  KnowledgeGraph,
  ObservationAddition,
  ObservationDeletion,
  ObservationResult,
  Relation,
  StoredEntity,
} from "./graph.js";
import { importGraph, type ImportCounts, type ImportItem } from "./graph-import.js";
import { openNodes, readGraph, searchNodes } from "./graph-reads.js";
import { addObservations, createEntities, createRelations, deleteEntities, deleteObservations, deleteRelations } from "./graph-writes.js";
import { type Embedded, entityText, EntityVectors, TextsMissing } from "./entity-vectors.js";
import { type EntityChanges, MemoryQueries } from "./memory-queries.js";

export type { Outcome } from "../../core/outcome.js";

export interface MemoryServiceOptions {
  /** The embedding model of the entities' text vectors; absent or null: none (BM25 alone). */
  embedder?: (TextEmbedder & { readonly model: string }) | null;
}

/** Attempts of one write that keeps needing new embeddings (a concurrent write changed its texts) before it fails. */
const MAX_ATTEMPTS = 8;
/** Entities given their vectors per transaction when a store is brought up to date at open. */
const REFRESH_BATCH = 256;

/** A write: run on `q` (recording what it touches) inside one transaction. */
type WriteFn<T> = (q: MemoryQueries, db: QueryContext) => T;

export class MemoryService {
  /**
   * Every entity node, decoded, as of the last write: read_graph and search_nodes read them all
   * (the reference's substring rule looks at every entity), and decoding 10k records took most of
   * a 30 ms search. Valid while no write has started since it was read.
   */
  private entities: { version: number; nodes: readonly StoredEntity[] } | null = null;
  /** Bumped when a write starts and when it ends. */
  private version = 0;
  private writing = 0;

  private constructor(
    private readonly store: QueryStore,
    private readonly q: MemoryQueries,
    private readonly vectors: EntityVectors | null,
  ) {}

  /** The service over a store of the built-in memory project; an error when `queries` lack the memory's. */
  static create(store: QueryStore, queries: readonly QueryModule[], options: MemoryServiceOptions = {}): MemoryService | { error: string } {
    const bound = MemoryQueries.bind(queries);
    if (!(bound instanceof MemoryQueries)) return { error: `not the memory project: it lacks the queries ${bound.missing.join(", ")}` };
    return new MemoryService(store, bound, options.embedder == null ? null : new EntityVectors(options.embedder));
  }

  /** The embedding model of the text vectors, or null (BM25 alone). */
  get embeddingModel(): string | null {
    return this.vectors?.model ?? null;
  }

  createEntities(entities: readonly Entity[]): Promise<Outcome<Entity[]>> {
    return this.write(
      (q, db) => createEntities(q, db, entities),
      () => this.newEntityTexts(entities),
    );
  }

  createRelations(relations: readonly Relation[]): Promise<Outcome<Relation[]>> {
    return this.write((q, db) => createRelations(q, db, relations));
  }

  addObservations(additions: readonly ObservationAddition[]): Promise<Outcome<ObservationResult[]>> {
    return this.write((q, db) => addObservations(q, db, additions));
  }

  deleteEntities(names: readonly string[]): Promise<Outcome<void>> {
    return this.write((q, db) => deleteEntities(q, db, names));
  }

  deleteObservations(deletions: readonly ObservationDeletion[]): Promise<Outcome<void>> {
    return this.write((q, db) => deleteObservations(q, db, deletions));
  }

  deleteRelations(relations: readonly Relation[]): Promise<Outcome<void>> {
    return this.write((q, db) => deleteRelations(q, db, relations));
  }

  readGraph(): Promise<Outcome<KnowledgeGraph>> {
    return this.read((db) => readGraph(this.q, db, () => this.allEntities(db)));
  }

  /** With an embedding model, the query is embedded first (outside the read snapshot). */
  async searchNodes(query: string): Promise<Outcome<KnowledgeGraph>> {
    let vector: number[] | null = null;
    try {
      vector = (await this.vectors?.queryVector(query)) ?? null;
    } catch (error) {
      if (isStrandError(error)) return { ok: false, error };
      throw error;
    }
    return this.read((db) => searchNodes(this.q, db, query, () => this.allEntities(db), vector));
  }

  /**
   * With an embedding model: gives every entity whose text vector is missing or stale (a store
   * written without this model) its vector, REFRESH_BATCH entities a transaction; resolves to how
   * many. Run once at open, before any tool call. DIMENSION_MISMATCH: the store's vectors are of
   * another model's dimension.
   */
  async refreshVectors(): Promise<Outcome<number>> {
    const vectors = this.vectors;
    if (vectors === null) return { ok: true, value: 0 };
    const stale = this.store.read((db) => vectors.stale(this.q, db));
    let checked = false;
    for (let i = 0; i < stale.length; i += REFRESH_BATCH) {
      const batch = stale.slice(i, i + REFRESH_BATCH);
      const embedded: Embedded = new Map();
      try {
        await vectors.embed(
          batch.map((e) => e.text),
          embedded,
        );
        const some = embedded.values().next();
        if (!checked && !some.done) {
          this.store.read((db) => vectors.checkDimension(this.q, db, some.value));
          checked = true;
        }
      } catch (error) {
        if (isStrandError(error)) return { ok: false, error };
        throw error;
      }
      const done = await this.write(() => undefined, undefined, { ids: batch.map((e) => e.id), embedded });
      if (!done.ok) return done;
    }
    return { ok: true, value: stale.length };
  }

  /** The snapshot's entity nodes: kept from the last read when no write started since. */
  private allEntities(db: QueryContext): readonly StoredEntity[] {
    if (this.writing > 0) return this.q.allEntities(db);
    if (this.entities !== null && this.entities.version === this.version) return this.entities.nodes;
    const nodes = this.q.allEntities(db);
    this.entities = { version: this.version, nodes };
    return nodes;
  }

  openNodes(names: readonly string[]): Promise<Outcome<KnowledgeGraph>> {
    return this.read((db) => openNodes(this.q, db, names));
  }

  /** A reference server's file, parsed (jsonl.ts), merged in one transaction (graph-import.ts). */
  importItems(items: readonly ImportItem[]): Promise<Outcome<ImportCounts>> {
    const texts = (): string[] => this.newEntityTexts(items.flatMap((item) => (item.kind === "entity" ? [item.entity] : [])));
    return this.write((q, db) => importGraph(q, db, items), texts);
  }

  /** The texts of those entities whose names no entity has yet: what a create will embed. */
  private newEntityTexts(entities: readonly Entity[]): string[] {
    return this.store.read((db) => entities.filter((e) => this.q.entityByName(db, e.name)?.placeholder !== false).map(entityText));
  }

  /**
   * One write transaction running `fn`. With an embedding model, `texts` (those the write will
   * likely need) are embedded first, and the entities it touches (and `seed.ids`) get their
   * vectors before it commits; an attempt that needs texts not embedded yet is rolled back, they
   * are embedded, and it runs again (entity-vectors.ts).
   */
  private async write<T>(
    fn: WriteFn<T>,
    texts: () => readonly string[] = () => [],
    seed?: { ids: readonly string[]; embedded: Embedded },
  ): Promise<Outcome<T>> {
    this.writing++;
    this.version++;
    try {
      requireWriteScope("a memory tool that writes");
      const vectors = this.vectors;
      if (vectors === null) return { ok: true, value: await this.store.write((db) => fn(this.q, db)) };
      const embedded: Embedded = seed?.embedded ?? new Map();
      await vectors.embed(texts(), embedded);
      for (let attempt = 1; ; attempt++) {
        try {
          const value = await this.store.write((db) => {
            const changes: EntityChanges = { changed: new Set(seed?.ids), dropped: new Set() };
            const result = fn(this.q.recording(changes), db);
            vectors.sync(this.q, db, changes, embedded);
            return result;
          });
          return { ok: true, value };
        } catch (error) {
          if (!(error instanceof TextsMissing)) throw error;
          if (attempt >= MAX_ATTEMPTS)
            throw new StrandError("INTERNAL", `a memory write still needed new embeddings after ${MAX_ATTEMPTS} attempts`);
          await vectors.embed(error.texts, embedded);
        }
      }
    } catch (error) {
      if (isStrandError(error)) return { ok: false, error };
      throw error;
    } finally {
      this.writing--;
      this.version++;
    }
  }

  private read<T>(fn: (db: QueryContext) => T): Promise<Outcome<T>> {
    return outcomeOf(() => this.store.read(fn));
  }
}
