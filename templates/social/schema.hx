// A small social network: people, what they post, whom they follow.

N::User {
    UNIQUE INDEX handle: String,
    name: String,
    INDEX city: String,
    age: U32,
    joined: Date DEFAULT NOW
}

N::Post {
    title: String,
    body: String,
    likes: I64 DEFAULT 0,
    created: Date DEFAULT NOW
}

// `weight` is the cost of the hop, used by the weighted shortest path.
E::Follows {
    From: User,
    To: User,
    Properties: {
        weight: F64 DEFAULT 1.0,
        since: Date DEFAULT NOW
    }
}

E::Wrote {
    From: User,
    To: Post
}
