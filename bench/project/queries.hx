// The two HTTP routes `npm run bench` measures against the floors of bench/floor-server.ts.

// Point read: one node by id (floor: one raw lmdb get).
QUERY GetItem(id: ID) =>
    item <- N<Item>(id)
    RETURN item

// Single durable write (floor: one durable transaction with two puts).
QUERY AddItem(name: String, n: I64) =>
    item <- AddN<Item>({name: name, n: n})
    RETURN item
