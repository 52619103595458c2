// The benchmark's graph: plain items linked to each other (see bench/README.md).

N::Item {
    name: String,
    n: I64
}

E::Link {
    From: Item,
    To: Item
}
