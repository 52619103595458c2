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
