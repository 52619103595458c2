// The built-in memory of `strand memory` (server/memory/): the knowledge graph of the MCP memory
// server (@modelcontextprotocol/server-memory) as a Strand schema. Not a template for `strand
// init`: the memory service reads and writes it only through the queries in queries.hx.

// An entity, one per name. `seq` is its place in read_graph's order (the order entities were
// created in); `placeholder` marks a name that only relations mention: the reference server keeps
// a relation whose ends are no entities, so such an end is a node no tool shows as an entity.
N::Entity {
    UNIQUE INDEX name: String,
    entityType: String,
    observations: [String],
    seq: I64,
    placeholder: Boolean
}

// A relation `from -relationType-> to`; `seq` is its place in read_graph's order.
E::Relation {
    From: Entity,
    To: Entity,
    Properties: {
        relationType: String,
        seq: I64
    }
}

// Named counters: `seq` hands out the places of entities and relations, one sequence for both.
N::Counter {
    UNIQUE INDEX key: String,
    value: I64
}

// The embedding of an entity's text (its name, entityType and observations), for search_nodes by
// meaning: written only when the memory has an embedding model (`strand memory --embedding-model`;
// server/memory/entity-vectors.ts), in the transaction that changes the entity. `digest` (of the
// model and the text) tells a vector that is current from one a change left stale. No String
// field: BM25 indexes those of every type, and nothing here is text to search.
V::EntityText {
    digest: I64
}

// An entity's text vector: at most one per entity, none for a placeholder.
E::EntityVector {
    From: Entity,
    To: EntityText
}
