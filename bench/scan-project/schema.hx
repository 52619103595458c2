// The scan benchmark's data (see bench/README.md): people, each knowing a few others.

N::Person {
    name: String,
    age: U32,
    city: String,
    score: F64
}

E::Knows {
    From: Person,
    To: Person
}
