// Wrong arguments to steps, sources and functions (E209) and unknown steps, sources and functions
// (E902). Format: see test/corpus.test.ts.

N::User { UNIQUE INDEX handle: String, INDEX city: String, name: String, age: U32, score: F64 DEFAULT 0.0 }
E::Follows { From: User, To: User, Properties: { weight: F64 DEFAULT 1.0 } }
V::Doc { text: String }

// case: RANGE with one argument
QUERY Top() =>
    users <- N<User>::RANGE(10)
//                    ^ E209
    RETURN users

// case: ORDER without a key
QUERY Sorted() =>
    users <- N<User>::ORDER<Asc>
//                    ^ E209
    RETURN users

// case: Out without an edge type
QUERY Friends(id: ID) =>
    friends <- N<User>(id)::Out
//                          ^ E209
    RETURN friends

// case: WHERE with two conditions
QUERY Bad() =>
    users <- N<User>::WHERE(_::{age}::GT(1), _::{age}::LT(9))
//                    ^ E209
    RETURN users

// case: GROUP_BY without properties
QUERY Groups() =>
    groups <- N<User>::GROUP_BY
//                     ^ E209
    RETURN groups

// case: GROUP_BY over an expression
QUERY Groups() =>
    groups <- N<User>::GROUP_BY(_::{city})
//                              ^ E209
    RETURN groups

// case: UPDATE with a parameter instead of an object
QUERY Rename(id: ID, name: String) =>
    user <- N<User>(id)::UPDATE(name)
//                       ^ E209
    RETURN user

// case: AddN with two objects
QUERY Add(name: String) =>
    user <- AddN<User>({name: name}, {age: 1})
//                                   ^ E209
    RETURN user

// case: a lookup by two fields
QUERY Find(handle: String, city: String) =>
    user <- N<User>({handle: handle, city: city})
//                  ^ E209
    RETURN user

// case: a lookup by field with a second argument
QUERY Find(handle: String, id: ID) =>
    user <- N<User>({handle: handle}, id)
//                                    ^ E209
    RETURN user

// case: EXISTS with two traversals
QUERY Bad() =>
    users <- N<User>::WHERE(EXISTS(_::Out<Follows>, _::In<Follows>))
//                          ^ E209
    RETURN users

// case: AND without conditions
QUERY Bad() =>
    users <- N<User>::WHERE(AND())
//                          ^ E209
    RETURN users

// case: a math function with too many arguments
QUERY Bad() =>
    users <- N<User>::{x: SQRT(_::{age}, 2)}
//                        ^ E209
    RETURN users

// case: POW with one argument
QUERY Bad() =>
    users <- N<User>::{x: POW(_::{score})}
//                        ^ E209
    RETURN users

// case: a named argument to a math function
QUERY Bad() =>
    users <- N<User>::{x: ROUND(value: _::{score})}
//                              ^ E209
    RETURN users

// case: Embed with two arguments
QUERY Similar(a: String, b: String) =>
    hits <- SearchV<Doc>(Embed(a, b), 5)
//                       ^ E209
    RETURN hits

// case: SearchV without k
QUERY Similar(v: [F64]) =>
    hits <- SearchV<Doc>(v)
//          ^ E209
    RETURN hits

// case: SearchBM25 without a limit
QUERY Search(text: String) =>
    hits <- SearchBM25<User>(text)
//          ^ E209
    RETURN hits

// case: AddV without a vector
QUERY Store() =>
    doc <- AddV<Doc>
//         ^ E209
    RETURN doc

// case: RerankRRF with an unknown named argument
QUERY Fuse(v: [F64], text: String) =>
    hits <- SearchV<Doc>(v, 10)::RerankRRF(SearchBM25<Doc>(text, 10), depth: 3)
//                                                                    ^ E209
    RETURN hits

// case: RerankRRF without lists
QUERY Fuse() =>
    RETURN RerankRRF(k: 60)
//         ^ E209

// case: RerankMMR with an unknown distance
QUERY Diverse(v: [F64]) =>
    hits <- SearchV<Doc>(v, 10)::RerankMMR(lambda: 0.5, distance: "manhattan")
//                                                                ^ E209
    RETURN hits

