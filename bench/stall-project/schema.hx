// The graph of `npm run bench`'s /health stall section (bench/health-stall.ts): a dense follow
// graph (the issue-14 MCP explosion: 300 users who each follow 60), many plain items to scan and
// ingest, and vectors to search.

N::User {
    name: String
}

E::Follows {
    From: User,
    To: User
}

N::Item {
    name: String,
    n: I64
}

V::Vec {
    tag: String
}
