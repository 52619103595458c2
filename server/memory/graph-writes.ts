// The six writing tools of the MCP memory server, each a function run inside one write
// transaction (memory-service.ts opens it). Their rules are the reference server's
// (@modelcontextprotocol/server-memory 2026.8.31), except where said:
//
// - create_entities adds each entity whose name no entity has yet and answers those it added.
//   Names are unique: a name listed twice in one call is added once (the reference adds it twice
//   and then holds two entities of one name). Observations are kept as given, repeats included.
// - create_relations adds each relation not already there (same from, to and relationType) and
//   answers those it added; listed twice in one call, it is added once (the reference: twice).
//   As in the reference, the ends need not be entities: a name that is none is kept as a
//   placeholder node, which no tool shows as an entity, becomes the entity when one of that name
//   is created, and goes when its last relation does.
// - add_observations adds, per item in order, the contents its entity does not hold yet; a name
//   that is no entity throws NOT_FOUND ("Entity with name X not found") and the call writes
//   nothing. delete_entities, delete_observations and delete_relations ignore what is absent.
import type { QueryContext } from "../../core/query-context.js";
import {
  entityNotFound,
  entityOf,
  type Entity,
  type ObservationAddition,
  type ObservationDeletion,
  type ObservationResult,
  type Relation,
  type StoredEntity,
} from "./graph.js";
import type { MemoryQueries } from "./memory-queries.js";

/** The counter that hands out places in read_graph's order (entities and relations). */
const SEQ = "seq";

/** The places a write hands out: read once, written back once. */
class Places {
  private next: number | null = null;
  private taken = false;

  constructor(
    private readonly q: MemoryQueries,
    private readonly db: QueryContext,
  ) {}

  take(): number {
    this.next ??= (this.q.counter(this.db, SEQ) ?? 0) + 1;
    this.taken = true;
    return this.next++;
  }

  save(): void {
    if (this.taken && this.next !== null) this.q.setCounter(this.db, SEQ, this.next - 1);
  }
}

export function createEntities(q: MemoryQueries, db: QueryContext, entities: readonly Entity[]): Entity[] {
  const places = new Places(q, db);
  const added: Entity[] = [];
  for (const entity of entities) {
    const existing = q.entityByName(db, entity.name);
    if (existing !== null && !existing.placeholder) continue;
    if (existing === null) q.addEntity(db, { ...entity, seq: places.take(), placeholder: false });
    else q.setEntity(db, existing.id, entity.entityType, entity.observations, places.take());
    added.push(entityOf(entity));
  }
  places.save();
  return added;
}

export function createRelations(q: MemoryQueries, db: QueryContext, relations: readonly Relation[]): Relation[] {
  const places = new Places(q, db);
  const added: Relation[] = [];
  const node = (name: string): StoredEntity =>
    q.entityByName(db, name) ?? q.addEntity(db, { name, entityType: "", observations: [], seq: 0, placeholder: true });
  for (const relation of relations) {
    const from = q.entityByName(db, relation.from);
    const to = q.entityByName(db, relation.to);
    if (from !== null && to !== null) {
      const exists = q.relationsOf(db, from.id).outgoing.some((r) => r.toId === to.id && r.relationType === relation.relationType);
      if (exists) continue;
    }
    const fromId = (from ?? node(relation.from)).id;
    const toId = relation.to === relation.from ? fromId : (to ?? node(relation.to)).id;
    q.addRelation(db, fromId, toId, relation.relationType, places.take());
    added.push({ from: relation.from, to: relation.to, relationType: relation.relationType });
  }
  places.save();
  return added;
}

/** Throws NOT_FOUND for a name that is no entity: the transaction, and so the call, writes nothing. */
export function addObservations(q: MemoryQueries, db: QueryContext, additions: readonly ObservationAddition[]): ObservationResult[] {
  const results: ObservationResult[] = [];
  for (const addition of additions) {
    const entity = q.entityByName(db, addition.entityName);
    if (entity === null || entity.placeholder) throw entityNotFound(addition.entityName);
    const held = new Set(entity.observations);
    const added = addition.contents.filter((content) => !held.has(content));
    if (added.length > 0) q.setObservations(db, entity.id, [...entity.observations, ...added]);
    results.push({ entityName: addition.entityName, addedObservations: added });
  }
  return results;
}

export function deleteEntities(q: MemoryQueries, db: QueryContext, names: readonly string[]): void {
  const touched = new Set<string>();
  const dropped = new Set<string>();
  for (const name of new Set(names)) {
    const node = q.entityByName(db, name);
    if (node === null) continue;
    const { outgoing, incoming } = q.relationsOf(db, node.id);
    for (const r of outgoing) touched.add(r.toId);
    for (const r of incoming) touched.add(r.fromId);
    q.dropEntity(db, node.id);
    dropped.add(node.id);
  }
  for (const id of dropped) touched.delete(id);
  dropLonePlaceholders(q, db, touched);
}

export function deleteObservations(q: MemoryQueries, db: QueryContext, deletions: readonly ObservationDeletion[]): void {
  for (const deletion of deletions) {
    const entity = q.entityByName(db, deletion.entityName);
    if (entity === null || entity.placeholder) continue;
    const gone = new Set(deletion.observations);
    const kept = entity.observations.filter((o) => !gone.has(o));
    if (kept.length !== entity.observations.length) q.setObservations(db, entity.id, kept);
  }
}

export function deleteRelations(q: MemoryQueries, db: QueryContext, relations: readonly Relation[]): void {
  const touched = new Set<string>();
  for (const relation of relations) {
    const from = q.entityByName(db, relation.from);
    const to = q.entityByName(db, relation.to);
    if (from === null || to === null) continue;
    for (const r of q.relationsOf(db, from.id).outgoing) {
      if (r.toId !== to.id || r.relationType !== relation.relationType) continue;
      q.dropRelation(db, r.id);
      touched.add(from.id).add(to.id);
    }
  }
  dropLonePlaceholders(q, db, touched);
}

/** A placeholder exists for its relations only: without any, it goes. `ids`: nodes that still exist. */
function dropLonePlaceholders(q: MemoryQueries, db: QueryContext, ids: ReadonlySet<string>): void {
  for (const id of ids) {
    if (!q.entityById(db, id).placeholder) continue;
    const { outgoing, incoming } = q.relationsOf(db, id);
    if (outgoing.length === 0 && incoming.length === 0) q.dropEntity(db, id);
  }
}
