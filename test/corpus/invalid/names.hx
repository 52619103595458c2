// Unknown types, fields and names in queries (E101, E110, E111, E120, E121), and query names the
// server cannot route (E313). Format: see test/corpus.test.ts.

N::User { UNIQUE INDEX handle: String, INDEX city: String, name: String, age: U32, tags: [String] }
N::Post { title: String, likes: U32 DEFAULT 0 }
E::Follows { From: User, To: User, Properties: { since: Date DEFAULT NOW } }
E::Wrote { From: User, To: Post }
V::PostVector { title: String }

// case: a parameter named '__proto__'
QUERY ByName(__proto__: String) =>
//           ^ E104
    users <- N<User>
    RETURN users

// case: an unknown node type in a lookup
QUERY All() =>
    users <- N<Usr>
//             ^ E101
    RETURN users

// case: an edge type used as a node type
QUERY All() =>
    users <- N<Follows>
//             ^ E101
    RETURN users

// case: a node type used as an edge type
QUERY Friends(id: ID) =>
    friends <- N<User>(id)::Out<User>
//                              ^ E101
    RETURN friends

// case: an unknown node type in AddN
QUERY Add(name: String) =>
    user <- AddN<Person>({name: name})
//               ^ E101
    RETURN user

// case: an unknown edge type in AddE
QUERY Link(a: ID, b: ID) =>
    edge <- AddE<Friends>::From(a)::To(b)
//               ^ E101
    RETURN edge

// case: an unknown vector type in SearchV
QUERY Similar(v: [F64]) =>
    hits <- SearchV<PostVec>(v, 5)
//                  ^ E101
    RETURN hits

// case: an unknown edge type in ShortestPath
QUERY Path(a: ID, b: ID) =>
    path <- N<User>(a)::ShortestPath<Follow>::To(b)
//                                   ^ E101
    RETURN path

// case: a misspelt field in a projection
QUERY Get(id: ID) =>
    user <- N<User>(id)::{nmae, age}
//                        ^ E110
    RETURN user

// case: a misspelt field in a rename (not a field, so read as a variable)
QUERY Get(id: ID) =>
    user <- N<User>(id)::{display: nmae}
//                                 ^ E120
    RETURN user

// case: an unknown field in a WHERE
QUERY Old() =>
    users <- N<User>::WHERE(_::{years}::GT(60))
//                              ^ E110
    RETURN users

// case: an unknown field in AddN
QUERY Add(name: String) =>
    user <- AddN<User>({name: name, email: "x@y.z"})
//                                  ^ E110
    RETURN user

// case: an unknown field in UPDATE
QUERY Rename(id: ID, name: String) =>
    user <- N<User>(id)::UPDATE({fullname: name})
//                               ^ E110
    RETURN user

// case: an unknown edge property in AddE
QUERY Follow(a: ID, b: ID) =>
    edge <- AddE<Follows>({weight: 1.0})::From(a)::To(b)
//                         ^ E110
    RETURN edge

// case: a node field read from an edge
QUERY Since(id: ID) =>
    edges <- N<User>(id)::OutE<Follows>::{name}
//                                        ^ E110
    RETURN edges

// case: an unknown field in an exclusion
QUERY Public(id: ID) =>
    user <- N<User>(id)::!{password}
//                         ^ E110
    RETURN user

// case: an unknown field in ORDER
QUERY Sorted() =>
    users <- N<User>::ORDER<Asc>(_::{surname})
//                                   ^ E110
    RETURN users

// case: an unknown field in GROUP_BY
QUERY Groups() =>
    groups <- N<User>::GROUP_BY(country)
//                              ^ E110
    RETURN groups

// case: an unknown field in an index lookup
QUERY ByEmail(email: String) =>
    user <- N<User>({email: email})
//                   ^ E110
    RETURN user

// case: an unknown field of an object parameter
QUERY Import(users: [{name: String, age: U32}]) =>
    FOR u IN users {
        AddN<User>({name: u.nmae, age: u.age})
//                          ^ E110
    }
    RETURN NONE

// case: destructuring a field the elements do not have
QUERY Import(users: [{name: String, age: U32}]) =>
    FOR {name, city} IN users {
//             ^ E110
        AddN<User>({name: name})
    }
    RETURN NONE

// case: an unknown heuristic property for A*
QUERY Route(a: ID, b: ID) =>
    path <- N<User>(a)::ShortestPathAStar<Follows>(1.0, "distance")::To(b)
//                                                      ^ E110
    RETURN path

// case: an unknown field in a member access
QUERY Get(id: ID) =>
    user <- N<User>(id)
    RETURN user.email
//              ^ E110

// case: a lookup by a field that is not indexed
QUERY ByName(name: String) =>
    users <- N<User>({name: name})
//                    ^ E111
    RETURN users

// case: a lookup by a non-indexed field of another type
QUERY ByTitle(title: String) =>
    posts <- N<Post>({title: title})
//                    ^ E111
    RETURN posts

// case: an undeclared parameter
QUERY Get() =>
    user <- N<User>(id)
//                  ^ E120
    RETURN user

// case: a misspelt variable
QUERY Get(id: ID) =>
    user <- N<User>(id)
    RETURN usr
//         ^ E120

// case: a variable used before it is assigned
QUERY Get(id: ID) =>
    friends <- user::Out<Follows>
//             ^ E120
    user <- N<User>(id)
    RETURN friends

// case: a loop variable used after the loop
QUERY Import(names: [String]) =>
    FOR name IN names {
        AddN<User>({name: name})
    }
    RETURN name
//         ^ E120

// case: a variable bound inside a loop used after it
QUERY Import(names: [String]) =>
    FOR name IN names {
        user <- AddN<User>({name: name})
    }
    RETURN user
//         ^ E120

// case: a parameter of another query
QUERY A(handle: String) =>
    RETURN handle
QUERY B() =>
    RETURN handle
//         ^ E120

// case: '_' in a plain statement
QUERY Names() =>
    names <- _::{name}
//           ^ E121
    RETURN names

// case: '_' in RETURN
QUERY Count() =>
    RETURN _::COUNT
//         ^ E121

// case: '_' as a property value of AddN
QUERY Copy(id: ID) =>
    user <- AddN<User>({name: _::{name}})
//                            ^ E121
    RETURN user

// case: a query named mcp while the agent tools are on (POST /mcp is the MCP endpoint)
QUERY mcp() =>
//    ^ E313
    n <- N<User>::COUNT
    RETURN n
