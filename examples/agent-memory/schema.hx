// An agent's memory as a temporal knowledge graph (the model of Graphiti/Zep): what the agent was
// told (episodes), the things it was told about (entities, one per name) and what holds between
// them (facts), each fact with the time it was true in the world and the time the memory held it.
// A fact that stops being true is invalidated, never deleted: the memory can still answer what
// was true at any earlier time, and why it believed it (the episode it came from).
//
// Times are Dates (RFC 3339 on the wire). "No end yet" is the sentinel 9999-12-31T00:00:00Z, the
// DEFAULT of invalid_at and expired_at: a field without DEFAULT may be absent from a record, and a
// comparison with an absent value is false, so an open end that is a real, far-future Date keeps
// every validity test one comparison (valid_at <= t AND invalid_at > t).

// One thing the agent was told: a message, a document, an event. created_at is the time it
// happened (the reference time of what it says), given by the caller or the time of the write.
N::Episode {
    text: String,
    source: String,
    created_at: Date DEFAULT NOW
}

// A person, company, place, ...: one node per name (UpsertEntity creates or updates it).
N::Entity {
    UNIQUE INDEX name: String,
    type: String,
    summary: String
}

// Which entities an episode mentions (one edge per pair: UpsertEntity upserts it by its ends).
E::Mentions {
    From: Episode,
    To: Entity
}

// A fact: subject -Fact-> object, e.g. Alice -[WORKS_AT: "Alice works at Acme"]-> Acme.
// Two times, as in a bitemporal table:
// - valid time: valid_at .. invalid_at, when it was true in the world;
// - record time: created_at .. expired_at, when the memory held it as current (InvalidateFact
//   sets expired_at to when the memory learned it had ended).
// Provenance is the property `episode`, the id of the episode the fact was extracted from, and
// not an edge: in HelixQL an edge joins nodes or vectors, never another edge. It is an INDEX, so
// the facts of an episode are an index lookup (FactsFrom), and it has a DEFAULT (the nil id,
// which no episode has; AddFact always sets it) so that a query may name the episode by it
// (N<Episode>(fact::{episode}) in Provenance): a field that may be absent cannot name an item.
E::Fact {
    From: Entity,
    To: Entity,
    Properties: {
        relation: String,
        fact: String,
        valid_at: Date,
        invalid_at: Date DEFAULT "9999-12-31T00:00:00Z",
        created_at: Date DEFAULT NOW,
        expired_at: Date DEFAULT "9999-12-31T00:00:00Z",
        INDEX episode: ID DEFAULT "00000000-0000-0000-0000-000000000000"
    }
}

// The searchable copy of a fact. SearchBM25, SearchV and RerankRRF rank nodes and vectors, not
// edges (SearchBM25<Fact> is E101 "'Fact' is an edge type"), so each fact also gets a vector
// record with its text, the embedding of the text and a copy of its validity, written by AddFact
// and updated by InvalidateFact in the same transaction as the edge. RecallAt searches these,
// filtered to what was valid at T. fact_id is the id of the Fact edge.
V::FactText {
    UNIQUE INDEX fact_id: ID,
    fact: String,
    valid_at: Date,
    invalid_at: Date DEFAULT "9999-12-31T00:00:00Z",
    expired_at: Date DEFAULT "9999-12-31T00:00:00Z"
}

// A fact's two entities, seen from its searchable copy: the neighbourhood of an entity that
// matches a question (RecallAt) is the facts about it, as FactText records that RerankRRF can fuse.
E::About {
    From: FactText,
    To: Entity
}
