// Type errors in queries (E201-E216). Format: see test/corpus.test.ts.

N::User {
    UNIQUE INDEX handle: String,
    INDEX city: String,
    age: U8,
    score: F64 DEFAULT 0.0,
    verified: Boolean DEFAULT false,
    joined: Date DEFAULT NOW,
    tags: [String],
}
N::Post { title: String, likes: U32 DEFAULT 0 }
N::Chunk { text: String }
E::Follows { From: User, To: User, Properties: { weight: F64 DEFAULT 1.0, note: String DEFAULT "" } }
E::Wrote { From: User, To: Post }
V::PostVector { title: String }
V::ChunkVector { text: String }

// case: a string literal for a numeric field
QUERY Add(handle: String) =>
    user <- AddN<User>({handle: handle, age: "forty"})
//                                           ^ E201
    RETURN user

// case: an integer literal out of range for U8
QUERY Add(handle: String) =>
    user <- AddN<User>({handle: handle, age: 300})
//                                           ^ E201
    RETURN user

// case: a negative literal for an unsigned field
QUERY Reset(id: ID) =>
    user <- N<User>(id)::UPDATE({age: -1})
//                                    ^ E201
    RETURN user

// case: a float literal for an integer field in a comparison
QUERY Teens() =>
    users <- N<User>::WHERE(_::{age}::LT(19.5))
//                                       ^ E201
    RETURN users

// case: a string that is not a date
QUERY Recent() =>
    users <- N<User>::WHERE(_::{joined}::GT("last week"))
//                                          ^ E201
    RETURN users

// case: a number compared with a string field
QUERY InCity() =>
    users <- N<User>::WHERE(_::{city}::EQ(42))
//                                        ^ E201
    RETURN users

// case: a string for a boolean field
QUERY Verify(id: ID) =>
    user <- N<User>(id)::UPDATE({verified: "yes"})
//                                         ^ E201
    RETURN user

// case: a string element in a numeric vector literal
QUERY Similar() =>
    hits <- SearchV<PostVector>([0.1, "x"], 5)
//                                    ^ E201
    RETURN hits

// case: a projection after COUNT
QUERY Count() =>
    n <- N<User>::COUNT::{age}
//                       ^ E203
    RETURN n

// case: Out on edges
QUERY Bad(id: ID) =>
    x <- N<User>(id)::OutE<Follows>::Out<Follows>
//                                   ^ E203
    RETURN x

// case: FromN on nodes
QUERY Bad(id: ID) =>
    x <- N<User>(id)::FromN
//                    ^ E203
    RETURN x

// case: a comparison on items
QUERY Bad() =>
    users <- N<User>::WHERE(_::GT(3))
//                             ^ E203
    RETURN users

// case: ORDER on values
QUERY Ages() =>
    ages <- N<User>::{age}::ORDER<Asc>(_::{age})
//                          ^ E203
    RETURN ages

// case: WHERE on a count
QUERY Bad() =>
    n <- N<User>::COUNT::WHERE(_::{age}::GT(1))
//                       ^ E203
    RETURN n

// case: RANGE on a count
QUERY Bad() =>
    n <- N<User>::COUNT::RANGE(0, 1)
//                       ^ E203
    RETURN n

// case: ::ID on a value
QUERY Bad(id: ID) =>
    x <- N<User>(id)::{age}::ID
//                           ^ E203
    RETURN x

// case: UpsertV on nodes
QUERY Bad(v: [F64]) =>
    x <- N<User>::UpsertV(v)
//                ^ E203
    RETURN x

// case: RerankMMR on nodes
QUERY Bad() =>
    x <- N<User>::RerankMMR(lambda: 0.5)
//                ^ E203
    RETURN x

// case: CONTAINS on items
QUERY Bad(id: ID) =>
    x <- N<User>::WHERE(_::Out<Follows>::CONTAINS(id))
//                                       ^ E203
    RETURN x

// case: Out in the wrong direction
QUERY Authors(id: ID) =>
    authors <- N<Post>(id)::Out<Wrote>
//                          ^ E204
    RETURN authors

// case: In from the wrong end
QUERY Posts(id: ID) =>
    posts <- N<User>(id)::In<Wrote>
//                        ^ E204
    RETURN posts

// case: an edge endpoint of the wrong type
QUERY Write(user: ID, other: ID) =>
    post <- N<User>(other)
    edge <- AddE<Wrote>::From(user)::To(post)
//                                      ^ E204
    RETURN edge

// case: FromV on an edge from a node type
QUERY Bad(id: ID) =>
    x <- E<Follows>(id)::FromV
//                       ^ E204
    RETURN x

// case: UpsertN with another type than its input
QUERY Bad(name: String) =>
    x <- N<User>({handle: name})::UpsertN<Post>({title: name})
//                                        ^ E204
    RETURN x

// case: RRF over lists of two types
QUERY Bad(v: [F64]) =>
    a <- SearchV<PostVector>(v, 5)
    b <- SearchV<ChunkVector>(v, 5)
    RETURN RerankRRF(a, b)
