// One item's values: aggregates and IS_IN over array fields, `_` outside a step, Date literals.
// Format: see test/corpus.test.ts.

N::Review { name: String, scores: [I64], tags: [String], at: Date }

// case: AVG of an array field of strings
QUERY A() =>
    r <- N<Review>::{avg: AVG(_::{tags})}
//                            ^ E214
    RETURN r

// case: IS_IN of an array field with a list of another element type
QUERY B(xs: [String]) =>
    r <- N<Review>::WHERE(_::{scores}::IS_IN(xs))
//                                           ^ E206
    RETURN r

// case: `_` in AddN, which is not a step
QUERY C() =>
    r <- AddN<Review>({name: _::{name}})
//                           ^ E121
    RETURN r

// case: a fractional number as a Date literal
QUERY D() =>
    r <- AddN<Review>({at: 1700000000.5})
//                         ^ E201
    RETURN r

// case: unix seconds beyond the year 9999 as a Date literal
QUERY E() =>
    r <- AddN<Review>({at: 253402300800})
//                         ^ E201
    RETURN r

// case: a Date literal without an offset (a Date parameter rejects it too)
QUERY F() =>
    r <- N<Review>::WHERE(_::{at}::LT("2024-05-01T12:00:00"))
//                                    ^ E201
    RETURN r
