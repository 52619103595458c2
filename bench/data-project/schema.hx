// The data benchmark's graph (bench/data.ts): items with one INDEX field and one String field,
// linked to each other (degree 10).

N::Item {
    INDEX group: String,
    name: String
}

E::Link {
    From: Item,
    To: Item
}
