// Schema versions and migrations (E311, E312 and the E1xx/E2xx/E900 of migration items). Format:
// see test/corpus.test.ts.

schema::1 {
    N::User { name: String, age: I64, email: String }
    E::Follows { From: User, To: User }
}

schema::2 {
    N::User { UNIQUE INDEX email: String, full_name: String, age: U32 }
    N::Account { email: String }
    E::Follows { From: User, To: User, Properties: { since: Date DEFAULT NOW } }
}

// case: a migration from an undeclared version
    MIGRATION schema::0 => schema::2 { N::User => _::{ full_name: name } }
//  ^ E311

// case: a migration to an undeclared version
    MIGRATION schema::2 => schema::3 { N::User => _::{ full_name: full_name } }
//  ^ E311

// case: a migration to a lower version
    MIGRATION schema::2 => schema::1 { N::User => _::{ name: full_name } }
//  ^ E311

// case: two migrations from the same version
MIGRATION schema::1 => schema::2 { N::User => _::{ full_name: name } }
    MIGRATION schema::1 => schema::2 { N::User => _::{ age: age AS U32 } }
//  ^ E311

// case: a type that is not in the old schema
MIGRATION schema::1 => schema::2 { N::Member => _::{ full_name: name } }
//                                    ^ E101

// case: a field that is not in the new schema
MIGRATION schema::1 => schema::2 { N::User => _::{ fullname: name } }
//                                                 ^ E110

// case: a field that is not in the old schema
MIGRATION schema::1 => schema::2 { N::User => _::{ full_name: first_name } }
//                                                            ^ E110

// case: a literal of the wrong type
MIGRATION schema::1 => schema::2 { N::User => _::{ age: "unknown" } }
//                                                      ^ E201

// case: a computed mapping
MIGRATION schema::1 => schema::2 { N::User => _::{ age: ADD(age, 1) } }
//                                                      ^ E209

// case: a cast to an unknown type
MIGRATION schema::1 => schema::2 { N::User => _::{ age: age AS Int } }
//                                                             ^ E103

// case: renaming a type in a migration
MIGRATION schema::1 => schema::2 { N::User => N::Account::{ email: email } }
//                                               ^ E900

// case: a type declared outside the versioned schemas
    N::Tag { name: String }
//  ^ E312

// case: a type declared twice in the current version
schema::3 {
    N::Tag { name: String }
    N::Tag { slug: String }
//     ^ E102
}

// case: a migration that rewrites a vector (its embedding field): the HNSW index holds it
schema::3 { V::Doc { title: String, embedding: [F64] } }
schema::4 { V::Doc { title: String, embedding: [F64] } }
MIGRATION schema::3 => schema::4 { V::Doc => _::{ embedding: embedding } }
//                                                ^ E314

// case: a migration that rewrites a vector kept in data
schema::3 { V::Doc { title: String } }
schema::4 { V::Doc { title: String } }
MIGRATION schema::3 => schema::4 { V::Doc => _::{ data: title } }
//                                                ^ E314
