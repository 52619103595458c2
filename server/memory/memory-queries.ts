// The compiled queries of the built-in memory project (templates/memory/queries.hx), typed: each
// method runs one query's `run` on the caller's QueryContext, so a tool call composes several of
// them inside one transaction, and checks the shape of what it returns. Every write goes through
// these queries (the graph writer behind the QueryContext); nothing here touches LMDB. A write
// with an embedding model runs on `recording(changes)`: the ids of the entity nodes it added,
// changed or dropped, whose text vectors entity-vectors.ts then brings up to date.
import { StrandError } from "../../core/errors.js";
import type { PropValue } from "../../core/items.js";
import type { QueryContext } from "../../core/query-context.js";
import type { QueryModule } from "../../core/query-module.js";
import type { StoredEntity, StoredRelation } from "./graph.js";

/** The queries the memory tools are made of: the project must define each. */
export const MEMORY_QUERY_NAMES = [
  "EntityByName",
  "EntityById",
  "AllEntities",
  "AddEntity",
  "SetEntity",
  "SetObservations",
  "DropEntity",
  "SearchEntities",
  "EntityTextOf",
  "AddEntityText",
  "DropEntityText",
  "SomeEntityText",
  "NearestEntities",
  "AllRelations",
  "RelationsOf",
  "AddRelation",
  "DropRelation",
  "CounterValue",
  "SetCounter",
] as const;

type MemoryQueryName = (typeof MEMORY_QUERY_NAMES)[number];

export interface NewEntity {
  name: string;
  entityType: string;
  observations: readonly string[];
  seq: number;
  placeholder: boolean;
}

/** The entity nodes one write touched: `changed` (added, or given a new type or observations) and `dropped`. */
export interface EntityChanges {
  readonly changed: Set<string>;
  readonly dropped: Set<string>;
}

/** A text vector of an entity, without its embedding. */
export interface StoredEntityText {
  id: string;
  digest: number;
}

export class MemoryQueries {
  private constructor(
    private readonly modules: ReadonlyMap<MemoryQueryName, QueryModule>,
    private readonly changes: EntityChanges | null = null,
  ) {}

  /** The same queries, recording into `changes` the entity nodes their writes touch. */
  recording(changes: EntityChanges): MemoryQueries {
    return new MemoryQueries(this.modules, changes);
  }

  /** The memory queries among `queries`, or which are missing (a project that is not the memory's). */
  static bind(queries: readonly QueryModule[]): MemoryQueries | { missing: string[] } {
    const byName = new Map(queries.map((q) => [q.name, q]));
    const modules = new Map<MemoryQueryName, QueryModule>();
    const missing: string[] = [];
    for (const name of MEMORY_QUERY_NAMES) {
      const query = byName.get(name);
      if (query === undefined) missing.push(name);
      else modules.set(name, query);
    }
    return missing.length > 0 ? { missing } : new MemoryQueries(modules);
  }

  entityByName(db: QueryContext, name: string): StoredEntity | null {
    const entity = this.member(this.run(db, "EntityByName", { name }), "entity");
    return entity === null ? null : storedEntity(entity);
  }

  /** The node with this id (NOT_FOUND when it is gone). */
  entityById(db: QueryContext, id: string): StoredEntity {
    return storedEntity(this.member(this.run(db, "EntityById", { id }), "entity"));
  }

  allEntities(db: QueryContext): StoredEntity[] {
    return list(this.member(this.run(db, "AllEntities", {}), "entities")).map(storedEntity);
  }

  addEntity(db: QueryContext, entity: NewEntity): StoredEntity {
    const added = storedEntity(this.member(this.run(db, "AddEntity", { ...entity, observations: [...entity.observations] }), "entity"));
    this.changes?.changed.add(added.id);
    return added;
  }

  /** Makes the node an entity (a placeholder no more) with this type, these observations and this place. */
  setEntity(db: QueryContext, id: string, entityType: string, observations: readonly string[], seq: number): void {
    this.run(db, "SetEntity", { id, entityType, observations: [...observations], seq });
    this.changes?.changed.add(id);
  }

  setObservations(db: QueryContext, id: string, observations: readonly string[]): void {
    this.run(db, "SetObservations", { id, observations: [...observations] });
    this.changes?.changed.add(id);
  }

  /** Deletes the node, every relation from or to it, and its text vector. */
  dropEntity(db: QueryContext, id: string): void {
    this.run(db, "DropEntity", { id });
    this.changes?.dropped.add(id);
  }

