// The two vector routes `npm run bench` measures (bench/vector.ts).

// The 10 nearest Vec vectors; `n` and `score` only (the vectors themselves would be most of the
// response: 10 x 128 numbers).
QUERY SearchVec(v: [F64]) =>
    hits <- SearchV<Vec>(v, 10)::{n, score}
    RETURN hits

// One acknowledged (durable) insert of a vector.
QUERY AddEmb(v: [F64], n: I64) =>
    vec <- AddV<Emb>(v, {n: n})
    RETURN vec::ID
