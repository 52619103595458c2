// The three reading tools, each run in one read snapshot (memory-service.ts). Entities are
// listed in the order they were created, relations in the order they were made (their `seq`),
// as the reference server lists its file. open_nodes and search_nodes answer the entities they
// find plus every relation with at least one end among them, as the reference (2026.8.31) does.
import type { QueryContext } from "../../core/query-context.js";
import { entityOf, type KnowledgeGraph, type Relation, type StoredEntity, type StoredRelation } from "./graph.js";
import type { MemoryQueries } from "./memory-queries.js";
import { fuseMatches, rankMatches, VECTOR_CANDIDATES } from "./search.js";

/** Every entity node of the snapshot (memory-service.ts keeps them decoded between writes). */
export type AllEntities = () => readonly StoredEntity[];

export function readGraph(q: MemoryQueries, db: QueryContext, all: AllEntities = () => q.allEntities(db)): KnowledgeGraph {
  const nodes = all();
  const names = new Map(nodes.map((n) => [n.id, n.name]));
  return {
    entities: bySeq(nodes.filter((n) => !n.placeholder)).map(entityOf),
    relations: bySeq(q.allRelations(db)).map((r) => named(r, names)),
  };
}

export function openNodes(q: MemoryQueries, db: QueryContext, names: readonly string[]): KnowledgeGraph {
  const found: StoredEntity[] = [];
  for (const name of new Set(names)) {
    const entity = q.entityByName(db, name);
    if (entity !== null && !entity.placeholder) found.push(entity);
  }
  return withRelations(q, db, bySeq(found));
}

/**
 * The entities search.ts's rule finds, best first, with the relations that touch them: the
 * hybrid rule when `vector` (the query's embedding; entity-vectors.ts) is given, else BM25's.
 */
export function searchNodes(
  q: MemoryQueries,
  db: QueryContext,
  query: string,
  all: AllEntities = () => q.allEntities(db),
  vector: readonly number[] | null = null,
): KnowledgeGraph {
  const entities = bySeq(all().filter((n) => !n.placeholder));
  const ranked = q.searchEntities(db, query, Math.max(1, entities.length)).filter((n) => !n.placeholder);
  if (vector === null) return withRelations(q, db, rankMatches(query, ranked, entities));
  const nearest = q.nearestEntities(db, vector, VECTOR_CANDIDATES).filter((n) => !n.placeholder);
  return withRelations(q, db, fuseMatches(query, ranked, nearest, entities));
}

/** The entities (in the order given) and every relation from or to one of them, in their order. */
function withRelations(q: MemoryQueries, db: QueryContext, entities: readonly StoredEntity[]): KnowledgeGraph {
  const names = new Map(entities.map((e) => [e.id, e.name]));
  const touching = new Map<string, StoredRelation>();
  for (const entity of entities) {
    const { outgoing, incoming } = q.relationsOf(db, entity.id);
    for (const r of [...outgoing, ...incoming]) touching.set(r.id, r);
  }
  const relations = bySeq([...touching.values()]);
  for (const r of relations) {
    for (const id of [r.fromId, r.toId]) if (!names.has(id)) names.set(id, q.entityById(db, id).name);
  }
  return { entities: entities.map(entityOf), relations: relations.map((r) => named(r, names)) };
}

function named(r: StoredRelation, names: ReadonlyMap<string, string>): Relation {
  return { from: names.get(r.fromId) ?? "", to: names.get(r.toId) ?? "", relationType: r.relationType };
}

function bySeq<T extends { seq: number }>(items: T[]): T[] {
  return items.sort((a, b) => a.seq - b.seq);
}
