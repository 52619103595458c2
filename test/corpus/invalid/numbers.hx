// Number literals the compiler cannot keep as written: beyond the F64 range (they would become
// ±Infinity, which JSON writes as null) or integers beyond ±2^53 - 1. Format: see test/corpus.test.ts.

N::Item { x: F64, n: I64, s: String, f: F32 }

// The largest literals that fit are accepted (the prelude compiles cleanly).
QUERY Largest() =>
    i <- AddN<Item>({x: -1.7976931348623157e308, f: 3.4028235e38, n: -9007199254740991})
    RETURN {i: i, big: 1e20, max: 9007199254740991}

// case: a float literal beyond F64 written to a field
QUERY Add() =>
    i <- AddN<Item>({x: 1e999, s: "kept"})
//                      ^ E201
    RETURN i

// case: a float literal beyond F64 in a returned object
QUERY Lit() =>
    RETURN {a: 1.5, b: 1e999}
//                     ^ E201

// case: a negative float literal beyond F64
QUERY Lit() =>
    RETURN {b: -1e999}
//             ^ E201

// case: a float literal beyond F64 compared with a field
QUERY Big() =>
    i <- N<Item>::WHERE(_::{x}::LT(2e308))
//                                 ^ E201
    RETURN i

// case: a float literal beyond F64 as a math argument
QUERY Big() =>
    RETURN {m: MUL(2, 1e400)}
//                    ^ E201

// case: a float literal beyond F64 as a DEFAULT
N::Other { y: F64 DEFAULT 1e999 }
//                        ^ E201

// case: an integer literal beyond 2^53 written to an I64 field
QUERY Add() =>
    i <- AddN<Item>({n: 9007199254740993})
//                      ^ E201
    RETURN i

// case: an integer literal beyond 2^53 written with an exponent for an I64 field
QUERY Add() =>
    i <- AddN<Item>({n: 1e20})
//                      ^ E201
    RETURN i

// case: a float literal beyond F32 for an F32 field
QUERY Add() =>
    i <- AddN<Item>({f: 1e39})
//                      ^ E201
    RETURN i

// case: a float literal beyond F32 as an F32 DEFAULT
N::Other { g: F32 DEFAULT -3.5e38 }
//                        ^ E201
