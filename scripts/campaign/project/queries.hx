// ---- writes: each kind the kill -9 campaign mixes

QUERY AddItem(key: String, grp: U32, text: String, n: I64) =>
    item <- AddN<Item>({key: key, grp: grp, text: text, n: n})
    RETURN item

QUERY Ingest(items: [{key: String, grp: U32, text: String, n: I64}]) =>
    FOR {key, grp, text, n} IN items {
        AddN<Item>({key: key, grp: grp, text: text, n: n})
    }
    RETURN NONE

QUERY LinkItems(from: ID, to: ID, w: I64) =>
    link <- AddE<Link>({w: w})::From(from)::To(to)
    RETURN link

QUERY UpdateItem(id: ID, text: String, n: I64) =>
    item <- N<Item>(id)::UPDATE({text: text, n: n})
    RETURN item

QUERY DropItem(id: ID) =>
    DROP N<Item>(id)
    RETURN NONE

QUERY AddVec(v: [F64], key: String) =>
    vec <- AddV<Vec>(v, {key: key})
    RETURN vec

QUERY DropVec(id: ID) =>
    DROP V<Vec>(id)
    RETURN NONE

// ---- reads: scans, and the index lookups the checks compare with them

QUERY AllItems() =>
    items <- N<Item>
    RETURN items

QUERY AllLinks() =>
    links <- E<Link>
    RETURN links

QUERY AllVecs() =>
    vecs <- V<Vec>
    RETURN vecs

QUERY ByKey(key: String) =>
    item <- N<Item>({key: key})
    RETURN item

QUERY InGroup(grp: U32) =>
    items <- N<Item>::WHERE(_::{grp}::EQ(grp))
    RETURN items

QUERY LinksOf(id: ID) =>
    links <- N<Item>(id)::OutE<Link>
    RETURN links

QUERY CountItems() =>
    total <- N<Item>::COUNT
    RETURN total

QUERY SearchText(q: String, k: U32) =>
    hits <- SearchBM25<Item>(q, k)
    RETURN hits

QUERY Nearest(v: [F64], k: U32) =>
    hits <- SearchV<Vec>(v, k)
    RETURN hits

QUERY TwoHops(id: ID) =>
    items <- N<Item>(id)::Out<Link>::Out<Link>
    RETURN items
