QUERY AllItems() =>
    items <- N<Item>
    RETURN items

QUERY CountThreeHops(id: ID) =>
    total <- N<User>(id)::Out<Follows>::Out<Follows>::Out<Follows>::COUNT
    RETURN total

QUERY ThreeHops(id: ID) =>
    users <- N<User>(id)::Out<Follows>::Out<Follows>::Out<Follows>
    RETURN users

QUERY Ingest(items: [{name: String, n: I64}]) =>
    FOR {name, n} IN items {
        AddN<Item>({name: name, n: n})
    }
    RETURN NONE

QUERY Nearest(v: [F64], k: U32) =>
    hits <- SearchV<Vec>(v, k)
    RETURN hits
