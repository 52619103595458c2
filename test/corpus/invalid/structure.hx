// Query structure: duplicate queries, parameters and names, edges and paths without their ends,
// attributes, RETURN members, the disabled keyword index, and steps that need one type on the
// items of any type of untyped N/E/V (E301-E310, E217). Format: see test/corpus.test.ts.

N::User { UNIQUE INDEX handle: String, name: String, age: U32 }
N::Post { title: String }
E::Follows { From: User, To: User }
E::Wrote { From: User, To: Post }

// case: a query defined twice
QUERY Get(id: ID) =>
    RETURN N<User>(id)
QUERY Get(handle: String) =>
//    ^ E301
    RETURN N<User>({handle: handle})

// case: a parameter declared twice
QUERY Add(name: String, age: U32, name: String) =>
//                                ^ E302
    RETURN NONE

// case: AddE without To
QUERY Follow(a: ID) =>
    edge <- AddE<Follows>::From(a)
//          ^ E303
    RETURN edge

// case: AddE without From and To
QUERY Follow() =>
    edge <- AddE<Follows>
//          ^ E303
    RETURN edge

// case: UpsertE without From
QUERY Follow(a: ID, b: ID) =>
    edge <- E<Follows>::UpsertE({})::To(b)
//                      ^ E303
    RETURN edge

// case: ShortestPath without To
QUERY Path(a: ID) =>
    path <- N<User>(a)::ShortestPath<Follows>
//                      ^ E304
    RETURN path

// case: ShortestPath followed by another step
QUERY Path(a: ID) =>
    path <- N<User>(a)::ShortestPathDijkstras<Follows>(1)::COUNT
//                      ^ E304
    RETURN path

// case: a variable assigned twice
QUERY Get(a: ID, b: ID) =>
    user <- N<User>(a)
    user <- N<User>(b)
//  ^ E305
    RETURN user

// case: a variable named like a parameter
QUERY Get(id: ID) =>
    id <- N<User>(id)
//  ^ E305
    RETURN id

// case: a loop variable named like a variable
QUERY Import(names: [String]) =>
    user <- N<User>
    FOR user IN names {
//      ^ E305
        AddN<User>({name: user})
    }
    RETURN user

// case: destructuring a name twice
QUERY Import(users: [{name: String, age: U32}]) =>
    FOR {name, age, name} IN users {
//                  ^ E305
        AddN<User>({name: name, age: age})
    }
    RETURN NONE

// case: an unknown attribute
    #[cached]
//  ^ E306
QUERY Get(id: ID) =>
    RETURN N<User>(id)

// case: mcp with an argument
    #[mcp("tools")]
//  ^ E306
QUERY Get(id: ID) =>
    RETURN N<User>(id)

// case: model without a name
    #[model]
//  ^ E306
QUERY Get(id: ID) =>
    RETURN N<User>(id)

// case: model naming no embedding model Strand knows (checked like at startup)
#[model("bogus-model")]
//      ^ E308
QUERY Get(id: ID) =>
    RETURN N<User>(id)

// case: model with a provider but no model name
#[model("openai:")]
//      ^ E308
QUERY Get(id: ID) =>
    RETURN N<User>(id)

// case: RETURN names a variable twice
QUERY Get(id: ID) =>
    user <- N<User>(id)
    RETURN user, user
//               ^ E307

// case: RETURN of a variable and a traversal from it
QUERY Get(id: ID) =>
    user <- N<User>(id)
    RETURN user, user::{name}
//               ^ E307

// case: SearchBM25 while the keyword index is disabled
// options: bm25=false
QUERY Search(text: String) =>
    users <- SearchBM25<User>(text, 10)
//           ^ E310
    RETURN users

// case: a field of a node of any type (untyped N(id))
QUERY Anything(id: ID) =>
    x <- N(id)::{name}
//               ^ E217
    RETURN x

// case: a step that needs one edge type, on edges of every type (untyped E)
QUERY Anything() =>
    x <- E::FromN
//          ^ E217
    RETURN x

// case: an untyped lookup by field
QUERY Anything(h: String) =>
    x <- N({handle: h})
//         ^ E217
    RETURN x