//         ^ E204

// case: a path over an edge that starts elsewhere
QUERY Bad(a: ID, b: ID) =>
    path <- N<Post>(a)::ShortestPath<Wrote>::To(b)
//                      ^ E204
    RETURN path

// case: a negative RANGE bound
QUERY Page() =>
    users <- N<User>::RANGE(-1, 10)
//                          ^ E205
    RETURN users

// case: a float RANGE bound
QUERY Page() =>
    users <- N<User>::RANGE(0, 2.5)
//                             ^ E205
    RETURN users

// case: a string parameter as a RANGE bound
QUERY Page(end: String) =>
    users <- N<User>::RANGE(0, end)
//                             ^ E205
    RETURN users

// case: a float parameter as k of SearchV
QUERY Similar(v: [F64], k: F64) =>
    hits <- SearchV<PostVector>(v, k)
//                                 ^ E205
    RETURN hits

// case: a string literal as the BM25 limit
QUERY Search(text: String) =>
    hits <- SearchBM25<Post>(text, "ten")
//                                 ^ E205
    RETURN hits

// case: a String parameter written to a numeric field
QUERY Add(handle: String, age: String) =>
    user <- AddN<User>({handle: handle, age: age})
//                                           ^ E206
    RETURN user

// case: a number parameter written to a string field
QUERY Rename(id: ID, handle: I64) =>
    user <- N<User>(id)::UPDATE({handle: handle})
//                                       ^ E206
    RETURN user

// case: a list written to a scalar field
QUERY Add(handle: String, ages: [U8]) =>
    user <- AddN<User>({handle: handle, age: ages})
//                                           ^ E206
    RETURN user

// case: a list of values that are not ids as an edge endpoint (a list of items or IDs adds one edge per item)
QUERY Link(a: ID, names: [String]) =>
    edge <- AddE<Follows>::From(a)::To(names)
//                                     ^ E206
    RETURN edge

// case: a number as an id
QUERY Get(id: U64) =>
    user <- N<User>(id)
//                  ^ E206
    RETURN user

// case: Embed of a number
QUERY Similar(n: I64) =>
    hits <- SearchV<PostVector>(Embed(n), 5)
//                                    ^ E206
    RETURN hits

// case: a string as the vector of SearchV
QUERY Similar(text: String) =>
    hits <- SearchV<PostVector>(text, 5)
//                              ^ E206
    RETURN hits

// case: EXISTS of a value
QUERY Bad() =>
    users <- N<User>::WHERE(EXISTS(_::{age}))
//                                 ^ E206
    RETURN users

// case: IS_IN with a list of another type
QUERY Bad(ages: [String]) =>
    users <- N<User>::WHERE(_::{age}::IS_IN(ages))
//                                          ^ E206
    RETURN users

// case: IS_IN with a single value
QUERY Bad(city: String) =>
    users <- N<User>::WHERE(_::{city}::IS_IN(city))
//                                           ^ E206
    RETURN users

// case: a member read on a list
QUERY Bad() =>
    users <- N<User>
    RETURN users.handle
//               ^ E206

// case: an optional parameter as an id
QUERY Get(id?: ID) =>
    user <- N<User>(id)
//                  ^ E206
    RETURN user

// case: an optional parameter as the list of a FOR loop
QUERY Import(names?: [String]) =>
    FOR name IN names {
//              ^ E206
        AddN<User>({handle: name})
    }
    RETURN NONE

// case: an optional parameter as the vector of AddV
QUERY Store(v?: [F64], title: String) =>
    x <- AddV<PostVector>(v, {title: title})
//                        ^ E206
    RETURN x

// case: INTERSECT with values
QUERY Bad(a: ID, b: ID) =>
    x <- N<User>(a, b)::INTERSECT(_::{age})
//                                ^ E206
    RETURN x

// case: comparing with a list of items
QUERY Bad() =>
    users <- N<User>::WHERE(_::{age}::EQ(N<User>))
//                                       ^ E206
    RETURN users

// case: a string weight
QUERY Path(a: ID, b: ID) =>
    path <- N<User>(a)::ShortestPathDijkstras<Follows>(_::{note})::To(b)
//                                                     ^ E207
    RETURN path

// case: a non-numeric A* heuristic
QUERY Path(a: ID, b: ID) =>
    path <- N<User>(a)::ShortestPathAStar<Follows>(_::{weight}, "handle")::To(b)
//                                                              ^ E207
    RETURN path

// case: a boolean weight
QUERY Path(a: ID, b: ID) =>
    path <- N<User>(a)::ShortestPathDijkstras<Follows>(_::ToN::{verified})::To(b)
//                                                     ^ E207
    RETURN path

// case: ORDER without a direction
QUERY Sorted() =>
    users <- N<User>::ORDER(_::{age})
//                    ^ E208
    RETURN users