  /** Up to `limit` Entity nodes by BM25 over name, entityType and observations, best first. */
  searchEntities(db: QueryContext, text: string, limit: number): StoredEntity[] {
    return list(this.member(this.run(db, "SearchEntities", { text, limit }), "entities")).map(storedEntity);
  }

  /** The entity's text vector: none, or one. */
  entityTextOf(db: QueryContext, id: string): StoredEntityText[] {
    return list(this.member(this.run(db, "EntityTextOf", { id }), "texts")).map((t) => ({
      id: text(t, "id"),
      digest: integer(t, "digest"),
    }));
  }

  addEntityText(db: QueryContext, entityId: string, vector: readonly number[], digest: number): void {
    this.run(db, "AddEntityText", { entity: entityId, vector: [...vector], digest });
  }

  dropEntityText(db: QueryContext, id: string): void {
    this.run(db, "DropEntityText", { id });
  }

  /** The dimension of the text vectors the store holds; null when it holds none. */
  entityTextDimension(db: QueryContext): number | null {
    const [some] = list(this.member(this.run(db, "SomeEntityText", {}), "texts"));
    if (some === undefined) return null;
    const data = record(some).data;
    if (!Array.isArray(data)) throw shapeError("a vector without 'data'");
    return data.length;
  }

  /** The entity nodes of the `k` text vectors nearest `vector`, nearest first. */
  nearestEntities(db: QueryContext, vector: readonly number[], k: number): StoredEntity[] {
    return list(this.member(this.run(db, "NearestEntities", { vector: [...vector], k }), "entities")).map(storedEntity);
  }

  allRelations(db: QueryContext): StoredRelation[] {
    return list(this.member(this.run(db, "AllRelations", {}), "relations")).map(storedRelation);
  }

  /** The relations from and to the node. */
  relationsOf(db: QueryContext, id: string): { outgoing: StoredRelation[]; incoming: StoredRelation[] } {
    const result = this.run(db, "RelationsOf", { id });
    return {
      outgoing: list(this.member(result, "outgoing")).map(storedRelation),
      incoming: list(this.member(result, "incoming")).map(storedRelation),
    };
  }

  addRelation(db: QueryContext, fromId: string, toId: string, relationType: string, seq: number): void {
    this.run(db, "AddRelation", { from: fromId, to: toId, relationType, seq });
  }

  dropRelation(db: QueryContext, id: string): void {
    this.run(db, "DropRelation", { id });
  }

  /** The counter's value; null when it was never set. */
  counter(db: QueryContext, key: string): number | null {
    const counter = this.member(this.run(db, "CounterValue", { key }), "counter");
    return counter === null ? null : integer(counter, "value");
  }

  setCounter(db: QueryContext, key: string, value: number): void {
    this.run(db, "SetCounter", { key, value });
  }

  private run(db: QueryContext, name: MemoryQueryName, params: Record<string, unknown>): unknown {
    return this.modules.get(name)!.run(db, params);
  }

  private member(result: unknown, name: string): unknown {
    if (typeof result !== "object" || result === null || !(name in result)) throw shapeError(`an answer without '${name}'`);
    return (result as Record<string, unknown>)[name];
  }
}

function shapeError(what: string): StrandError {
  return new StrandError("INTERNAL", `the memory project's queries do not fit the memory schema: ${what}`);
}

function list(value: unknown): unknown[] {
  if (!Array.isArray(value)) throw shapeError("a list that is not one");
  return value;
}

function record(value: unknown): Record<string, PropValue> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw shapeError("a record that is not one");
  return value as Record<string, PropValue>;
}

function text(value: unknown, field: string): string {
  const v = record(value)[field];
  if (typeof v !== "string") throw shapeError(`'${field}' is not a String`);
  return v;
}

function integer(value: unknown, field: string): number {
  const v = record(value)[field];
  if (typeof v !== "number" || !Number.isSafeInteger(v)) throw shapeError(`'${field}' is not an I64`);
  return v;
}

function storedEntity(value: unknown): StoredEntity {
  const observations = record(value).observations;
  if (!Array.isArray(observations) || !observations.every((o) => typeof o === "string")) throw shapeError("'observations' is not [String]");
  return {
    id: text(value, "id"),
    name: text(value, "name"),
    entityType: text(value, "entityType"),
    observations: observations as string[],
    seq: integer(value, "seq"),
    placeholder: record(value).placeholder === true,
  };
}

function storedRelation(value: unknown): StoredRelation {
  return {
    id: text(value, "id"),
    fromId: text(value, "from_node"),
    toId: text(value, "to_node"),
    relationType: text(value, "relationType"),
    seq: integer(value, "seq"),
  };
}
