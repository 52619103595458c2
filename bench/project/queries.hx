// The two HTTP routes `npm run bench` measures against the floors of bench/floor-server.ts, and
// the in-process counts and traversals it measures against SQLite (bench/counts.ts).

// Point read: one node by id (floor: one raw lmdb get).
QUERY GetItem(id: ID) =>
    item <- N<Item>(id)
    RETURN item

// Single durable write (floor: one durable transaction with two puts).
QUERY AddItem(name: String, n: I64) =>
    item <- AddN<Item>({name: name, n: n})
    RETURN item

// Counts and traversals from one node (bench/counts.ts, against SQLite).
QUERY CountOut(id: ID) =>
    n <- N<Item>(id)::Out<Link>::COUNT
    RETURN n

QUERY CountTwoHop(id: ID) =>
    n <- N<Item>(id)::Out<Link>::Out<Link>::COUNT
    RETURN n

// The HTTP comparison with Hono + better-sqlite3 (bench/peer-http.ts): one and two hops of records.
QUERY OneHop(id: ID) =>
    items <- N<Item>(id)::Out<Link>
    RETURN items

QUERY TwoHop(id: ID) =>
    items <- N<Item>(id)::Out<Link>::Out<Link>
    RETURN items