// case: ORDER with a misspelt direction
QUERY Sorted() =>
    users <- N<User>::ORDER<Descending>(_::{age})
//                          ^ E208
    RETURN users

// case: a value as a condition
QUERY Bad() =>
    users <- N<User>::WHERE(_::{age})
//                          ^ E212
    RETURN users

// case: a count as a condition
QUERY Bad() =>
    users <- N<User>::WHERE(_::Out<Follows>::COUNT)
//                          ^ E212
    RETURN users

// case: a traversal as an AND operand
QUERY Bad() =>
    users <- N<User>::WHERE(AND(_::{age}::GT(18), _::Out<Follows>))
//                                                ^ E212
    RETURN users

// case: negating a number
QUERY Bad() =>
    users <- N<User>::WHERE(!_::{score})
//                           ^ E212
    RETURN users

// case: GT on a boolean field
QUERY Bad() =>
    users <- N<User>::WHERE(_::{verified}::GT(false))
//                                         ^ E213
    RETURN users

// case: comparing a date with a number
QUERY Bad(n: I64) =>
    users <- N<User>::WHERE(_::{joined}::GT(n))
//                                          ^ E213
    RETURN users

// case: comparing a string with a boolean parameter
QUERY Bad(flag: Boolean) =>
    users <- N<User>::WHERE(_::{city}::EQ(flag))
//                                        ^ E213
    RETURN users

// case: CONTAINS on a number
QUERY Bad() =>
    users <- N<User>::WHERE(_::{age}::CONTAINS(1))
//                                    ^ E213
    RETURN users

// case: a string argument of a math function
QUERY Bad() =>
    users <- N<User>::{x: ADD(_::{handle}, 1)}
//                            ^ E214
    RETURN users

// case: SQRT of a boolean parameter
QUERY Bad(flag: Boolean) =>
    RETURN SQRT(flag)
//              ^ E214

// case: SUM of strings
QUERY Bad() =>
    RETURN SUM(N<User>::{handle})
//             ^ E214

// case: AVG of dates
QUERY Bad() =>
    RETURN AVG(N<User>::{joined})
//             ^ E214

// case: FOR over a single value
QUERY Bad(name: String) =>
    FOR c IN name {
//           ^ E215
        AddN<User>({handle: c})
    }
    RETURN NONE

// case: FOR over a single item
QUERY Bad(id: ID) =>
    FOR u IN N<User>(id) {
//           ^ E215
        u::UPDATE({age: 1})
    }
    RETURN NONE

// case: destructuring a list of strings
QUERY Bad(names: [String]) =>
    FOR {name} IN names {
//      ^ E215
        AddN<User>({handle: name})
    }
    RETURN NONE

// case: DROP of a count
QUERY Bad() =>
    DROP N<User>::COUNT
//       ^ E216
    RETURN NONE

// case: DROP of a parameter
QUERY Bad(id: ID) =>
    DROP id
//       ^ E216
    RETURN NONE

// case: DROP of projected objects
QUERY Bad(id: ID) =>
    DROP N<User>(id)::{handle}
//       ^ E216
    RETURN NONE

// case: a string literal that is not a UUID where an ID is expected
QUERY Get() =>
    user <- N<User>("not-a-uuid")
//                  ^ E201
    RETURN user

// case: an integer literal beyond 2^53
QUERY Big() =>
    RETURN 123456789012345678901234567890
//         ^ E201

// case: an F64 parameter written to an integer field
QUERY SetAge(id: ID, age: F64) =>
    user <- N<User>(id)::UPDATE({age: age})
//                                    ^ E206
    RETURN user

// case: an empty vector literal
QUERY Near() =>
    hits <- SearchV<PostVector>([], 3)
//                              ^ E206
    RETURN hits

// case: ORDER by an array field
QUERY ByTags() =>
    users <- N<User>::ORDER<Asc>(_::{tags})
//                               ^ E206
    RETURN users

// case: a path to a node of another type
QUERY Path(a: ID, p: ID) =>
    post <- N<Post>(p)
    paths <- N<User>(a)::ShortestPath<Follows>::To(post)
//                                                 ^ E204
    RETURN paths

// case: a negative literal path weight
QUERY Path(a: ID, b: ID) =>
    paths <- N<User>(a)::ShortestPathDijkstras<Follows>(-1)::To(b)
//                                                      ^ E207
    RETURN paths

// case: an optional object field used as an id
QUERY Touch(xs: [{id?: ID}]) =>
    FOR {id} IN xs {
        u <- N<User>(id)
//                   ^ E206
        DROP u
    }
    RETURN NONE

// case: a vector literal component beyond the F32 range of the vector index
QUERY Near() =>
    hits <- SearchV<PostVector>([1.0, 1e39], 5)
//                                    ^ E201
    RETURN hits

// case: a vector literal component beyond F32 in AddV
QUERY Add() =>
    v <- AddV<PostVector>([-3.5e38, 0.0], {title: "x"})
//                         ^ E201
    RETURN v
