// An agent's long-term memory: what each user told it, searchable by meaning and by words,
// and the things (entities) each memory mentions.

// A user of the agent; `handle` is your application's name or id for them.
N::User {
    UNIQUE INDEX handle: String,
    joined: Date DEFAULT NOW
}

// One remembered fact. A vector type: each memory is stored with an embedding of its text
// (Embed(text) in Remember), so SearchV finds it by meaning and SearchBM25 by its words.
V::Memory {
    text: String,
    created_at: Date DEFAULT NOW
}

// Something memories mention: a person, a place, a thing. One node per name.
N::Entity {
    UNIQUE INDEX name: String
}

E::Remembers {
    From: User,
    To: Memory
}

E::Mentions {
    From: Memory,
    To: Entity
}
