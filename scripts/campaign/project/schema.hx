// The campaigns' graph (scripts/campaign/): keyed items with a unique and a plain index and BM25
// text, links between them, and vectors. Keys are chosen by the client, so a write whose answer
// never arrived can still be looked for after a crash.

N::Item {
    UNIQUE INDEX key: String,
    INDEX grp: U32,
    text: String,
    n: I64
}

E::Link {
    From: Item,
    To: Item,
    Properties: {
        w: I64
    }
}

V::Vec {
    key: String
}
