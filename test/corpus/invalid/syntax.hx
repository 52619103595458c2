// Syntax errors (E0xx): the parser stops at the first one. Format: see test/corpus.test.ts.

N::User { UNIQUE INDEX handle: String, name: String, age: U32 }
E::Follows { From: User, To: User }

// case: a semicolon after a statement
QUERY Get(id: ID) =>
    user <- N<User>(id);
//                     ^ E001
    RETURN user

// case: '=' instead of '<-'
QUERY Get(id: ID) =>
    user = N<User>(id)
//       ^ E001
    RETURN user

// case: lower-case keyword (reads as the expression statement 'return')
QUERY Get(id: ID) =>
    user <- N<User>(id)
    return user
//  ^ E120

// case: missing '=>' after the parameters
QUERY Get(id: ID)
    user <- N<User>(id)
//  ^ E001
    RETURN user

// case: a parameter without a type
QUERY Get(id) =>
//          ^ E001
    RETURN NONE

// case: unclosed argument list
QUERY Page(start: U32) =>
    users <- N<User>::RANGE(start, 10
    RETURN users
//  ^ E001

// case: a statement after RETURN
QUERY Get(id: ID) =>
    RETURN NONE
    user <- N<User>(id)
//  ^ E001

// case: single-quoted string
QUERY Named() =>
    users <- N<User>::WHERE(_::{name}::EQ('ann'))
//                                        ^ E001
    RETURN users

// case: a block comment
QUERY Named() =>
    /* all users */
//  ^ E001
    RETURN N<User>

// case: True instead of true (reads as a name)
QUERY Flag() =>
    RETURN True
//         ^ E120

// case: an infix comparison instead of a comparison step
QUERY Named(name: String) =>
    users <- N<User>::WHERE(_::{name} == name)
//                                    ^ E007
    RETURN users

// case: whitespace between a step name and its type argument
QUERY Friends(id: ID) =>
    friends <- N<User>(id)::Out <Follows>
//                              ^ E001
    RETURN friends

// case: a schema field without a type
N::Post { title }
//              ^ E001

// case: an unterminated string
QUERY Hello() =>
    RETURN "hello
//         ^ E002

// case: an invalid escape in a string
QUERY Path() =>
    RETURN "C:\temp\q"
//                 ^ E003

// case: an out-of-range unicode escape
QUERY Code() =>
    RETURN "\u{110000}"
//          ^ E003

// case: a keyword as a parameter name
QUERY Get(IN: String) =>
//        ^ E004
    RETURN NONE

// case: a keyword as a variable name
QUERY Get(id: ID) =>
    IN <- N<User>(id)
//  ^ E004
    RETURN NONE

// case: a keyword as a field name
N::Thing { DEFAULT: String }
//         ^ E004

// case: an unclosed projection at the end of the file
QUERY Names() =>
    RETURN N<User>::{name, age
// expect E005 at end of file

// case: a query without a body at the end of the file
QUERY Empty(id: ID)
// expect E005 at end of file

// case: an unclosed edge schema at the end of the file
E::Likes { From: User, To: User
// expect E005 at end of file
