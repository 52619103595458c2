// The steps the memory tools are made of. A tool call composes them inside one write (or one read)
// transaction (server/memory/memory-queries.ts): no query here is served as a route.

// ---- entities

QUERY EntityByName(name: String) =>
    entity <- N<Entity>({name: name})
    RETURN entity

QUERY EntityById(id: ID) =>
    entity <- N<Entity>(id)
    RETURN entity

QUERY AllEntities() =>
    entities <- N<Entity>
    RETURN entities

QUERY AddEntity(name: String, entityType: String, observations: [String], seq: I64, placeholder: Boolean) =>
    entity <- AddN<Entity>({name: name, entityType: entityType, observations: observations, seq: seq, placeholder: placeholder})
    RETURN entity

// A placeholder becomes an entity (or an entity gets a new type, observations and place).
QUERY SetEntity(id: ID, entityType: String, observations: [String], seq: I64) =>
    entity <- N<Entity>(id)::UPDATE({entityType: entityType, observations: observations, seq: seq, placeholder: false})
    RETURN entity

QUERY SetObservations(id: ID, observations: [String]) =>
    entity <- N<Entity>(id)::UPDATE({observations: observations})
    RETURN entity

// Deletes the entity with every relation from or to it, and its text vector.
QUERY DropEntity(id: ID) =>
    DROP N<Entity>(id)::Out<EntityVector>
    DROP N<Entity>(id)
    RETURN NONE

// BM25 over name, entityType and observations, best first.
QUERY SearchEntities(text: String, limit: I64) =>
    entities <- SearchBM25<Entity>(text, limit)
    RETURN entities

// ---- text vectors (a memory with an embedding model: server/memory/entity-vectors.ts)

// The entity's text vector (none, or one), without its embedding.
QUERY EntityTextOf(id: ID) =>
    texts <- N<Entity>(id)::Out<EntityVector>::{id, digest}
    RETURN texts

QUERY AddEntityText(entity: ID, vector: [F64], digest: I64) =>
    text <- AddV<EntityText>(vector, {digest: digest})
    AddE<EntityVector>::From(entity)::To(text)
    RETURN text::{id}

QUERY DropEntityText(id: ID) =>
    DROP V<EntityText>(id)
    RETURN NONE

// One text vector with its embedding, if any: its length is the dimension the store holds.
QUERY SomeEntityText() =>
    texts <- V<EntityText>::RANGE(0, 1)
    RETURN texts

// The entities whose texts are nearest the vector, nearest first.
QUERY NearestEntities(vector: [F64], k: I64) =>
    entities <- SearchV<EntityText>(vector, k)::In<EntityVector>
    RETURN entities

// ---- relations

QUERY AllRelations() =>
    relations <- E<Relation>
    RETURN relations

QUERY RelationsOf(id: ID) =>
    outgoing <- N<Entity>(id)::OutE<Relation>
    incoming <- N<Entity>(id)::InE<Relation>
    RETURN outgoing, incoming

QUERY AddRelation(from: ID, to: ID, relationType: String, seq: I64) =>
    relation <- AddE<Relation>({relationType: relationType, seq: seq})::From(from)::To(to)
    RETURN relation

QUERY DropRelation(id: ID) =>
    DROP E<Relation>(id)
    RETURN NONE

// ---- counters

QUERY CounterValue(key: String) =>
    counter <- N<Counter>({key: key})
    RETURN counter

QUERY SetCounter(key: String, value: I64) =>
    counter <- N<Counter>({key: key})::UpsertN({key: key, value: value})
    RETURN counter