// case: RerankMMR with a third argument
QUERY Diverse(v: [F64]) =>
    hits <- SearchV<Doc>(v, 10)::RerankMMR(0.5, "cosine", 3)
//                                                        ^ E209
    RETURN hits

// case: Dijkstra without a weight
QUERY Path(a: ID, b: ID) =>
    path <- N<User>(a)::ShortestPathDijkstras<Follows>::To(b)
//                      ^ E209
    RETURN path

// case: BFS with a weight
QUERY Path(a: ID, b: ID) =>
    path <- N<User>(a)::ShortestPath<Follows>(_::{weight})::To(b)
//                      ^ E209
    RETURN path

// case: A* with the heuristic as a field read instead of a name
QUERY Path(a: ID, b: ID) =>
    path <- N<User>(a)::ShortestPathAStar<Follows>(_::{weight}, _::ToN::{score})::To(b)
//                                                              ^ E209
    RETURN path

// case: A* without a heuristic
QUERY Path(a: ID, b: ID) =>
    path <- N<User>(a)::ShortestPathAStar<Follows>(_::{weight})::To(b)
//                      ^ E209
    RETURN path

// case: ShortestPathAStar without an edge type (its heuristic is a property of the edge type's To)
QUERY Path(a: ID, b: ID) =>
    path <- N<User>(a)::ShortestPathAStar(_::{weight}, "h")::To(b)
//                      ^ E209
    RETURN path

// case: ::To outside an edge or a path
QUERY Bad(a: ID, b: ID) =>
    x <- N<User>(a)::To(b)
//                   ^ E209
    RETURN x

// case: ::From with two ids
QUERY Link(a: ID, b: ID) =>
    edge <- AddE<Follows>::From(a, b)::To(b)
//                         ^ E209
    RETURN edge

// case: a comparison with two values
QUERY Bad() =>
    users <- N<User>::WHERE(_::{age}::GT(1, 2))
//                                    ^ E209
    RETURN users

// case: the function form of a comparison with one value
QUERY Bad() =>
    users <- N<User>::WHERE(GT(_::{age}))
//                          ^ E209
    RETURN users

// case: IS_IN without a list
QUERY Bad() =>
    users <- N<User>::WHERE(_::{city}::IS_IN())
//                                     ^ E209
    RETURN users

// case: INTERSECT without a traversal
QUERY Bad(a: ID, b: ID) =>
    x <- N<User>(a, b)::INTERSECT
//                      ^ E209
    RETURN x

// case: UpsertV with three arguments
QUERY Bad(v: [F64], text: String) =>
    x <- V<Doc>::UpsertV(v, {text: text}, 1)
//               ^ E209
    RETURN x

// case: an unknown step
QUERY Bad() =>
    users <- N<User>::LIMIT(10)
//                    ^ E902
    RETURN users

// case: a misspelt step
QUERY Bad(id: ID) =>
    n <- N<User>(id)::Out<Follows>::CONUT
//                                  ^ E902
    RETURN n

// case: an unknown source
QUERY Bad(name: String) =>
    user <- InsertN<User>({name: name})
//          ^ E902
    RETURN user

// case: an unknown function
QUERY Bad() =>
    users <- N<User>::{x: SQUARE(_::{age})}
//                        ^ E902
    RETURN users

// case: a misspelt aggregate
QUERY Bad() =>
    RETURN AVERAGE(N<User>::{age})
//         ^ E902

// case: a lower-case step name
QUERY Bad() =>
    n <- N<User>::count
//                ^ E902
    RETURN n

// case: RANGE whose end is before its start
QUERY Page() =>
    users <- N<User>::RANGE(10, 5)
//                              ^ E205
    RETURN users

// case: an MMR lambda outside 0..1
QUERY Diverse(v: [F64]) =>
    hits <- SearchV<Doc>(v, 10)::RerankMMR(lambda: 5)
//                                                 ^ E209
    RETURN hits

// case: a field declared twice in a parameter's object type
QUERY Bulk(p: {a: String, a: I64}) =>
//                        ^ E105
    RETURN NONE

// case: an attribute given twice
#[mcp]
#[mcp]
//^ E306
QUERY Twice() =>
    RETURN NONE
