// The two in-process queries of the scan benchmark, each measured against a hand-written loop
// over the same LMDB data (bench/scan-floor.ts).

// A WHERE-filtered scan: every Person, two conditions, the matching records returned.
QUERY FilterScan(min: U32, city: String) =>
    people <- N<Person>::WHERE(AND(_::{age}::GTE(min), _::{city}::EQ(city)))
    RETURN people

// Projection-heavy: renames, a nested traversal count per row, the first 1000 matches.
QUERY ProjectPeople(min: U32) =>
    people <- N<Person>::WHERE(_::{age}::GT(min))::RANGE(0, 1000)::{name, years: age, friends: _::Out<Knows>::COUNT, town: city}
    RETURN people
