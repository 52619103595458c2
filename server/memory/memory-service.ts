// The memory tools over one store: each call is one transaction, a write (serialized, durable:
// answered once committed) or a read snapshot, so concurrent clients each see a whole call or
// none of it, and a call that fails (add_observations to a name that is no entity, a value the
// store refuses) writes nothing. Answers are values: the result, or the StrandError that stopped
// the call. Anything else thrown is a bug and propagates.
import { isStrandError, type StrandError } from "../../core/errors.js";
import type { QueryContext } from "../../core/query-context.js";
import type { QueryModule } from "../../core/query-module.js";
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
import { MemoryQueries } from "./memory-queries.js";

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: StrandError };

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
  ) {}

  /** The service over a store of the built-in memory project; an error when `queries` lack the memory's. */
  static create(store: QueryStore, queries: readonly QueryModule[]): MemoryService | { error: string } {
    const bound = MemoryQueries.bind(queries);
    if (!(bound instanceof MemoryQueries)) return { error: `not the memory project: it lacks the queries ${bound.missing.join(", ")}` };
    return new MemoryService(store, bound);
  }

  createEntities(entities: readonly Entity[]): Promise<Outcome<Entity[]>> {
    return this.write((db) => createEntities(this.q, db, entities));
  }

  createRelations(relations: readonly Relation[]): Promise<Outcome<Relation[]>> {
    return this.write((db) => createRelations(this.q, db, relations));
  }

  addObservations(additions: readonly ObservationAddition[]): Promise<Outcome<ObservationResult[]>> {
    return this.write((db) => addObservations(this.q, db, additions));
  }

  deleteEntities(names: readonly string[]): Promise<Outcome<void>> {
    return this.write((db) => deleteEntities(this.q, db, names));
  }

  deleteObservations(deletions: readonly ObservationDeletion[]): Promise<Outcome<void>> {
    return this.write((db) => deleteObservations(this.q, db, deletions));
  }

  deleteRelations(relations: readonly Relation[]): Promise<Outcome<void>> {
    return this.write((db) => deleteRelations(this.q, db, relations));
  }

  readGraph(): Promise<Outcome<KnowledgeGraph>> {
    return this.read((db) => readGraph(this.q, db, () => this.allEntities(db)));
  }

  searchNodes(query: string): Promise<Outcome<KnowledgeGraph>> {
    return this.read((db) => searchNodes(this.q, db, query, () => this.allEntities(db)));
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
    return this.write((db) => importGraph(this.q, db, items));
  }

  private async write<T>(fn: (db: QueryContext) => T): Promise<Outcome<T>> {
    this.writing++;
    this.version++;
    try {
      return { ok: true, value: await this.store.write(fn) };
    } catch (error) {
      if (isStrandError(error)) return { ok: false, error };
      throw error;
    } finally {
      this.writing--;
      this.version++;
    }
  }

  private async read<T>(fn: (db: QueryContext) => T): Promise<Outcome<T>> {
    try {
      return { ok: true, value: this.store.read(fn) };
    } catch (error) {
      if (isStrandError(error)) return { ok: false, error };
      throw error;
    }
  }
}
