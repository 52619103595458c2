// Schema errors (E1xx, E201 and E202 in declarations). Format: see test/corpus.test.ts.

N::User { UNIQUE INDEX handle: String, name: String, age: U32 }
N::Post { title: String }
E::Wrote { From: User, To: Post }
V::PostVector { title: String }

// case: an edge from an unknown node type (typo)
E::Likes { From: Usr, To: Post }
//               ^ E101

// case: an edge to an edge type
E::Likes { From: User, To: Wrote }
//                         ^ E101

// case: a node type declared twice
N::User { email: String }
// ^ E102

// case: a vector type with the name of a node type
V::Post { text: String }
// ^ E102

// case: an unknown field type
N::Comment { text: String, votes: Int }
//                                ^ E103

// case: an unknown element type in an array field
N::Comment { tags: [Strng] }
//                  ^ E103

// case: an unknown type in an object field
N::Comment { meta: {source: Text} }
//                          ^ E103

// case: a node type used as a parameter type
QUERY Save(user: User) =>
//               ^ E103
    RETURN NONE

// case: a reserved field name on a node
N::Comment { id: String, text: String }
//           ^ E104

// case: the reserved field 'label'
N::Comment { label: String }
//           ^ E104

// case: a reserved edge property
E::Likes { From: User, To: Post, Properties: { from_node: ID } }
//                                             ^ E104

// case: a vector field named 'score'
V::Embedding { text: String, score: F64 }
//                           ^ E104

// case: a vector field named 'data'
V::Embedding { data: [F64] }
//             ^ E104

// case: a field named '__proto__' (it would set the prototype of the record object)
N::Comment { text: String, __proto__: String }
//                         ^ E104

// case: an edge property named '__proto__'
E::Likes { From: User, To: Post, Properties: { __proto__: String } }
//                                             ^ E104

// case: an object member named '__proto__'
N::Comment { meta: { source: String, __proto__: String } }
//                                   ^ E104

// case: a field declared twice
N::Comment { text: String, votes: I32, text: String }
//                                     ^ E105

// case: an edge property declared twice
E::Likes { From: User, To: Post, Properties: { at: Date, at: Date } }
//                                                       ^ E105

// case: an edge without To
E::Likes { From: User }
// ^ E106

// case: an edge without From
E::Likes { To: Post, Properties: { at: Date } }
// ^ E106

// case: an index on an array field
N::Comment { INDEX tags: [String] }
//                 ^ E107

// case: a unique index on an object field
N::Comment { UNIQUE INDEX meta: {source: String} }
//                        ^ E107

// case: a default of the wrong type
N::Comment { votes: U32 DEFAULT "none" }
//                              ^ E201

// case: a default out of range
N::Comment { stars: U8 DEFAULT 300 }
//                             ^ E201

// case: a float default for an integer field
N::Comment { votes: I32 DEFAULT 1.5 }
//                              ^ E201

// case: a default that is not a date
N::Comment { at: Date DEFAULT "yesterday" }
//                            ^ E201

// case: a negative default for an unsigned field
N::Comment { votes: U64 DEFAULT -1 }
//                              ^ E201

// case: a boolean default for a string
N::Comment { text: String DEFAULT false }
//                                ^ E201

// case: DEFAULT NOW on a String field
N::Comment { created: String DEFAULT NOW }
//                                   ^ E202

// case: DEFAULT NOW on an integer field too small for epoch milliseconds (I64 is a warning, W004)
E::Likes { From: User, To: Post, Properties: { at: I32 DEFAULT NOW } }
//                                                             ^ E202
