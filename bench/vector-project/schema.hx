// The vector benchmark's data (see bench/README.md): `Vec` holds the searched vectors (dim 128
// by default), `Emb` receives the AddV writes (dim 384). `n` is the vector's position in the
// generated set, so results map back to the ground truth without an id table.

V::Vec {
    n: I64
}

V::Emb {
    n: I64
}
